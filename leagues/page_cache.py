"""Whole public pages served from a shared cache until something they show changes.

Every write that changes what an event's pages show calls `event_pages_changed`, which gives the event a
new stamp; a page is served from the cache only while it carries the event's current stamp. A missing
stamp (cache restarted or evicted) is derived from the database, and any cache error falls back to
rendering the page, so the cache can only make pages faster, never wrong.
"""

import logging
import pickle
import time
import uuid

import redis
from django.apps import apps
from django.conf import settings
from django.core.cache import cache as django_cache
from django.db.models.signals import post_delete, post_save
from django.http import HttpResponse

from .after_commit import once_after_commit
from .models import Event

log = logging.getLogger(__name__)
TTL = 24 * 3600


class _RedisStore:
    """One Redis client per process (Django's cache builds a new client object on every call, which
    costs more than the lookup itself on this hot path)."""

    def __init__(self, url: str, prefix: str):
        # short timeouts: a hung Redis costs a request half a second, then the page is rendered
        self.client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
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


def _remember(slug: str, name: str, page: tuple) -> None:
    if len(_local) >= LOCAL_PAGES:
        _local.pop(next(iter(_local)))
    _local[(slug, name)] = page


def _stamp_key(slug: str) -> str:
    return f"event-stamp:{slug}"


def _page_key(slug: str, name: str) -> str:
    return f"event-page:{slug}:{name}"


def event_pages_changed(*, slug: str) -> None:
    _local_stamps.pop(slug, None)
    try:
        _store().set(_stamp_key(slug), uuid.uuid4().hex, TTL)
    except Exception:  # a cache outage must not fail a write; pages then fall back to the database stamp
        log.warning("page cache unreachable; stamp of %s not renewed", slug, exc_info=True)
        try:
            _store().delete(_stamp_key(slug))
        except Exception:
            pass


def cached_page(*, slug: str, name: str, database_stamp, render, request=None, user=None) -> HttpResponse:
    """Serve page `name` of event `slug` from the cache if it is current, else render and store it.

    `database_stamp()` gives a stamp from the database when the cache has none (None: no such event).
    With `request`, the answer carries an ETag made from the stamp and a matching If-None-Match gets 304.
    A page for a logged-in `user` names the user (and carries a form token): rendered, never cached."""
    if user is not None and user.is_authenticated:
        return render()
    cache = _store()
    stamp, fresh_until = _local_stamps.get(slug, (None, 0.0))
    if time.monotonic() >= fresh_until:
        try:
            stamp = cache.get(_stamp_key(slug))
        except Exception:
            log.warning("page cache unreachable; rendering %s", name, exc_info=True)
            return render()
    page = _local.get((slug, name))
    if stamp is None:
        stamp = database_stamp()
        if stamp is None:
            return render()  # no such event: let the view answer 404
        try:
            cache.add(_stamp_key(slug), stamp, TTL)
            stamp = cache.get(_stamp_key(slug)) or stamp
        except Exception:
            return render()
    if settings.PAGE_STAMP_SECONDS:
        _local_stamps[slug] = (stamp, time.monotonic() + settings.PAGE_STAMP_SECONDS)
    etag = f'"{stamp}-{name}"'
    if request is not None and request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
        response["ETag"] = etag
        return response
    if page is None or page[0] != stamp:  # another process may have rendered it already
        try:
            page = cache.get(_page_key(slug, name))
        except Exception:
            page = None
        if page is not None and page[0] == stamp:
            _remember(slug, name, page)
    if page is not None and page[0] == stamp:
        response = HttpResponse(page[1], content_type=page[2])
        for header, value in page[3].items():
            response[header] = value
    else:
        response = render()
        if response.status_code == 200:
            headers = {h: response[h] for h in ("Last-Modified", "Cache-Control") if response.has_header(h)}
            page = (stamp, response.content, response["Content-Type"], headers)
            _remember(slug, name, page)
            try:
                cache.set(_page_key(slug, name), page, TTL)
            except Exception:
                log.warning("page cache unreachable; %s not stored", name, exc_info=True)
    if request is not None and response.status_code in (200, 304):
        response["ETag"] = etag
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
