"""Open-data downloads served from the page cache, built by a worker (issue 35).

An export (TRF, Chess-JSON, standings and crosstable as CSV and XLSX, a season's zip) is kept in the page cache
(leagues/page_cache/) under the stamp of its event, which every result and every new standings snapshot renews; a
season's zip under a stamp made of its public events' stamps. A request for an export whose kept copy carries the
current stamp is answered from the cache, as cheaply as a cached page (CachedPageMiddleware answers it before the
rest of the stack). When the kept copy is older, or there is none, one build is sent to a worker (the "pairing"
queue, where the other long jobs of a big event wait, never the recomputes') and the reader gets at once:

- the previous copy, whole and valid, marked `X-Export-Stale: true` with `Retry-After` (when the new one is expected)
  and its own ETag and Last-Modified; or, when there is no copy yet,
- `503 Service Unavailable` with `Retry-After` (`code: export_being_built`): `curl --retry`, wget and HTTP
  libraries wait and ask again, where a 202 would be saved as the file.

Every copy says when it was built (`X-Export-Built`). A game played under a transmission delay shows in the
Chess-JSON (and the season's zip) only the moves that arrived that many minutes ago: a copy built while some moves
are still held back records when the first of them is due, and the sweep (every minute) renews the event's stamp
then (`renew_revealed`), so the held-back moves reach the next copy without waiting for the next result. Without a
broker (tasks run in the process: development, the
demo, the tests) the build runs in the request that asked for it, and its answer is the new copy."""

import gzip
import json
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from hashlib import sha1
from typing import Any

from django.core.cache import cache as django_cache
from django.db.models import Min
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.translation import ngettext

from .. import broker, page_cache, selectors
from ..models import Event, GamePgn, Season, Transmission
from .exports import crosstable_table, csv_text, event_chess_json, season_bundle, standings_table, xlsx_bytes
from .trf import event_export_trf

log = logging.getLogger(__name__)
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
BUILT = "X-Export-Built"  # when the copy sent was built (ISO 8601, UTC)
STALE = "X-Export-Stale"  # "true": a newer copy is being built, ask again after Retry-After
# a build sent and not finished within this long (its worker killed) is sent again by the next reader
QUEUED_TTL = 600
FIRST_BUILD_SECONDS = 5  # Retry-After of an export never built before


@dataclass(frozen=True)
class Export:
    content_type: str
    filename: str  # "{slug}" is the event's address
    build: Callable[[Event], str | bytes]


EVENT_EXPORTS: dict[str, Export] = {
    "trf": Export("text/plain; charset=utf-8", "{slug}.trf", lambda event: event_export_trf(event=event)),
    "json": Export("application/json", "{slug}.json", lambda event: json.dumps(event_chess_json(event=event))),
    "standings-csv": Export(
        "text/csv; charset=utf-8",
        "{slug}-standings.csv",
        lambda event: csv_text(standings_table(event=event), event.name),
    ),
    "standings-xlsx": Export(
        XLSX, "{slug}-standings.xlsx", lambda event: xlsx_bytes({"Standings": standings_table(event=event)})
    ),
    "crosstable-csv": Export(
        "text/csv; charset=utf-8",
        "{slug}-crosstable.csv",
        lambda event: csv_text(crosstable_table(event=event), event.name),
    ),
    "crosstable-xlsx": Export(
        XLSX, "{slug}-crosstable.xlsx", lambda event: xlsx_bytes({"Crosstable": crosstable_table(event=event)})
    ),
}


def _name(kind: str) -> str:
    return f"export-{kind}"


def _season_scope(season_id: int) -> str:
    return f"season:{season_id}"  # never an event's slug (a slug has no colon)


def _event_stamp(slug: str) -> str | None:
    stamp: str | None = page_cache._stamp_of(slug, lambda: selectors.event_stamp(slug=slug))
    return stamp


def _store() -> Any:
    """The page cache's store (Redis, or Django's cache without Redis)."""
    return page_cache._store()  # type: ignore[no-untyped-call]


def _season_stamp(season: Season) -> str | None:
    """A stamp that changes with any of the season's public events (and with their list): the latest of their times,
    and a digest of every one's stamp."""
    slugs = list(Event.objects.public().filter(season=season).order_by("slug").values_list("slug", flat=True))
    stamps = []
    for slug in slugs:
        stamp = _event_stamp(slug)
        if stamp is None:
            return None
        stamps.append(stamp)
    seconds = max((page_cache.modified_of(stamp) for stamp in stamps), default=0)
    facts = [season.league.slug, season.slug, season.name, *slugs, *stamps]
    return f"{seconds}-{sha1(repr(facts).encode(), usedforsecurity=False).hexdigest()}"


