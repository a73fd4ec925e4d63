"""Whole public pages served from a shared cache until something they show changes.

Every write that changes what an event's pages show calls `event_pages_changed`, which gives the event a
new stamp; a page is served from the cache only while it carries the event's current stamp. A missing
stamp (cache restarted or evicted) is derived from the database, and any cache error falls back to
rendering the page, so the cache can only make pages faster, never wrong.
"""

import logging
import pickle
import threading
import time
import uuid

from django.apps import apps
from django.conf import settings
from django.core.cache import cache as django_cache
from django.db.models.signals import post_delete, post_save
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.http import http_date, parse_http_date_safe

from . import redis_outage
from .after_commit import once_after_commit
from .http_cache import mark_public, may_be_logged_in
from .models import Event

log = logging.getLogger(__name__)
TTL = 24 * 3600


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
# One uncached render at a time in a process: its threads cannot render side by side anyway (one
# interpreter lock), and a cheap request (/ping, /healthz, a cached page) then shares the process with
# one render instead of waiting behind several. A thread that waited finds the page its neighbour rendered.
_RENDERING = threading.RLock()


def _remember(slug: str, name: str, page: tuple) -> None:
    if len(_local) >= LOCAL_PAGES:
        _local.pop(next(iter(_local)))
    _local[(slug, name)] = page


def _stamp_key(slug: str) -> str:
    return f"event-stamp:{slug}"


def _page_key(slug: str, name: str) -> str:
    return f"event-page:{slug}:{name}"


def _new_stamp(previous: str | None = None) -> str:
    """A stamp is "<seconds>-<token>": the seconds are the pages' Last-Modified, always later than the
    previous stamp's (a reader's If-Modified-Since never matches a newer page within the same second)."""
    seconds = int(time.time())
    if previous is not None:
        seconds = max(seconds, modified_of(previous) + 1)
    return f"{seconds}-{uuid.uuid4().hex}"


def modified_of(stamp: str) -> int:
    head = stamp.split("-", 1)[0]
    return int(head) if head.isdecimal() and len(head) <= 11 else 0  # a stamp of an older release: no time


def event_pages_changed(*, slug: str) -> None:
    _local_stamps.pop(slug, None)
    try:
        store = _store()
        store.set(_stamp_key(slug), _new_stamp(store.get(_stamp_key(slug))), TTL)
    except Exception:  # a cache outage must not fail a write; pages then fall back to the database stamp
        log.warning("page cache unreachable; stamp of %s not renewed", slug, exc_info=True)
        try:
            _store().delete(_stamp_key(slug))
        except Exception:
            pass


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


def _current_stamp(slug: str, database_stamp):
    """The event's stamp: this process's copy while it is fresh, else the shared cache's, else one made from
    the database and shared (None: no such event, or the cache does not answer)."""
    stamp, fresh_until = _local_stamps.get(slug, (None, 0.0))
    if time.monotonic() < fresh_until:
        return stamp
    cache = _store()
    try:
        stamp = cache.get(_stamp_key(slug))
    except Exception:
        log.warning("page cache unreachable; rendering %s", slug, exc_info=True)
        return None
    if stamp is None:
        made = database_stamp()
        if made is None:
            return None  # no such event: let the view answer 404
        try:
            cache.add(_stamp_key(slug), f"{int(time.time())}-{made}", TTL)
            stamp = cache.get(_stamp_key(slug))
        except Exception:
            return None
        if stamp is None:
            return None
    if settings.PAGE_STAMP_SECONDS:
        _local_stamps[slug] = (stamp, time.monotonic() + settings.PAGE_STAMP_SECONDS)
    return stamp


def cached_page(*, slug: str, name: str, database_stamp, render, request=None, store=True) -> HttpResponse:
    """Serve page `name` of event `slug` from the cache if it is current, else render and store it.

    `database_stamp()` gives a stamp from the database when the cache has none (None: no such event).
    With `request`, the answer carries an ETag and Last-Modified made from the stamp, and a conditional
    request that the stamp answers gets 304 before anything is read or rendered. A page for a logged-in
    reader names the reader (and carries a form token): rendered, never cached, `private, no-store`.
    `store=False`: a page of too many variants to keep (it is rendered each time, with the same headers)."""
    if request is not None and may_be_logged_in(request):
        return render()
    stamp = _current_stamp(slug, database_stamp)
    if stamp is None:
        return render()
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
        with _RENDERING:
            page = _local.get((slug, name)) if store else None
            fresh = page is not None and page[0] == stamp  # a neighbour thread rendered it while this one waited
            if not fresh:
                response = render()
                if store and response.status_code == 200:
                    kept = {h: response[h] for h in KEPT_HEADERS if response.has_header(h)}
                    page = (stamp, response.content, response["Content-Type"], kept)
                    _remember(slug, name, page)
                    try:
                        _store().set(_page_key(slug, name), page, TTL)
                    except Exception:
                        log.warning("page cache unreachable; %s not stored", name, exc_info=True)
    if fresh:
        response = HttpResponse(page[1], content_type=page[2])
        for header, value in page[3].items():
            response[header] = value
    if request is not None and response.status_code == 200:
        _with_stamp(response, etag, stamp)
    return response


def _with_stamp(response: HttpResponse, etag: str, stamp: str) -> HttpResponse:
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified_of(stamp))
    mark_public(response)
    return response


def event_pages_changed_after_commit(*, event_id: int) -> None:
    """Renew the event's stamp once the current transaction commits (never before: a page rendered from
    the old data must not get the new stamp)."""

    def renew():
        slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
        if slug:
            event_pages_changed(slug=slug)

    once_after_commit(("pages", event_id), renew)


def _event_id_of(instance) -> int | None:
    """The event a saved or deleted row belongs to, for the models whose rows pages show."""
    for path in ("event_id", "round.event_id", "game.round.event_id", "fund.event_id", "team.event_id"):
        obj = instance
        try:
            for part in path.split("."):
                obj = getattr(obj, part)
        except Exception:  # the row's parent is gone (cascade delete) or the path does not apply
            continue
        if obj:
            return obj
    return getattr(instance, "pk", None) if instance.__class__.__name__ == "Event" else None


def connect_invalidation() -> None:
    """Any save or delete of a row that event pages show (the admin included) renews the event's stamp."""

    def changed(sender, instance, **kwargs):
        event_id = _event_id_of(instance)
        if event_id:
            event_pages_changed_after_commit(event_id=event_id)

    for model in apps.get_app_config("leagues").get_models():
        if model.__name__ in {"IdempotentRequest", "Role", "League", "Season", "Club", "Player", "ClubMembership"}:
            continue
        post_save.connect(changed, sender=model, dispatch_uid=f"pages-{model.__name__}-save")
        post_delete.connect(changed, sender=model, dispatch_uid=f"pages-{model.__name__}-delete")
