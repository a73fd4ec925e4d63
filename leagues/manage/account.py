"""A user's own account: password (change, or reset by email in the user's language), the language of the
emails the site sends them; the API tokens have their own page (tokens.py)."""

from functools import wraps

from django.conf import settings
from django.contrib.auth import user_logged_in
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.dispatch import receiver
from django.shortcuts import render
from django.utils.translation import get_language

from .. import rate_limits
from ..notifications import language_of, notify_after_commit, remember_language


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's reset form, but the email is written in the user's language and sent by a Celery task
    after the request (a slow or failing mail server never makes the page wait). An account receives at most
    PASSWORD_RESET_EMAILS of them in PASSWORD_RESET_WINDOW_SECONDS; the page answers the same either way, so
    it never tells whether an address has an account."""

    def save(self, *args, **kwargs):
        for user in self.get_users(self.cleaned_data["email"]):
            counted = rate_limits.hit(f"password-reset-account:{user.pk}", settings.PASSWORD_RESET_WINDOW_SECONDS)
            if counted is None or counted[0] <= settings.PASSWORD_RESET_EMAILS:  # fails open, as the login does
                notify_after_commit("password_reset", user_id=user.pk)


def refuse_too_many_resets(view):
    """The reset page answers 429 to a client address that asked more than PASSWORD_RESET_ADDRESS_ATTEMPTS
    times in PASSWORD_RESET_WINDOW_SECONDS, whichever addresses it typed."""

    @wraps(view)
    def throttled(request, *args, **kwargs):
        if request.method == "POST":
            key = f"password-reset-address:{rate_limits.client_address(request)}"
            counted = rate_limits.hit(key, settings.PASSWORD_RESET_WINDOW_SECONDS)
            if counted is not None and counted[0] > settings.PASSWORD_RESET_ADDRESS_ATTEMPTS:
                context = {"form": QueuedPasswordResetForm(), "throttled": True}
                return render(request, "registration/password_reset_form.html", context, status=429)
        return view(request, *args, **kwargs)

    return throttled


password_reset_view = refuse_too_many_resets(auth_views.PasswordResetView.as_view(form_class=QueuedPasswordResetForm))


@receiver(user_logged_in)
def _remember_language(sender, request, user, **kwargs):
    """The language a user logs in with is the language of the emails they receive."""
    remember_language(user, getattr(request, "LANGUAGE_CODE", None) or get_language())


@login_required
def account(request):
    """Who is logged in, the password, the language of the emails, and the way to the API tokens."""
    return render(request, "leagues/manage/account.html", {"language": language_of(request.user)})
