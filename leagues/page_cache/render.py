"""Serving a page from the cache or rendering it: `cached_page`, one uncached render at a time in a process (the render
lock), and reads shared by the renders under one stamp."""

import logging
import threading
import time

from django.http import Http404, HttpResponse, HttpResponseNotModified, QueryDict

from ..http_cache import may_be_logged_in
from .http import (
    KEPT_HEADERS,
    _as_it_was,
    _encode,
    _gzipped,
    _not_modified,
    _response_of,
    _with_stamp,
)
from .stamps import _stamp_of, modified_of
from .store import TTL, _local, _page_key, _remember, _store
from .worker import RENDER_PASS, _left_to_a_worker, _note_render_time

log = logging.getLogger(__name__)


# One uncached render at a time in a process: its threads cannot render side by side anyway (one
# interpreter lock), and a cheap request (/ping, /healthz, a cached page) then shares the process with
# one render instead of waiting behind several. A thread that waited finds the page its neighbour rendered;
# a reader of a page kept from a recent earlier stamp does not wait but gets that page.
_RENDERING = threading.RLock()
# how much older (by its stamp) a page kept from an earlier stamp may be and still be served while a neighbour
# renders
EARLIER_PAGE_SECONDS = 5


# What the renders of an event's pages read alike (its standings and entries: a 1,000-player open's take a quarter of
# a second to read and decode) is read once per stamp and process, then shared by the renders that follow under the
# same stamp (a worker's render pass renders ten pages of the event in a row). Read after the stamp was taken, it is at
# least as new as the stamp: a page rendered from it is never older than the stamp it is stored under. Only renders
# use it, and they run one at a time in a process (_RENDERING).
SHARED_READ_STAMPS = 4
_shared_reads: dict[tuple[str, str], dict] = {}  # (slug, stamp) -> {what: value}
_render_scope = threading.local()  # .stamp: the (slug, stamp) of the page this thread renders now


def read_once_per_stamp(what, read):
    """`read()`, or its value for the page being rendered if a render under the same stamp read it already."""
    scope = getattr(_render_scope, "stamp", None)
    if scope is None:
        return read()
    reads = _shared_reads.get(scope)
    if reads is None:
        while len(_shared_reads) >= SHARED_READ_STAMPS:
            _shared_reads.pop(next(iter(_shared_reads)), None)
        reads = _shared_reads[scope] = {}
    if what not in reads:
        reads[what] = read()
    return reads[what]


def _render_under(slug: str, stamp: str, render, request=None) -> HttpResponse:
    """`render()` sharing the reads of renders under the same stamp; with `request` (a page kept for every reader),
    as if the reader had asked without a query: the page's name holds what of the query it depends on (read by the
    view before), and nothing else of it (a search box's text) may reach the readers after this one."""
    _render_scope.stamp = (slug, stamp)
    asked = getattr(request, "_request", request)  # an API view's request wraps Django's
    query = (asked.GET, asked.META.get("QUERY_STRING", "")) if asked is not None and asked.GET else None
    if query is not None:
        asked.GET, asked.META["QUERY_STRING"] = QueryDict(), ""
    try:
        return render()
    finally:
        _render_scope.stamp = None
        if query is not None:
            asked.GET, asked.META["QUERY_STRING"] = query


