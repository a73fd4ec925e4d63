"""Whole public pages served from a shared cache until something they show changes.

Every service whose write changes what pages show says what it changed with `pages_changed` (this event, this
player, this club, an address gone); once the transaction commits, each event concerned gets a new stamp. A page is
served from the cache only while it carries the event's current stamp. A missing stamp (cache restarted or evicted)
is derived from the database, and any cache error falls back to rendering the page, so the cache can only make pages
faster, never wrong.

An event that stops being public (deleted, back to draft) has its stamp replaced by HIDDEN at once: none of its pages
is served from the cache any more, a conditional request is not answered 304, every request goes to the view (which
answers 404). Only a change read from the database as public shows the event again (`pages_changed`), and a page kept
for every reader is rendered without the reader's query: nothing of one reader's request reaches another.
"""

import gzip
import io
import json
import logging
import pickle
import threading
import time
import uuid

from django.conf import settings
from django.core.cache import cache as django_cache
from django.db.models import Q
from django.http import Http404, HttpResponse, HttpResponseNotModified, QueryDict
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe

from . import broker, redis_outage
from .after_commit import once_after_commit
from .health import heartbeat_stale_after
from .http_cache import mark_public, may_be_logged_in
from .models import Event

log = logging.getLogger(__name__)
TTL = 24 * 3600
# the stamp of an event that is not public: its pages are never served from the cache. Kept longer than any page
# stored before it (TTL); gone (evicted), the stamp is derived from the database, which knows no stamp of such an event.
HIDDEN = "hidden"
HIDDEN_TTL = TTL + 3600


class _RedisStore:
    """One Redis client per process (Django's cache builds a new client object on every call, which
    costs more than the lookup itself on this hot path)."""

    def __init__(self, url: str, prefix: str):
        # short timeouts: a hung Redis costs a request half a second, then the page is rendered
        self.client = redis_outage.client(url, 0.5)
        self.prefix = prefix

    def get(self, key):
        value = self.client.get(f"{self.prefix}:{key}")
        return None if value is None else pickle.loads(value)

    def set(self, key, value, ttl):
        self.client.set(f"{self.prefix}:{key}", pickle.dumps(value), ex=ttl)

    def add(self, key, value, ttl):
        self.client.set(f"{self.prefix}:{key}", pickle.dumps(value), ex=ttl, nx=True)

    def delete(self, key):
        self.client.delete(f"{self.prefix}:{key}")

    def set_unless_hidden(self, key, value, ttl, reveal: bool) -> None:
        """Set `key` to `value` (None: leave it) unless it is HIDDEN, then delete it if `reveal`; in one step, so a
        hiding that comes between is never overwritten."""
        self.client.eval(
            _SET_UNLESS_HIDDEN,
            1,
            f"{self.prefix}:{key}",
            b"" if value is None else pickle.dumps(value),
            ttl,
            pickle.dumps(HIDDEN),
            int(reveal),
        )


_SET_UNLESS_HIDDEN = """
if redis.call('GET', KEYS[1]) == ARGV[3] then
    if ARGV[4] == '1' then redis.call('DEL', KEYS[1]) end
    return 0
end
if ARGV[1] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end
return 1
"""


def _store():
    global _STORE
    if _STORE is None:
        options = settings.CACHES["default"]
        if options["BACKEND"].endswith("RedisCache"):
            _STORE = _RedisStore(options["LOCATION"], f"{options.get('KEY_PREFIX', '')}:pages")
        else:
            _STORE = django_cache
    return _STORE


_STORE = None


# pages this process rendered or fetched, checked against the shared stamp on every request
_local: dict[tuple[str, str], tuple] = {}
# the shared stamps, trusted for PAGE_STAMP_SECONDS in this process (a change made by another process shows
# after at most that long; this process's own changes show at once)
_local_stamps: dict[str, tuple[str, float]] = {}
LOCAL_PAGES = 500
# what a stored page keeps of its headers (the validators and Cache-Control come from the stamp)
KEPT_HEADERS = ("Content-Disposition",)
# a stored page is (stamp, body, Content-Type, kept headers, gzip copy or None): the gzip copy is sent to readers who
# accept it (a 1,000-player standings page: about a tenth of the bytes), compressed once when the page is rendered,
# never per request. The shared cache keeps a page that has a gzip copy as that copy only (body None): a web process
# fetches a changed 1,000-player crosstable as 60 KiB, not 1.6 MiB, and decompresses it once, for the first reader
# who does not accept gzip.
GZIP_MIN_BYTES = 1024
COMPRESSIBLE = ("text/", "application/json")
# One uncached render at a time in a process: its threads cannot render side by side anyway (one
# interpreter lock), and a cheap request (/ping, /healthz, a cached page) then shares the process with
# one render instead of waiting behind several. A thread that waited finds the page its neighbour rendered;
# a reader of a page kept from a recent earlier stamp does not wait but gets that page.
_RENDERING = threading.RLock()
# how much older (by its stamp) a page kept from an earlier stamp may be and still be served while a neighbour
# renders
EARLIER_PAGE_SECONDS = 5


