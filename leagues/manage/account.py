"""A user's own account: password (change, or reset by email in the user's language), the language of the
emails the site sends them; the API tokens have their own page (tokens.py)."""

from django.contrib.auth import user_logged_in
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.dispatch import receiver
from django.shortcuts import render
from django.utils.translation import get_language

from ..notifications import language_of, notify_after_commit, remember_language


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
    """Who is logged in, the password, the language of the emails, and the way to the API tokens."""
    return render(request, "leagues/manage/account.html", {"language": language_of(request.user)})
