"""The site's language switcher (every page's language menu links here)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponseRedirect
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language_from_request


def switch_language(request: HttpRequest) -> HttpResponseRedirect:
    """``/lang/?language=he&next=/en/events/x/``: the same page under the chosen language.

    A GET form posts here, so public pages embed no CSRF token and can be cached whole. ``next`` must
    be a page of this site and ``language`` one of settings.LANGUAGES; anything else falls back to the
    home page or keeps the current language. The language prefix of ``next`` is replaced (or added)."""
    codes = [code for code, _name in settings.LANGUAGES]
    language = request.GET.get("language", "")
    next_url = request.GET.get("next") or "/"
    if not next_url.startswith("/") or not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    if language not in codes:
        return HttpResponseRedirect(next_url)
    parts = urlsplit(next_url)
    segments = parts.path.split("/")  # "/en/events/x/" -> ["", "en", "events", "x", ""]
    if len(segments) > 1 and segments[1] in codes:
        segments[1] = language
        path = "/".join(segments)
    else:
        path = f"/{language}{parts.path}" if parts.path != "/" else f"/{language}/"
    response = HttpResponseRedirect(urlunsplit(("", "", path, parts.query, "")))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
    )
    return response


def root(request: HttpRequest) -> HttpResponseRedirect:
    """The bare ``/``: the reader's language (the language cookie, else Accept-Language, else English)."""
    response = HttpResponseRedirect(f"/{get_language_from_request(request)}/")
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response
