"""Stamps: an event's pages carry its current stamp; a new stamp is what makes its pages change. A stamp is also the
pages' validators (ETag, Last-Modified). An event that is not public has the stamp HIDDEN."""

import contextlib
import logging
import time
import uuid

from django.conf import settings

from .store import (
    HIDDEN,
    HIDDEN_TTL,
    TTL,
    _explained_key,
    _local,
    _local_stamps,
    _RedisStore,
    _shown_key,
    _stamp_key,
    _store,
)

log = logging.getLogger(__name__)


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


def event_pages_show_snapshot(*, slug: str, version: int) -> None:
    """The event's standings snapshot `version` is stored: its pages get a new stamp, and the version is recorded
    as shown (a worker that dies between its commit and this call leaves pages that still say "being updated";
    the sweep finds them by this record and renews them: renew_lost)."""
    event_pages_changed(slug=slug)
    try:
        _store().set(_shown_key(slug), version, TTL)
    except Exception:
        log.warning(
            "page cache unreachable; snapshot %s of %s not recorded as shown",
            version,
            slug,
            exc_info=True,
        )


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
        with contextlib.suppress(Exception):  # the outage is logged above
            _store().delete(key)


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
        log.error(
            "page cache unreachable; the pages of %s, no longer public, not hidden",
            slug,
            exc_info=True,
        )


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


def _reveal(slug: str, key: str) -> None:
    _local_stamps.pop(key, None)
    try:
        _set_unless_hidden(_store(), key, None, reveal=True)
    except Exception:
        log.warning(
            "page cache unreachable; the pages of %s not shown again",
            slug,
            exc_info=True,
        )
