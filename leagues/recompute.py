"""The recompute: read one consistent state, compute, store the snapshot only if it is newer."""

import json
import logging
import time
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from tiebreaks.engine.ranking import Standings

from . import broker, page_cache
from .after_commit import once_after_commit
from .models import Event, ResultChange, StandingsSnapshot
from .models.audit import SettingChange
from .page_cache import event_explanations_changed_after_commit
from .services.prizes import prizes_recompute
from .services.standings import event_engine_results, snapshot_fields
from .services.webhooks import standings_updated
from .session_locks import session_lock

log = logging.getLogger("leagues.recompute")


class LockBusy(Exception):
    """Another process is recomputing the same event right now."""


@contextmanager
def event_lock(event_id: int):
    """A per-event PostgreSQL advisory lock, so recomputes of one event never run concurrently."""
    with session_lock(f"standings:{event_id}") as held:
        if not held:
            raise LockBusy(event_id)
        yield


def _read_consistently(event_id: int):
    """The event, the engine's standings and each player's place after every round, of one consistent state of its
    results."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        event = Event.objects.get(pk=event_id)
        return event, *event_engine_results(event)


def store_snapshot(event_id: int, version: int, data: dict, duration_ms: int) -> bool:
    """Compare-and-set: write only when `version` is newer than the stored snapshot's. True if written."""
    fields = dict(
        computed_at=timezone.now(),
        rules=data["rules"],
        criteria=data["criteria"],
        rows=data["rows"],
        notes=data["notes"],
        explanations=data["explanations"],
        duration_ms=duration_ms,
    )
    with transaction.atomic():
        updated = StandingsSnapshot.objects.filter(event_id=event_id, version__lt=version).update(
            version=version, **fields
        )
        if updated:
            return True
        if StandingsSnapshot.objects.filter(event_id=event_id).exists():
            return False
        _, created = StandingsSnapshot.objects.get_or_create(event_id=event_id, defaults={"version": version, **fields})
        return created


def standings_recompute_event(event_id: int) -> bool:
    """Recompute one event's standings; returns whether a newer snapshot was stored."""
    with event_lock(event_id):
        current = StandingsSnapshot.objects.filter(event_id=event_id).values_list("version", flat=True).first()
        version_now = Event.objects.filter(pk=event_id).values_list("results_version", flat=True).first()
        if version_now is None:
            return False  # event deleted meanwhile
        if current is not None and current >= version_now:
            log.info("recompute skipped event=%s version=%s (snapshot current)", event_id, version_now)
            return False
        started = time.perf_counter()
        log.info("recompute started event=%s", event_id)
        event, result, places = _read_consistently(event_id)
        data = snapshot_fields(result.to_dict(), event, places)
        if settings.RECOMPUTE_TEST_DELAY:
            time.sleep(settings.RECOMPUTE_TEST_DELAY)
        duration_ms = round((time.perf_counter() - started) * 1000)
        before = StandingsSnapshot.objects.filter(event_id=event_id).values_list("rows", flat=True).first()
        written = store_snapshot(event_id, event.results_version, data, duration_ms)
        if written:
            slug, version = event.slug, event.results_version
            # before the prizes' renewal: the event's pages are renewed once, as showing this snapshot
            once_after_commit(
                ("pages", event_id), lambda: page_cache.event_pages_show_snapshot(slug=slug, version=version)
            )
            prizes_recompute(event_id, None)  # prizes follow every new snapshot
            standings_updated(event_id=event_id, slug=event.slug, version=event.results_version)
            # FIDE's tools check the new state in a worker of their own queue (leagues/services/fide_check.py)
            once_after_commit(("fide-check", event_id), lambda: broker.enqueue_fide_check(event_id))
        if written and before is not None:
            record_correction_impact(event_id, before, data["rows"])
        log.info(
            "recompute event=%s version=%s duration_ms=%s stored=%s",
            event_id,
            event.results_version,
            duration_ms,
            written,
        )
        if written:
            store_explanations(event_id, event.results_version, result)
        return written


EXPLAINED_BETWEEN_CHECKS = 250  # rows explained between two looks for newer results


def _newest_version(event_id: int) -> int | None:
    return Event.objects.filter(pk=event_id).values_list("results_version", flat=True).first()


