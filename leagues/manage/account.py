"""A user's own account: password (change, or reset by email in the user's language), API token, and the
language of the emails the site sends them."""

from django.contrib import messages
from django.contrib.auth import user_logged_in
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.dispatch import receiver
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from ..notifications import language_of, notify_after_commit, remember_language
from ..services.people import api_token_create, api_token_revoke


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's reset form, but the email is written in the user's language and sent by a Celery task
    after the request (a slow or failing mail server never makes the page wait)."""

    def save(self, *args, **kwargs):
        for user in self.get_users(self.cleaned_data["email"]):
            notify_after_commit("password_reset", user_id=user.pk)


@receiver(user_logged_in)
def _remember_language(sender, request, user, **kwargs):
    """The language a user logs in with is the language of the emails they receive."""
    remember_language(user, getattr(request, "LANGUAGE_CODE", None) or get_language())


@login_required
def account(request):
    user = request.user
    if request.method == "POST":
        if request.POST.get("token") == "create":
            key = api_token_create(user=user)
            messages.success(request, _("Your new API token: %(key)s (shown once; keep it secret).") % {"key": key})
        elif request.POST.get("token") == "revoke":
            api_token_revoke(user=user)
            messages.success(request, _("API token revoked."))
        return redirect("manage:account")
    return render(
        request,
        "leagues/manage/account.html",
        {"has_token": Token.objects.filter(user=user).exists(), "language": language_of(user)},
    )