# Pages rendered by a worker. A page whose last render took PAGE_HEAVY_RENDER_MS or more (a big event's standings,
# crosstable, player pages) is not rendered again in a web process while a worker is alive: after a change its
# readers get the page as it was (at most PUBLIC_STALE_WHILE_REVALIDATE older by its stamp, as a CDN may serve it) at
# once, and the pages they asked for are rendered by a worker: by the event's next recompute once its standings are
# stored (at most every RENDER_PASS_SECONDS), or by the render pass the first of them sent, which waits behind every
# other task. Web processes then answer from the cache only, and a cheap request never shares its process with a long
# render.
ASKED_TTL = 600
PASS_QUEUED_TTL = 60  # a pass lost on its way (its worker killed) is sent again after this long at most
RENDER_PASS_SECONDS = 5  # the recomputes of a busy event render its pages at most this often
RENDER_PASS = "chess_league.render_pass"  # set in the environ of a render pass's requests: they always render
# what of a reader's request a render pass asks with again (the answer may depend on these, nothing else); kept
# under the event's list of pages asked for, one request per page
REPLAYED = (
    "PATH_INFO",
    "QUERY_STRING",
    "SERVER_NAME",
    "SERVER_PORT",
    "wsgi.url_scheme",
    "HTTP_HOST",
    "HTTP_ACCEPT",
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_X_FORWARDED_PROTO",
)
_worker_alive: tuple[bool, float] = (False, 0.0)


def _remember(slug: str, name: str, page: tuple) -> None:
    if len(_local) >= LOCAL_PAGES:
        _local.pop(next(iter(_local)))
    _local[(slug, name)] = page


def _stamp_key(slug: str) -> str:
    return f"event-stamp:{slug}"


def _heavy_key(slug: str) -> str:
    return f"event-heavy-pages:{slug}"


def _asked_key(slug: str) -> str:
    return f"event-pages-asked:{slug}"


def _pass_key(slug: str) -> str:
    return f"event-render-pass:{slug}"


def _rendered_key(slug: str) -> str:
    return f"event-rendered-after-recompute:{slug}"


def _explained_key(slug: str) -> str:
    return f"event-explained:{slug}"


def _page_key(slug: str, name: str) -> str:
    return f"event-page:{slug}:{name}"


def _new_stamp(*previous: str | None) -> str:
    """A stamp is "<seconds>-<token>": the seconds are the pages' Last-Modified, always later than the
    previous stamps' (a reader's If-Modified-Since never matches a newer page within the same second)."""
    seconds = int(time.time())
    for stamp in previous:
        if stamp is not None:
            seconds = max(seconds, modified_of(stamp) + 1)
    return f"{seconds}-{uuid.uuid4().hex}"


def modified_of(stamp: str) -> int:
    head = stamp.split("-", 1)[0]
    return int(head) if head.isdecimal() and len(head) <= 11 else 0  # a stamp of an older release: no time


def event_pages_changed(*, slug: str, reveal: bool = False) -> None:
    """The event's pages get a new stamp; an event whose pages are hidden keeps them hidden. `reveal`: the event was
    read from the database as public after the change committed: hidden pages are shown again (_renew)."""
    _renew(slug, _stamp_key(slug), _explained_key(slug), reveal)
    if reveal:
        _reveal(slug, _explained_key(slug))


def _shown_key(slug: str) -> str:
    return f"event-snapshot-shown:{slug}"


