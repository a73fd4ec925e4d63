"""HTTP caching of the public pages, for browsers and a CDN in front of the site.

A public page (the site's, the widgets', the tie-break guides') answered to a reader who is not logged in
says `Cache-Control: public, max-age, s-maxage, stale-while-revalidate` (settings PUBLIC_*), carries an
ETag (the event's page stamp for event pages, else made from the body) and varies on nothing but the
language, which is in its URL: no `Vary: Cookie`, no cookie set. Anything answered to a logged-in user is
`private, no-store`, so no shared cache ever keeps a page that names someone.

Whether a reader is logged in is decided without reading the session when the request has no session
cookie (no database query, and the session middleware adds no `Vary: Cookie`).
"""

from django.conf import settings
from django.utils.cache import get_conditional_response, patch_cache_control, set_response_etag

# URL namespaces (and unnamespaced URL names) whose GET pages are the same for every reader
PUBLIC_NAMESPACES = {"leagues", "embed", "tiebreaks"}
PUBLIC_URL_NAMES = {"about"}


def may_be_logged_in(request) -> bool:
    """True when the request could come from a logged-in user (it has a session cookie and the session
    names a user); without a session cookie the session is never read."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return False
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated)


def public_cache_control() -> str:
    return (
        f"public, max-age={settings.PUBLIC_MAX_AGE}, s-maxage={settings.PUBLIC_S_MAXAGE}, "
        f"stale-while-revalidate={settings.PUBLIC_STALE_WHILE_REVALIDATE}"
    )


def mark_public(response) -> None:
    response["Cache-Control"] = public_cache_control()
    flag_public_page(response)


def flag_public_page(response) -> None:
    """Our flag on Django's answer (read with getattr): a public page, the same for every reader."""
    response.public_page = True


def mark_private(response) -> None:
    if response.has_header("Cache-Control"):
        del response["Cache-Control"]
    patch_cache_control(response, private=True, no_store=True)


def _is_public_page(request) -> bool:
    match = getattr(request, "resolver_match", None)
    if match is None or request.method not in ("GET", "HEAD"):
        return False
    return match.namespace in PUBLIC_NAMESPACES or (not match.namespace and match.url_name in PUBLIC_URL_NAMES)


def _drop_vary_cookie(response) -> None:
    if not response.has_header("Vary"):
        return
    kept = [v.strip() for v in response["Vary"].split(",") if v.strip().lower() != "cookie"]
    if kept:
        response["Vary"] = ", ".join(kept)
    else:
        del response["Vary"]


class PublicCacheMiddleware:
    """Listed before the session middleware, so it sees the answer after the session has added its Vary."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if may_be_logged_in(request) or (
            "HTTP_AUTHORIZATION" in request.META and not getattr(response, "public_page", False)
        ):
            mark_private(response)  # a user's own answers (an API token's too) are never stored by a cache
            return response
        if not getattr(response, "public_page", False) and _is_public_page(request):
            if response.status_code != 200 or response.cookies or response.streaming:
                return response
            if response.has_header("Cache-Control") and "public" not in response["Cache-Control"]:
                return response  # the view chose otherwise
            mark_public(response)
            if not response.has_header("ETag"):
                set_response_etag(response)
            conditional = get_conditional_response(request, etag=response["ETag"], response=response)
            if conditional is None:
                raise RuntimeError("given an answer, Django returns it or its 304/412")
            response = conditional
            flag_public_page(response)
        if getattr(response, "public_page", False):
            response["Cache-Control"] = public_cache_control()
            _drop_vary_cookie(response)
        return response
