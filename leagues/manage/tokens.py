"""The workspace page where users make, see (by prefix) and revoke their own API tokens."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import ServiceError
from ..models import Scope
from ..services.tokens import api_token_create, api_token_revoke, api_tokens_of


class TokenForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    scopes = forms.MultipleChoiceField(
        label=gettext_lazy("Scopes"), choices=Scope.choices, widget=forms.CheckboxSelectMultiple
    )
    expires_at = forms.DateTimeField(
        label=gettext_lazy("Expires (optional)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )


@login_required
def tokens(request):
    form = TokenForm(request.POST or None)
    if request.method == "POST" and request.POST.get("revoke"):
        try:
            api_token_revoke(user=request.user, token_key=request.POST["revoke"])
            messages.success(request, _("The token was revoked; it no longer works."))
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("manage:tokens")
    if request.method == "POST" and form.is_valid():
        try:
            _token, key = api_token_create(
                user=request.user,
                name=form.cleaned_data["name"],
                scopes=form.cleaned_data["scopes"],
                expires_at=form.cleaned_data["expires_at"],
            )
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            # shown in this answer only: never in the messages framework, whose cookie anyone holding it can read
            shown_once = _("Your new API token: %(key)s (shown once; keep it secret).") % {"key": key}
            return _page(request, TokenForm(), shown_once)
    return _page(request, form)


def _page(request, form, shown_once=""):
    context = {"form": form, "tokens": api_tokens_of(request.user), "shown_once": shown_once}
    response = render(request, "leagues/manage/tokens.html", context)
    if shown_once:
        response["Cache-Control"] = "no-store"
    return response