def event_pages_show_snapshot(*, slug: str, version: int) -> None:
    """The event's standings snapshot `version` is stored: its pages get a new stamp, and the version is recorded
    as shown (a worker that dies between its commit and this call leaves pages that still say "being updated";
    the sweep finds them by this record and renews them: renew_lost)."""
    event_pages_changed(slug=slug)
    try:
        _store().set(_shown_key(slug), version, TTL)
    except Exception:
        log.warning("page cache unreachable; snapshot %s of %s not recorded as shown", version, slug, exc_info=True)


def renew_lost(snapshots) -> list[str]:
    """Of the (slug, version) of stored snapshots, renew the pages of those never recorded as shown; their slugs."""
    renewed = []
    for slug, version in snapshots:
        try:
            shown = _store().get(_shown_key(slug))
        except Exception:
            log.warning("page cache unreachable; lost renewals not looked for", exc_info=True)
            break
        if shown is None or shown < version:
            event_pages_show_snapshot(slug=slug, version=version)
            renewed.append(slug)
    return renewed


def event_explanations_changed(*, slug: str) -> None:
    """The snapshot's explanation traces are stored: only the pages that show them (`explained=True`: the
    player and team pages, why one is above another, the API with explain=1) get a new stamp; the standings,
    crosstable and the rest stay cached."""
    _renew(slug, _explained_key(slug), _stamp_key(slug))


def _renew(slug: str, key: str, other: str, reveal: bool = False) -> None:
    """A new stamp under `key`, later than both the old one and the event's `other` stamp (a page showing
    explanations carries the later of the two as its Last-Modified, so either renewal moves it on). A HIDDEN stamp
    stays: a change of an event that is not public shows nothing. `reveal` (the event was read as public after the
    change committed): a HIDDEN stamp is removed instead, and the next reader's stamp is derived from the database,
    which knows none for an event that is not public (a hiding that came after the read stays in force)."""
    _local_stamps.pop(key, None)
    try:
        store = _store()
        stamp = _new_stamp(*(s if s != HIDDEN else None for s in (store.get(key), store.get(other))))
        _set_unless_hidden(store, key, stamp, reveal)
    except Exception:  # a cache outage must not fail a write; pages then fall back to the database stamp
        log.warning("page cache unreachable; stamp of %s not renewed", slug, exc_info=True)
        try:
            _store().delete(key)
        except Exception:
            pass


def _set_unless_hidden(store, key: str, stamp: str | None, reveal: bool) -> None:
    if isinstance(store, _RedisStore):
        store.set_unless_hidden(key, stamp, TTL, reveal)
    elif store.get(key) != HIDDEN:  # a cache of one process (development): no neighbour comes between
        if stamp is not None:
            store.set(key, stamp, TTL)
    elif reveal:
        store.delete(key)


def event_pages_hidden(*, slug: str) -> None:
    """The event is no longer public (deleted, back to draft, its address changed): from now on none of its pages is
    served from the cache (nor answered 304 by its stamp) in this process at once, in the others within
    PAGE_STAMP_SECONDS; each request goes to the view, which answers 404. The pages kept under its earlier stamps
    are never served again: each path to them starts from the event's current stamp."""
    for local in list(_local):  # a copy: other threads may add pages meanwhile
        if local[0] == slug:
            _local.pop(local, None)
    for key in (_stamp_key(slug), _explained_key(slug)):
        _local_stamps.pop(key, None)
    try:
        for key in (_stamp_key(slug), _explained_key(slug)):
            _store().set(key, HIDDEN, HIDDEN_TTL)
    except Exception:
        log.error("page cache unreachable; the pages of %s, no longer public, not hidden", slug, exc_info=True)


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


def _stamp_of(slug: str, database_stamp, explained: bool = False):
    """The stamp of an event's page; for a page showing the explanation traces, the event's stamp and its
    explanations' stamp together (Last-Modified: the later of the two)."""
    stamp = _current_stamp(slug, database_stamp)
    if stamp is None or not explained:
        return stamp
    traces = _current_stamp(slug, lambda: uuid.uuid4().hex, _explained_key(slug))  # none kept: a new one
    if traces is None:
        return None
    return f"{max(modified_of(stamp), modified_of(traces))}-{stamp.split('-', 1)[-1]}.{traces.split('-', 1)[-1]}"


