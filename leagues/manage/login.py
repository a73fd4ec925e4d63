"""The login throttle, the same for every login door: the site's login page, the admin's, and anything
else that calls django.contrib.auth.authenticate (the backend below refuses a locked name there).

Failures are counted per name and client address (LOGIN_ATTEMPTS) and per address alone, whatever the
names (LOGIN_ADDRESS_ATTEMPTS: password spraying), for LOGIN_LOCKOUT_SECONDS; a locked name or address
is refused even with the right password. The name is counted as Django logs in with it (NFKC) and
case-folded, so "ｎobody" and "Nobody" share the attempts of "nobody". The address is the client's
as the configured proxies report it (rate_limits.client_address). When the counter does not answer,
logging in still works (fail open, logged)."""  # noqa: RUF002 - the fullwidth n is the example

import unicodedata
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render

from .. import rate_limits


def _name_key(username) -> str:
    name = unicodedata.normalize("NFKC", str(username or "")).strip().casefold()[:150]
    return f"login-name:{name}"


def _keys(request, username) -> tuple[str, str]:
    """(name and address, address alone)."""
    address = rate_limits.client_address(request)
    return f"{_name_key(username)}:{address}", f"login-address:{address}"


def login_locked(request, username) -> bool:
    by_name, by_address = _keys(request, username)
    name_failures, address_failures = rate_limits.hits(by_name), rate_limits.hits(by_address)
    return (name_failures or 0) >= settings.LOGIN_ATTEMPTS or (address_failures or 0) >= settings.LOGIN_ADDRESS_ATTEMPTS


class ThrottledModelBackend(ModelBackend):
    """Django's own backend, refusing a locked name or address before the password is checked."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is not None and login_locked(request, username or kwargs.get("username")):
            raise PermissionDenied  # authenticate() stops here and reports a failed login
        return super().authenticate(request, username=username, password=password, **kwargs)


@receiver(user_login_failed, dispatch_uid="login-throttle-failed")
def _count_failure(sender, credentials, request=None, **kwargs):
    if request is None:
        return
    for key in _keys(request, credentials.get("username")):
        rate_limits.hit(key, settings.LOGIN_LOCKOUT_SECONDS)


@receiver(user_logged_in, dispatch_uid="login-throttle-succeeded")
def _forget_failures(sender, request, user, **kwargs):
    if request is not None:
        rate_limits.reset(_keys(request, user.get_username())[0])


def refuse_when_locked(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """A login view that answers 429, with the reason, to a locked name or address."""

    @wraps(view)
    def throttled(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "POST" and login_locked(request, request.POST.get("username")):
            context = {"form": AuthenticationForm(request), "throttled": True, "next": request.POST.get("next", "")}
            return render(request, "registration/login.html", context, status=429)
        return view(request, *args, **kwargs)

    return throttled


login_view = refuse_when_locked(auth_views.LoginView.as_view())
