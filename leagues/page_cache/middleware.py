"""Answering a current cached page to an anonymous reader before the rest of the middleware."""

from django.conf import settings
from django.http import HttpResponse, HttpResponseNotModified

from ..http_cache import flag_public_page
from .http import _body, _encode, _last_modified, _not_modified
from .stamps import _stamp_of
from .store import _local, _page_key, _remember, _store
from .worker import _left_to_a_worker, left_here_lately

# Answering cached pages before the rest of the middleware. The first anonymous request for a URL goes the whole
# way (session, locale, CSRF, messages, the view); its answer teaches the process which cached page the URL is and
# which headers the stack put on it. Later anonymous requests for the same URL (and the same request headers that
# the stack reads) get a 304 from the stamp, or the stored body, without any of that: no session, no query, no
# template. Anything else (a session cookie, an API token, a page not current, a throttled client) goes the whole
# way as before.
ROUTES = 1000
_routes: dict[tuple, "_Route"] = {}
# headers of an answer that are not the route's: the validators come from the stamp, the rest from the request
_PER_ANSWER = {
    "content-encoding",
    "etag",
    "last-modified",
    "content-length",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    # an open-data download's: when its copy was built, whether it is the previous one (leagues/services/export_cache)
    "x-export-built",
    "x-export-stale",
    "retry-after",
}
_NOT_ON_304 = {"content-type", "content-disposition"}


class _Route:
    __slots__ = (
        "attributes",
        "explained",
        "headers",
        "name",
        "not_modified_headers",
        "slug",
        "throttles",
    )

    def __init__(self, slug, name, explained, headers, throttles, attributes):
        self.slug, self.name, self.explained, self.headers = (
            slug,
            name,
            explained,
            headers,
        )
        self.throttles, self.attributes = throttles, attributes
        self.not_modified_headers = [(k, v) for k, v in headers if k.lower() not in _NOT_ON_304]


def _route_key(request) -> tuple | None:
    """What of a request the stack's answer to a cached page may depend on; None: the request must go the whole
    way (it may come from a logged-in user or an API token)."""
    if request.method not in ("GET", "HEAD") or "HTTP_AUTHORIZATION" in request.META:
        return None
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None
    meta = request.META
    return (
        request.method,
        request.path_info,
        meta.get("QUERY_STRING", ""),
        meta.get("HTTP_ACCEPT", ""),
        meta.get("HTTP_ACCEPT_LANGUAGE", ""),
        request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""),
    )


def _throttles_of(request) -> tuple | None:
    """The API view's throttle classes (the early answer counts the client as the view would), () for a page."""
    match = getattr(request, "resolver_match", None)
    view_class = getattr(getattr(match, "func", None), "cls", None)
    if view_class is None:
        return ()
    return tuple(view_class.throttle_classes)


class _AnonymousApiRequest:
    """What the API throttles read of a request: the user (anonymous here), the address, the Django request."""

    def __init__(self, request):
        from django.contrib.auth.models import AnonymousUser

        self._request, self.META, self.user = request, request.META, AnonymousUser()


class CachedPageMiddleware:
    """Listed right after the CORS middleware: an anonymous request for a cached page that is current is answered
    here, with the headers the rest of the stack gave the same URL before."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = _route_key(request)
        route = _routes.get(key) if key is not None else None
        if route is not None:
            response = self._early(request, route)
            if response is not None:
                return response
        response = self.get_response(request)
        if key is not None:
            self._learn(key, request, response)
        return response

    def _learn(self, key, request, response) -> None:
        learned = getattr(request, "cached_page", None)
        if (
            learned is None
            or not learned[2]
            or response.status_code != 200
            or response.streaming
            or response.cookies
            or not getattr(response, "public_page", False)
            or not response.get("ETag", "").endswith(f'-{learned[1]}"')
        ):
            return
        headers = [(k, v) for k, v in response.items() if k.lower() not in _PER_ANSWER]
        attributes = {a: getattr(response, a) for a in ("xframe_options_exempt",) if hasattr(response, a)}
        if len(_routes) >= ROUTES:
            _routes.pop(next(iter(_routes)))
        _routes[key] = _Route(
            learned[0],
            learned[1],
            learned[3],
            headers,
            _throttles_of(request),
            attributes,
        )

    def _early(self, request, route: "_Route"):
        try:
            stamp = _stamp_of(route.slug, lambda: None, route.explained)
        except Exception:
            return None
        if stamp is None:
            return None
        found = _early_page(request, route, stamp)
        if found is None:
            return None
        stamp, etag, page = found
        allowed, limit = _throttled(request, route)
        if not allowed:
            return None  # the whole way, which answers 429
        return _early_response(request, route, stamp, etag, page, limit)


def _early_page(request, route: _Route, stamp: str):
    """(stamp, ETag, page) to answer the reader with before the view: the page None when the reader's copy is
    current (304); None when only the view can answer."""
    etag = f'"{stamp}-{route.name}"'
    if _not_modified(request, stamp, etag):
        return stamp, etag, None
    page = _local.get((route.slug, route.name))
    if page is not None and page[0] != stamp and left_here_lately(request, route.slug, route.name, page[0], stamp):
        stamp, etag = page[0], f'"{page[0]}-{route.name}"'  # the page as it was, kept here
        return stamp, etag, None if _not_modified(request, stamp, etag) else page
    if page is None or page[0] != stamp:
        try:
            page = _store().get(_page_key(route.slug, route.name))
        except Exception:
            return None
        if page is None:
            return None
        if page[0] != stamp:
            # a heavy page a worker is asked to render: the page as it was, with its own validators, as the
            # view would answer it (after every result of a big open, until the worker's render is stored)
            if not _left_to_a_worker(request, route.slug, route.name, page[0], stamp):
                return None
            stamp, etag = page[0], f'"{page[0]}-{route.name}"'
            if _not_modified(request, stamp, etag):
                return stamp, etag, None
        _remember(route.slug, route.name, page)
    return stamp, etag, page


def _throttled(request, route: _Route):
    """(allowed, the rate limit to report or None): the route's throttles, asked as the view would ask them."""
    if not route.throttles:
        return True, None
    shim = _AnonymousApiRequest(request)
    for throttle in route.throttles:
        if not throttle().allow_request(shim, None):
            return False, None
    return True, getattr(request, "rate_limit", None)


def _early_response(request, route: _Route, stamp: str, etag: str, page, limit):
    """The answer the view would give: the kept page (or 304 when `page` is None) with the route's headers."""
    response: HttpResponse
    if page is None:
        response = HttpResponseNotModified()
        headers = route.not_modified_headers
    else:
        body = _body(request, page, (route.slug, route.name))
        response = HttpResponse(body)
        response["Content-Length"] = str(len(body))
        headers = route.headers
    for header, value in headers:
        response.headers[header] = value
    if page is not None:
        for header, value in page[3].items():  # the stored page's own (an open-data download's build time)
            response.headers[header] = value
    response["ETag"] = etag
    response["Last-Modified"] = _last_modified(stamp)
    if page is not None and len(page) > 4 and page[4] is not None:
        _encode(request, response, page[4])
    if limit is not None:
        (
            response["X-RateLimit-Limit"],
            response["X-RateLimit-Remaining"],
            response["X-RateLimit-Reset"],
        ) = (str(value) for value in limit)
    for attribute, value in route.attributes.items():
        setattr(response, attribute, value)
    flag_public_page(response)
    return response