def _current_stamp(slug: str, database_stamp, key: str | None = None):
    """The event's stamp (or the one under `key`): this process's copy while it is fresh, else the shared
    cache's, else one made from the database and shared (None: no such event, or the cache does not answer)."""
    key = key or _stamp_key(slug)
    stamp, fresh_until = _local_stamps.get(key, (None, 0.0))
    if time.monotonic() < fresh_until:
        return None if stamp == HIDDEN else stamp
    cache = _store()
    try:
        stamp = cache.get(key)
    except Exception:
        log.warning("page cache unreachable; rendering %s", slug, exc_info=True)
        return None
    if stamp is None:
        made = database_stamp()
        if made is None:
            return None  # no such event: let the view answer 404
        try:
            cache.add(key, f"{int(time.time())}-{made}", TTL)
            stamp = cache.get(key)
        except Exception:
            return None
        if stamp is None:
            return None
    if settings.PAGE_STAMP_SECONDS:
        _local_stamps[key] = (stamp, time.monotonic() + settings.PAGE_STAMP_SECONDS)
    return None if stamp == HIDDEN else stamp


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
    *, slug: str, name: str, database_stamp, render, request=None, store=True, explained=False
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
        getattr(request, "_request", request).cached_page = (slug, name, store, explained)
    etag = f'"{stamp}-{name}"'
    if request is not None and _not_modified(request, stamp, etag):
        return _with_stamp(HttpResponseNotModified(), etag, stamp)
    page = _local.get((slug, name))
    if store and (page is None or page[0] != stamp):  # another process may have rendered it already
        try:
            page = _store().get(_page_key(slug, name))
        except Exception:
            page = None
        if page is not None and page[0] == stamp:
            _remember(slug, name, page)
    fresh = store and page is not None and page[0] == stamp
    if not fresh:
        if store and page is not None and _left_to_a_worker(request, slug, name, page[0], stamp):
            return _as_it_was(request, name, page)
        earlier = page if store and page is not None and _recent(page[0], stamp) else None
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
                started = time.perf_counter()
                try:
                    response = _render_under(slug, stamp, render, request if store else None)
                except Exception as error:
                    if store and (isinstance(error, Http404) or getattr(error, "status_code", None) == 404):
                        _forget(slug, name)  # no reader gets the page as it was in its place
                    raise
                if store and response.status_code == 200:
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
        finally:
            _RENDERING.release()
    if fresh:
        response = _response_of(request, page, (slug, name))
    if request is not None and response.status_code == 200:
        _with_stamp(response, etag, stamp)
        if store and page is not None and page[0] == stamp and len(page) > 4 and page[4] is not None:
            _encode(request, response, page[4])
    return response


def _forget(slug: str, name: str) -> None:
    """The page is no longer there (a round taken away, an entry deleted): its kept copy goes too."""
    _local.pop((slug, name), None)
    try:
        _store().delete(_page_key(slug, name))
    except Exception:
        log.warning("page cache unreachable; %s not forgotten", name, exc_info=True)


def _redis():
    """The page cache's Redis client, or None (a cache of another kind: no worker renders pages)."""
    store = _store()
    return store.client if isinstance(store, _RedisStore) else None


def _note_render_time(slug: str, name: str, seconds: float, in_a_pass: bool) -> None:
    """Remember which pages of the event are heavy (rendered by a worker from now on). A heavy page stays heavy
    until a web process renders it in less than half the threshold (a worker's render pass, which has its process to
    itself, renders it faster than a busy web process would)."""
    client = _redis()
    if client is None or not settings.PAGE_HEAVY_RENDER_MS:
        return
    try:
        key, took = _heavy_key(slug), round(seconds * 1000)
        heavy = took >= settings.PAGE_HEAVY_RENDER_MS
        if heavy or in_a_pass:
            log.info("heavy page rendered event=%s page=%s duration_ms=%s", slug, name, took)
        if heavy:
            client.pipeline().hset(key, name, took).expire(key, TTL).execute()
        elif took < settings.PAGE_HEAVY_RENDER_MS / 2 and not in_a_pass:
            client.hdel(key, name)
    except Exception:
        log.warning("page cache unreachable; render time of %s not kept", name, exc_info=True)


def _a_worker_is_alive() -> bool:
    """A worker's heartbeat is fresh, as /healthz counts it (asked once a second at most)."""
    global _worker_alive
    alive, until = _worker_alive
    if time.monotonic() >= until:
        age = broker.heartbeat_age_seconds()
        alive = age is not None and age <= heartbeat_stale_after()
        _worker_alive = (alive, time.monotonic() + 1)
    return alive