def event_export(request: Any, *, slug: str, kind: str) -> HttpResponse | None:
    """The answer to a request for export `kind` of event `slug`; None: no such public event."""
    stamp = _event_stamp(slug)
    if stamp is None:
        if not Event.objects.public().filter(slug=slug).exists():
            return None
        return _being_built(FIRST_BUILD_SECONDS)  # the cache does not answer: no build in a web process
    # CachedPageMiddleware learns the address from the answer, and answers the next current copy itself
    getattr(request, "_request", request).cached_page = (slug, _name(kind), True, False)
    return _serve(request, slug, _name(kind), stamp, ("event", slug, kind))


def season_export(request: Any, *, season: Season) -> HttpResponse:
    """The answer to a request for the season's zip of every public event."""
    stamp = _season_stamp(season)
    if stamp is None:
        return _being_built(FIRST_BUILD_SECONDS)
    return _serve(request, _season_scope(season.pk), _name("bundle"), stamp, ("season", str(season.pk), "bundle"))


def _serve(request: Any, scope: str, name: str, stamp: str, job: tuple[str, str, str]) -> HttpResponse:
    etag = f'"{stamp}-{name}"'
    if page_cache._not_modified(request, stamp, etag):
        return page_cache._with_stamp(HttpResponseNotModified(), etag, stamp)
    page = _kept(scope, name, stamp)
    if page is None or page[0] != stamp:
        _ask_for_a_build(scope, name, job)  # without a broker: built here, now
        newer = _kept(scope, name, stamp)
        if newer is None or newer[0] != stamp:
            wait = _build_seconds(scope, name)
            if page is None:
                return _being_built(wait)
            response = page_cache._as_it_was(request, name, page)
            response[STALE] = "true"
            response["Retry-After"] = str(wait)
            return response
        page = newer
    response = page_cache._response_of(request, page, (scope, name))
    page_cache._with_stamp(response, etag, stamp)
    if len(page) > 4 and page[4] is not None:
        page_cache._encode(request, response, page[4])
    return response


def _kept(scope: str, name: str, stamp: str) -> tuple[Any, ...] | None:
    """The copy this process has if it is current, else the shared cache's (current or not), or None."""
    page = page_cache._local.get((scope, name))
    if page is not None and page[0] == stamp:
        return page
    try:
        shared = _store().get(page_cache._page_key(scope, name))
    except Exception:
        log.warning("page cache unreachable; export %s of %s not read", name, scope, exc_info=True)
        return page
    if shared is not None and shared[0] == stamp:
        page_cache._remember(scope, name, shared)
    return shared if shared is not None else page


def _being_built(seconds: int) -> HttpResponse:
    message = ngettext(
        "This download is being prepared. Ask again in %(seconds)s second.",
        "This download is being prepared. Ask again in %(seconds)s seconds.",
        seconds,
    ) % {"seconds": seconds}
    response = HttpResponse(
        json.dumps({"code": "export_being_built", "message": message}), status=503, content_type="application/json"
    )
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    return response


def _queued_key(scope: str, name: str) -> str:
    return f"export-build-queued:{scope}:{name}"


def _seconds_key(scope: str, name: str) -> str:
    return f"export-build-seconds:{scope}:{name}"


def _claim(key: str) -> bool:
    """Take the one place of a build of this export (True), or find it taken (a build is on its way)."""
    store = _store()
    if isinstance(store, page_cache._RedisStore):
        return bool(store.client.set(f"{store.prefix}:{key}", 1, nx=True, ex=QUEUED_TTL))
    return bool(django_cache.add(key, 1, QUEUED_TTL))


def _release(key: str) -> None:
    try:
        _store().delete(key)
    except Exception:
        log.warning("page cache unreachable; %s not released (sent again after %ss)", key, QUEUED_TTL, exc_info=True)


def _ask_for_a_build(scope: str, name: str, job: tuple[str, str, str]) -> None:
    """Send one build of the export to a worker, unless one is on its way already."""
    key = _queued_key(scope, name)
    try:
        if not _claim(key):
            return
    except Exception:
        log.warning("page cache unreachable; export %s of %s not built", name, scope, exc_info=True)
        return
    try:
        broker.enqueue_export_build(*job)
    except Exception:
        _release(key)
        log.warning("broker unreachable; export %s of %s not built", name, scope, exc_info=True)


def _build_seconds(scope: str, name: str) -> int:
    """How long the last build of this export took (whole seconds, at least 1): the reader's Retry-After."""
    try:
        seconds = _store().get(_seconds_key(scope, name))
    except Exception:
        seconds = None
    return max(1, math.ceil(seconds)) if seconds is not None else FIRST_BUILD_SECONDS