def store_explanations(event_id: int, version: int, result) -> None:
    """Second phase: the explanation traces. The standings are visible already; given up as soon as newer results
    are saved (their recompute explains them), so a worker in the middle of a big open's traces takes the next
    result's recompute at once."""
    started = time.perf_counter()
    traces = explanations_built(event_id, version, result)
    if traces is None:
        log.info("explanations event=%s version=%s given up (newer results)", event_id, version)
        return
    if explanations_stored(event_id, version, traces):
        # only the pages showing the traces: the standings and the rest were renewed with the snapshot
        event_explanations_changed_after_commit(event_id=event_id)
    log.info(
        "explanations event=%s version=%s duration_ms=%s",
        event_id,
        version,
        round((time.perf_counter() - started) * 1000),
    )


def explanations_built(event_id: int, version: int, result) -> dict | None:
    """Every participant's traces as the snapshot stores them; None when newer results came meanwhile."""
    explanations = {}
    # an individual event's in the compact form (tiebreaks/engine/compact.py), each participant's as one JSON text
    # the database keeps without parsing its numbers: cheap to build and to store, read back exactly as the traces
    # by leagues.selectors.stored_traces; a team event's as its traces
    compact = isinstance(result, Standings)
    built = result.compact_explanations() if compact else result.explanations()
    for index, (number, traces) in enumerate(built):
        if index % EXPLAINED_BETWEEN_CHECKS == 0 and _newest_version(event_id) != version:
            return None
        explanations[number] = json.dumps(traces, separators=(",", ":")) if compact else traces
    if _newest_version(event_id) != version:
        return None
    return explanations


def explanations_stored(event_id: int, version: int, explanations: dict) -> bool:
    """Store the traces on the snapshot of `version`; False when a newer snapshot is there already."""
    return bool(StandingsSnapshot.objects.filter(event_id=event_id, version=version).update(explanations=explanations))


def standings_difference(before: list[dict], after: list[dict]) -> list[dict]:
    """Who moved and which values changed between two standings tables."""

    def key(row):
        return row.get("start_number", row.get("team_number"))

    old = {key(row): row for row in before}
    changes = []
    for row in after:
        previous = old.get(key(row))
        if previous is None:
            continue
        values = {
            code: [previous["values"].get(code), value]
            for code, value in row["values"].items()
            if previous["values"].get(code) != value
        }
        if previous["rank"] != row["rank"] or previous["points"] != row["points"] or values:
            changes.append(
                {
                    "number": key(row),
                    "name": row["name"],
                    "rank": [previous["rank"], row["rank"]],
                    "points": [previous["points"], row["points"]],
                    "values": values,
                }
            )
    return changes


def record_correction_impact(event_id: int, before: list[dict], after: list[dict]) -> None:
    """Corrections and settings' changes not yet described get what they changed in the standings."""
    pending = ResultChange.objects.filter(game__round__event_id=event_id, standings_impact__isnull=True).exclude(
        before=""
    )
    if pending.exists():
        pending.update(standings_impact=standings_difference(before, after))
    settings = SettingChange.objects.filter(event_id=event_id, standings_impact__isnull=True)
    if settings.exists():  # a setting changed after the start (scoring, bye's value, tiebreak order)
        settings.update(standings_impact=standings_difference(before, after))


def stale_event_ids() -> list[int]:
    return list(Event.objects.stale().values_list("id", flat=True))


# the sweep looks for pages never renewed after their snapshot among the snapshots stored this long ago at most,
# and at least LOST_RENEWAL_GRACE ago (their worker renews them within moments of its commit)
LOST_RENEWAL_WINDOW = timedelta(minutes=10)
LOST_RENEWAL_GRACE = timedelta(seconds=5)


def renew_lost_pages() -> list[str]:
    """Renew the pages of snapshots whose worker died between its commit and the pages' renewal (they would say
    "being updated" until the event's next change); the slugs renewed."""
    now = timezone.now()
    stored = StandingsSnapshot.objects.filter(
        computed_at__gte=now - LOST_RENEWAL_WINDOW, computed_at__lte=now - LOST_RENEWAL_GRACE
    ).values_list("event__slug", "version")
    renewed = page_cache.renew_lost(stored)
    if renewed:
        log.info("sweep renewed the pages of %d events shown as being updated: %s", len(renewed), renewed)
    return renewed