def _left_to_a_worker(request, slug: str, name: str, earlier: str, current: str) -> bool:
    """The page is heavy and a worker is alive: the reader gets the page of the `earlier` stamp, and a worker is
    asked to render the `current` one. False: this request renders the page itself (a light page, no worker, the
    kept page too old, the cache not answering, or this is the worker's own render pass)."""
    if (
        request is None
        or not settings.PAGE_HEAVY_RENDER_MS
        or RENDER_PASS in request.META
        or modified_of(current) - modified_of(earlier) > settings.PUBLIC_STALE_WHILE_REVALIDATE
    ):
        return False
    client = _redis()
    if client is None:
        return False
    try:
        if client.hget(_heavy_key(slug), name) is None or not _a_worker_is_alive():
            return False
        meta = getattr(request, "_request", request).META
        asked = json.dumps({key: meta[key] for key in REPLAYED if key in meta})
        client.pipeline().hset(_asked_key(slug), name, asked).expire(_asked_key(slug), ASKED_TTL).execute()
        if client.set(_pass_key(slug), 1, nx=True, ex=PASS_QUEUED_TTL):
            try:
                broker.enqueue_render_pass(slug)
            except Exception:
                client.delete(_pass_key(slug))
                raise
        return True
    except Exception:
        log.warning("page cache or broker unreachable; rendering %s here", name, exc_info=True)
        return False


def render_pass(slug: str, *, after_recompute: bool = False) -> int:
    """In a worker: render the pages of the event that readers asked for since its last change, as they asked
    (through the site's whole request handling, as an anonymous reader). Returns the number of pages rendered.
    `after_recompute`: the event's new standings are stored; its pages are rendered now unless they were less than
    RENDER_PASS_SECONDS ago (then by a later recompute, or by the pass the readers sent)."""
    client = _redis()
    if client is None:
        return 0
    started = time.perf_counter()
    try:
        if after_recompute and (
            not client.hlen(_asked_key(slug)) or not client.set(_rendered_key(slug), 1, nx=True, ex=RENDER_PASS_SECONDS)
        ):
            return 0
        # the pages asked for until now; those asked for from now on are rendered by the next pass
        asked, *_ = client.pipeline().hgetall(_asked_key(slug)).delete(_asked_key(slug), _pass_key(slug)).execute()
    except Exception:
        log.warning("page cache unreachable; no render pass for %s", slug, exc_info=True)
        return 0
    _local_stamps.clear()  # the event's stamps as they are now, not as this process last saw them
    # each replayed request switches to its reader's language; the worker's next task runs in the language it had
    with translation.override(translation.get_language()):
        for meta in asked.values():
            _render_as_asked(json.loads(meta))
    took = round((time.perf_counter() - started) * 1000)
    log.info("render pass event=%s pages=%s duration_ms=%s", slug, len(asked), took)
    return len(asked)


def render_pass_after_recompute(event_id: int) -> int:
    """The event's new standings are stored: render the pages its readers asked for meanwhile (render_pass)."""
    slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
    return render_pass(slug, after_recompute=True) if slug else 0


def _render_as_asked(meta: dict) -> None:
    """One anonymous GET through the site's request handling, with what of the reader's request the page depends on;
    its view renders the page and stores it (RENDER_PASS: never the page as it was)."""
    from django.core.handlers.wsgi import WSGIHandler

    global _handler
    if _handler is None:
        _handler = WSGIHandler()
    environ = {
        "REQUEST_METHOD": "GET",
        "SCRIPT_NAME": "",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(),
        RENDER_PASS: True,
        **meta,
    }
    answer = _handler(environ, lambda status, headers, exc_info=None: None)
    for _ in answer:
        pass
    answer.close()


_handler = None


def _recent(earlier: str, current: str) -> bool:
    """A page of the `earlier` stamp may stand in for the `current` one while a neighbour renders: only a few
    seconds older (each renewal moves a stamp on by a second at least, so also only a few changes behind)."""
    return modified_of(current) - modified_of(earlier) <= EARLIER_PAGE_SECONDS


def _body(request, page: tuple, key: tuple[str, str] | None = None) -> bytes:
    """What a stored page answers with: its gzip copy for a reader who accepts it, else the page itself (decompressed
    from the gzip copy if that is all the shared cache kept; with `key`, kept decompressed in this process)."""
    gzipped = page[4] if len(page) > 4 else None
    if gzipped is not None and request is not None and _accepts_gzip(request):
        return gzipped
    if page[1] is not None:
        return page[1]
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


