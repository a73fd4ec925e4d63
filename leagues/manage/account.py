"""A user's own account: password (change, or reset by email in the user's language), named API tokens
(create with scopes, list, revoke), and the language of the emails the site sends them."""

from django import forms
from django.contrib import messages
from django.contrib.auth import user_logged_in
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.dispatch import receiver
from django.shortcuts import redirect, render
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..models import Scope
from ..notifications import language_of, notify_after_commit, remember_language
from ..services.tokens import api_token_create, api_token_revoke, api_tokens_of


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's reset form, but the email is written in the user's language and sent by a Celery task
    after the request (a slow or failing mail server never makes the page wait)."""

    def save(self, *args, **kwargs):
        for user in self.get_users(self.cleaned_data["email"]):
            notify_after_commit("password_reset", user_id=user.pk)


class TokenForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, help_text=gettext_lazy("E.g. “results program at the club”."))
    scopes = forms.MultipleChoiceField(
        label=gettext_lazy("Scopes"), choices=Scope.choices, widget=forms.CheckboxSelectMultiple, initial=["read"]
    )


@receiver(user_logged_in)
def _remember_language(sender, request, user, **kwargs):
    """The language a user logs in with is the language of the emails they receive."""
    remember_language(user, getattr(request, "LANGUAGE_CODE", None) or get_language())


@login_required
def account(request):
    user = request.user
    form = TokenForm(request.POST if "create" in request.POST else None)
    if request.method == "POST":
        try:
            if "revoke" in request.POST:
                api_token_revoke(user=user, token_key=request.POST["revoke"])
                messages.success(request, _("API token revoked."))
                return redirect("manage:account")
            if form.is_valid():
                _token, key = api_token_create(
                    user=user, name=form.cleaned_data["name"], scopes=form.cleaned_data["scopes"]
                )
                messages.success(request, _("Your new API token: %(key)s (shown once; keep it secret).") % {"key": key})
                return redirect("manage:account")
        except ServiceError as exc:
            form.add_error(None, exc.message)
    return render(
        request,
        "leagues/manage/account.html",
        {"tokens": api_tokens_of(user), "form": form, "language": language_of(user)},
        status=400 if form.errors else 200,
    )