def export_build(scope_kind: str, ident: str, kind: str) -> bool:
    """In a worker: build one export under the stamp read before its data, and keep it. False: nothing to build (the
    event or season is gone or not public, the cache does not answer)."""
    if scope_kind == "season":
        season = Season.objects.filter(pk=int(ident)).select_related("league").first()
        scope, name = _season_scope(int(ident)), _name("bundle")
    else:
        scope, name = ident, _name(kind)
    started, failed = time.perf_counter(), False
    try:
        if scope_kind == "season":
            for slug in Event.objects.filter(season=season).values_list("slug", flat=True) if season else ():
                page_cache._local_stamps.pop(page_cache._stamp_key(slug), None)
            stamp = _season_stamp(season) if season else None
            if stamp is None or season is None:
                return False
            events = list(Event.objects.public().filter(season=season).values_list("pk", "slug"))
            body: str | bytes = season_bundle(season=season)
            for event_id, slug in events:
                _note_held_back_moves(event_id, slug)
            content_type, filename = "application/zip", f"{season.league.slug}-{season.slug}.zip"
        else:
            export = EVENT_EXPORTS[kind]
            page_cache._local_stamps.pop(page_cache._stamp_key(ident), None)  # the stamp as it is now
            stamp = _event_stamp(ident)
            event = Event.objects.public().filter(slug=ident).select_related("league").first()
            if stamp is None or event is None:
                return False
            body = export.build(event)
            if kind == "json":
                _note_held_back_moves(event.pk, event.slug)
            content_type, filename = export.content_type, export.filename.format(slug=ident)
        took = time.perf_counter() - started
        _keep(scope, name, stamp, body.encode() if isinstance(body, str) else body, content_type, filename, took)
        log.info("export built scope=%s export=%s duration_ms=%s", scope, name, round(took * 1000))
        return True
    except Exception:
        # the place stays taken until QUEUED_TTL: a download whose build fails is not built again by every reader
        log.exception("export not built scope=%s export=%s", scope, name)
        failed = True
        raise
    finally:
        if not failed:
            _release(_queued_key(scope, name))


def _keep(scope: str, name: str, stamp: str, body: bytes, content_type: str, filename: str, took: float) -> None:
    """Keep the export as a page of the page cache (the same shape: CachedPageMiddleware answers it)."""
    built = datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
    kept = {"Content-Disposition": f'attachment; filename="{filename}"', BUILT: built}
    gzipped = (
        gzip.compress(body, 6, mtime=0)
        if len(body) >= page_cache.GZIP_MIN_BYTES and content_type.startswith(page_cache.COMPRESSIBLE)
        else None
    )
    page = (stamp, body, content_type, kept, gzipped)
    page_cache._remember(scope, name, page)
    try:
        store = _store()
        shared = page if gzipped is None else (stamp, None, *page[2:])  # the gzip copy only, as pages are kept
        store.set(page_cache._page_key(scope, name), shared, page_cache.TTL)
        store.set(_seconds_key(scope, name), took, page_cache.TTL)
    except Exception:
        log.warning("page cache unreachable; export %s of %s not kept", name, scope, exc_info=True)


REVEALS = "export-reveals"  # a sorted set of the page cache: event slug -> when its held-back moves are due


def _note_held_back_moves(event_id: int, slug: str) -> None:
    """The copy just built holds back moves of a game under the event's transmission delay: remember when the first
    of them is due (the sweep then renews the event's stamp: renew_revealed)."""
    delay = Transmission.objects.filter(event_id=event_id).values_list("delay_minutes", flat=True).first()
    if not delay:
        return
    since = datetime.now(UTC) - timedelta(minutes=delay)
    first = GamePgn.objects.filter(game__round__event_id=event_id, updated_at__gt=since).aggregate(at=Min("updated_at"))
    if first["at"] is None:
        return
    due = (first["at"] + timedelta(minutes=delay)).timestamp()
    store = _store()
    if not isinstance(store, page_cache._RedisStore):
        return  # one process without Redis (development): the copy waits for the event's next change
    try:
        store.client.zadd(f"{store.prefix}:{REVEALS}", {slug: due}, lt=True)  # added, or made earlier
    except Exception:
        log.warning("page cache unreachable; held-back moves of %s not noted", slug, exc_info=True)


def renew_revealed(now: datetime | None = None) -> list[str]:
    """The events whose held-back moves are due by `now` get a new stamp (their downloads are built again, with the
    moves readers may now see); their slugs. Called by the sweep."""
    store = _store()
    if not isinstance(store, page_cache._RedisStore):
        return []
    key, moment = f"{store.prefix}:{REVEALS}", (now or datetime.now(UTC)).timestamp()
    try:
        found = store.client.zrangebyscore(key, 0, moment)
        due = [slug.decode() if isinstance(slug, bytes) else str(slug) for slug in found]
        renewed = [slug for slug in due if store.client.zrem(key, slug)]  # one sweep renews each
    except Exception:
        log.warning("page cache unreachable; held-back moves not looked for", exc_info=True)
        return []
    for slug in renewed:
        page_cache.event_pages_changed(slug=slug)
    return renewed