def cached_page(
    *,
    slug: str,
    name: str,
    database_stamp,
    render,
    request=None,
    store=True,
    explained=False,
) -> HttpResponse:
    """Serve page `name` of event `slug` from the cache if it is current, else render and store it.

    `database_stamp()` gives a stamp from the database when the cache has none (None: no such event).
    With `request`, the answer carries an ETag and Last-Modified made from the stamp, and a conditional
    request that the stamp answers gets 304 before anything is read or rendered. A page for a logged-in
    reader names the reader (and carries a form token): rendered, never cached, `private, no-store`.
    `store=False`: a page of too many variants to keep (it is rendered each time, with the same headers).
    `explained=True`: the page shows the explanation traces, which are stored after the standings (its stamp
    also changes with `event_explanations_changed`)."""
    if request is not None and may_be_logged_in(request):
        return render()
    stamp = _stamp_of(slug, database_stamp, explained)
    if stamp is None:
        return render()
    if request is not None:
        # CachedPageMiddleware learns the route from the answer (an API view's request wraps Django's)
        getattr(request, "_request", request).cached_page = (
            slug,
            name,
            store,
            explained,
        )
    etag = f'"{stamp}-{name}"'
    if request is not None and _not_modified(request, stamp, etag):
        return _with_stamp(HttpResponseNotModified(), etag, stamp)
    page = _kept_page(slug, name, stamp) if store else None
    fresh = page is not None and page[0] == stamp
    if not fresh:
        if page is not None and _left_to_a_worker(request, slug, name, page[0], stamp):
            return _as_it_was(request, name, page)
        earlier = page if page is not None and _recent(page[0], stamp) else None
        if earlier is not None and not _RENDERING.acquire(blocking=False):
            # a neighbour thread is rendering: this reader gets the page as it was at once, rather than a thread
            # kept waiting while cheap requests queue for one (the new page follows within the render's time)
            return _as_it_was(request, name, earlier)
        if earlier is None:
            _RENDERING.acquire()
        try:
            page = _local.get((slug, name)) if store else None
            fresh = page is not None and page[0] == stamp  # a neighbour thread rendered it while this one waited
            if not fresh:
                response, page = _render_and_keep(slug, name, stamp, render, request, store)
        finally:
            _RENDERING.release()
    if fresh:
        if page is None:
            raise RuntimeError("a fresh render keeps the page of this stamp")
        response = _response_of(request, page, (slug, name))
    if request is not None and response.status_code == 200:
        _with_stamp(response, etag, stamp)
        if page is not None and page[0] == stamp and len(page) > 4 and page[4] is not None:
            _encode(request, response, page[4])
    return response


def _kept_page(slug: str, name: str, stamp: str):
    """The page as this process keeps it, else as the shared store keeps it when this process has none of `stamp`
    (another process may have rendered it already); None when neither has it."""
    page = _local.get((slug, name))
    if page is None or page[0] != stamp:
        try:
            page = _store().get(_page_key(slug, name))
        except Exception:
            page = None
        if page is not None and page[0] == stamp:
            _remember(slug, name, page)
    return page


def _render_and_keep(slug: str, name: str, stamp: str, render, request, store: bool):
    """The response of `render()` and, when it is a page to keep (`store`, status 200), the page kept here and in
    the shared store under `stamp` (else None); its render time is noted. A page that is gone (404) is forgotten."""
    started = time.perf_counter()
    try:
        response = _render_under(slug, stamp, render, request if store else None)
    except Exception as error:
        if store and (isinstance(error, Http404) or getattr(error, "status_code", None) == 404):
            _forget(slug, name)  # no reader gets the page as it was in its place
        raise
    if not store or response.status_code != 200:
        return response, None
    in_a_pass = request is not None and RENDER_PASS in request.META
    _note_render_time(slug, name, time.perf_counter() - started, in_a_pass)
    kept = {h: response[h] for h in KEPT_HEADERS if response.has_header(h)}
    gzipped = _gzipped(response)
    page = (stamp, response.content, response["Content-Type"], kept, gzipped)
    _remember(slug, name, page)
    shared = page if gzipped is None else (stamp, None, *page[2:])
    try:
        _store().set(_page_key(slug, name), shared, TTL)
    except Exception:
        log.warning("page cache unreachable; %s not stored", name, exc_info=True)
    return response, page


def _forget(slug: str, name: str) -> None:
    """The page is no longer there (a round taken away, an entry deleted): its kept copy goes too."""
    _local.pop((slug, name), None)
    try:
        _store().delete(_page_key(slug, name))
    except Exception:
        log.warning("page cache unreachable; %s not forgotten", name, exc_info=True)


def _recent(earlier: str, current: str) -> bool:
    """A page of the `earlier` stamp may stand in for the `current` one while a neighbour renders: only a few
    seconds older (each renewal moves a stamp on by a second at least, so also only a few changes behind)."""
    return modified_of(current) - modified_of(earlier) <= EARLIER_PAGE_SECONDS