def pages_changed(
    *,
    event_id: int | None = None,
    player_id: int | None = None,
    club_id: int | None = None,
    gone_slug: str | None = None,
) -> None:
    """What a write changed, said by the service that wrote it: the pages that show it get a new stamp once the
    transaction commits (never before: a page rendered from the old data must not get the new stamp), each event's
    once however many writes of the transaction said so. This is the one way a write reaches the cached pages.

    `event_id`: the event's pages; `player_id`, `club_id`: the pages of every event the player or the club plays in
    (entered or on a team's roster); `gone_slug`: the address an event no longer has (deleted, or given another
    address): the pages kept under it are hidden.

    Whether an event is public is read when the transaction has committed: one that is not (back to draft) has its
    pages hidden at once; one that is is shown again if it was hidden."""
    for changed in events_showing(event_id=event_id, player_id=player_id, club_id=club_id):
        once_after_commit(("pages", changed), lambda changed=changed: _renew_or_hide(changed))
    if gone_slug:
        once_after_commit(("pages-hidden", gone_slug), lambda: event_pages_hidden(slug=gone_slug))


def event_pages_changed_after_commit(*, event_id: int) -> None:
    """The older name of `pages_changed(event_id=...)` (code written before it still calls this)."""
    pages_changed(event_id=event_id)


def events_showing(
    *, event_id: int | None = None, player_id: int | None = None, club_id: int | None = None
) -> set[int]:
    """The events whose pages show the event, the player or the club (read now, inside the writing transaction)."""
    events = {event_id} if event_id else set()
    if player_id:
        events.update(
            Event.objects.filter(Q(entries__player=player_id) | Q(teams__members__player=player_id)).values_list(
                "pk", flat=True
            )
        )
    if club_id:
        events.update(
            Event.objects.filter(Q(teams__club=club_id) | Q(entries__player__clubs=club_id)).values_list(
                "pk", flat=True
            )
        )
    return events


def _renew_or_hide(event_id: int) -> None:
    slug = Event.objects.public().filter(pk=event_id).values_list("slug", flat=True).first()
    if slug:
        event_pages_changed(slug=slug, reveal=True)
        return
    slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
    if slug:
        event_pages_hidden(slug=slug)


def _reveal(slug: str, key: str) -> None:
    _local_stamps.pop(key, None)
    try:
        _set_unless_hidden(_store(), key, None, reveal=True)
    except Exception:
        log.warning("page cache unreachable; the pages of %s not shown again", slug, exc_info=True)


def event_explanations_changed_after_commit(*, event_id: int) -> None:
    """Renew the stamp of the pages showing explanations once the current transaction commits."""

    def renew():
        slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
        if slug:
            event_explanations_changed(slug=slug)

    once_after_commit(("explanations", event_id), renew)


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
    __slots__ = ("slug", "name", "explained", "headers", "not_modified_headers", "throttles", "attributes")

    def __init__(self, slug, name, explained, headers, throttles, attributes):
        self.slug, self.name, self.explained, self.headers = slug, name, explained, headers
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
        _routes[key] = _Route(learned[0], learned[1], learned[3], headers, _throttles_of(request), attributes)

    def _early(self, request, route: "_Route"):
        try:
            stamp = _stamp_of(route.slug, lambda: None, route.explained)
        except Exception:
            return None
        if stamp is None:
            return None
        etag = f'"{stamp}-{route.name}"'
        not_modified = _not_modified(request, stamp, etag)
        page = None
        if not not_modified:
            page = _local.get((route.slug, route.name))
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
                        not_modified, page = True, None
                if page is not None:
                    _remember(route.slug, route.name, page)
        limit = None
        if route.throttles:
            shim = _AnonymousApiRequest(request)
            for throttle in route.throttles:
                if not throttle().allow_request(shim, None):
                    return None  # the whole way, which answers 429
            limit = getattr(request, "rate_limit", None)
        if not_modified:
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
            response["X-RateLimit-Limit"], response["X-RateLimit-Remaining"], response["X-RateLimit-Reset"] = (
                str(value) for value in limit
            )
        for attribute, value in route.attributes.items():
            setattr(response, attribute, value)
        response.public_page = True
        return response
