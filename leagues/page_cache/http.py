"""HTTP caching of a stored page: its validators from the stamp, 304 to a conditional request, the gzip copy for a
reader who accepts it."""

import gzip
import time

from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe

from ..http_cache import mark_public
from .stamps import modified_of
from .store import _remember

# what a stored page keeps of its headers (the validators and Cache-Control come from the stamp)
KEPT_HEADERS = ("Content-Disposition",)
# a stored page is (stamp, body, Content-Type, kept headers, gzip copy or None): the gzip copy is sent to readers who
# accept it (a 1,000-player standings page: about a tenth of the bytes), compressed once when the page is rendered,
# never per request. The shared cache keeps a page that has a gzip copy as that copy only (body None): a web process
# fetches a changed 1,000-player crosstable as 60 KiB, not 1.6 MiB, and decompresses it once, for the first reader
# who does not accept gzip.
GZIP_MIN_BYTES = 1024
COMPRESSIBLE = ("text/", "application/json")


def _not_modified(request, stamp: str, etag: str) -> bool:
    """The reader's copy is current: its If-None-Match names this page's ETag or, without one, its
    If-Modified-Since is not before the stamp's time."""
    if_none_match = request.headers.get("If-None-Match")
    if if_none_match is not None:
        return etag in (tag.strip().removeprefix("W/") for tag in if_none_match.split(","))
    since = request.headers.get("If-Modified-Since")
    if since is None:
        return False
    since = parse_http_date_safe(since)
    return since is not None and since >= modified_of(stamp)


def _body(request, page: tuple, key: tuple[str, str] | None = None) -> bytes:
    """What a stored page answers with: its gzip copy for a reader who accepts it, else the page itself (decompressed
    from the gzip copy if that is all the shared cache kept; with `key`, kept decompressed in this process)."""
    gzipped = page[4] if len(page) > 4 else None
    if gzipped is not None and request is not None and _accepts_gzip(request):
        return gzipped
    if page[1] is not None:
        return page[1]
    if gzipped is None:
        raise RuntimeError("a stored page keeps its body or its gzip copy")
    body = gzip.decompress(gzipped)
    if key is not None:
        _remember(*key, (page[0], body, *page[2:]))
    return body


def _response_of(request, page: tuple, key: tuple[str, str] | None = None) -> HttpResponse:
    response = HttpResponse(_body(request, page, key), content_type=page[2])
    for header, value in page[3].items():
        response[header] = value
    return response


def _as_it_was(request, name: str, page: tuple) -> HttpResponse:
    """The page stored under an earlier stamp, with that stamp's ETag and Last-Modified (a reader who has it
    gets 304; the current page has another ETag)."""
    stamp = page[0]
    etag = f'"{stamp}-{name}"'
    if request is not None and _not_modified(request, stamp, etag):
        return _with_stamp(HttpResponseNotModified(), etag, stamp)
    response = _response_of(request, page)
    if request is not None:
        _with_stamp(response, etag, stamp)
        if len(page) > 4 and page[4] is not None:
            _encode(request, response, page[4])
    return response


def _gzipped(response: HttpResponse) -> bytes | None:
    content = response.content
    if len(content) < GZIP_MIN_BYTES or not response.get("Content-Type", "").startswith(COMPRESSIBLE):
        return None
    return gzip.compress(content, 6, mtime=0)


def _accepts_gzip(request) -> bool:
    """Accept-Encoding names gzip (or *) with a weight above 0."""
    for coding in request.META.get("HTTP_ACCEPT_ENCODING", "").split(","):
        name, _, params = coding.partition(";")
        if name.strip().lower() in ("gzip", "*"):
            weight = params.strip().lower().replace(" ", "")
            try:
                return not weight.startswith("q=") or float(weight[2:]) > 0
            except ValueError:
                return False
    return False


def _encode(request, response: HttpResponse, gzipped: bytes) -> None:
    """The page's gzip copy for a reader who accepts it; both answers say Vary: Accept-Encoding. The gzip
    copy's ETag is weak (another encoding of the same page), as Django's GZipMiddleware makes it; a reader's
    If-None-Match is compared weakly, so either copy's tag answers 304."""
    patch_vary_headers(response, ("Accept-Encoding",))
    if _accepts_gzip(request):
        response.content = gzipped
        response["Content-Encoding"] = "gzip"
        response["Content-Length"] = str(len(gzipped))
        if response.has_header("ETag") and not response["ETag"].startswith("W/"):
            response["ETag"] = "W/" + response["ETag"]


def _last_modified(stamp: str) -> str:
    """The stamp's time, but never later than now: renewals closer than a second apart move a stamp's seconds past
    the clock, and a Last-Modified must not be later than the answer's Date (RFC 9110, 8.8.2.1). A reader's
    If-Modified-Since is then at most the clock's time, still before any newer stamp's: never a wrong 304."""
    return http_date(min(modified_of(stamp), int(time.time())))


def _with_stamp(response: HttpResponse, etag: str, stamp: str) -> HttpResponse:
    response["ETag"] = etag
    response["Last-Modified"] = _last_modified(stamp)
    mark_public(response)
    return response
