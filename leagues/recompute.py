"""The recompute: read one consistent state, compute, store the snapshot only if it is newer."""

import json
import logging
import marshal
import threading
import time
from datetime import timedelta
from json.encoder import encode_basestring_ascii
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import JSONField, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from tiebreaks.engine.compact import TraceInputs
from tiebreaks.engine.model import Tournament
from tiebreaks.engine.ranking import Standings

from . import broker, page_cache
from .after_commit import once_after_commit
from .models import Event, ResultChange, StandingsSnapshot
from .models.audit import SettingChange
from .page_cache import event_explanations_changed_after_commit
from .services.fide_check import fide_checked
from .services.prizes import prizes_recompute
from .services.standings import event_engine_results, places_remembered, snapshot_fields, with_round_places
from .services.webhooks import standings_updated
from .session_locks import session_lock

log = logging.getLogger("leagues.recompute")


def _lock_name(event_id: int) -> str:
    return f"standings:{event_id}"


def _read_consistently(event_id: int):
    """The event, the engine's standings and (an individual event's) the crosstable they are computed from, of one
    consistent state of its results."""
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
    if StandingsSnapshot.objects.filter(event_id=event_id, version__lt=version).update(version=version, **fields):
        return True  # one statement, atomic by itself: no transaction of its own (two round trips fewer)
    with transaction.atomic():
        if StandingsSnapshot.objects.filter(event_id=event_id).exists():
            return False
        _, created = StandingsSnapshot.objects.get_or_create(event_id=event_id, defaults={"version": version, **fields})
        return created


def standings_recompute_event(event_id: int) -> bool:
    """Recompute one event's standings; returns whether a newer snapshot was stored. Recomputes of one event never
    run at once (a PostgreSQL session lock). One sent while another worker recomputes the event asks that worker to
    run again once done (broker.recompute_rerun_ask) and ends: no worker waits for another's lock or sends its task
    round through the broker again, and the results saved meanwhile are read as soon as the lock is free. Without a
    broker (tasks in-process) it waits for the lock."""
    written, attempt = False, 0
    while True:
        with session_lock(_lock_name(event_id)) as held:
            if held:
                written = _recompute_holding_the_lock(event_id) or written
        if held:
            if not broker.recompute_rerun_asked(event_id):
                return written
        elif attempt:
            # busy again: its holder took the lock after this one asked or released it, and reads the newest results
            log.info("recompute event=%s left to the worker recomputing it", event_id)
            return written
        elif not broker.recompute_rerun_ask(event_id):
            with session_lock(_lock_name(event_id), wait=True):
                return _recompute_holding_the_lock(event_id) or written
        attempt += 1


def _recompute_holding_the_lock(event_id: int) -> bool:
    broker.recompute_started(event_id)
    versions = Event.objects.filter(pk=event_id).values_list("results_version", "snapshot__version").first()
    if versions is None:
        return False  # event deleted meanwhile
    version_now, current = versions
    if current is not None and current >= version_now:
        log.info("recompute skipped event=%s version=%s (snapshot current)", event_id, version_now)
        return False
    started = time.perf_counter()
    log.info("recompute started event=%s", event_id)
    event, result, tournament = _read_consistently(event_id)
    data = snapshot_fields(result.to_dict(), tournament=tournament)
    if settings.RECOMPUTE_TEST_DELAY:
        time.sleep(settings.RECOMPUTE_TEST_DELAY)
    duration_ms = round((time.perf_counter() - started) * 1000)
    undescribed = changes_undescribed(event_id)
    # the standings before: only when a correction or a setting's change waits for what it changed in them
    before = (
        StandingsSnapshot.objects.filter(event_id=event_id).values_list("rows", flat=True).first()
        if undescribed
        else None
    )
    written = store_snapshot(event_id, event.results_version, data, duration_ms)
    if written:
        slug, version = event.slug, event.results_version
        # before the prizes' renewal: the event's pages are renewed once, as showing this snapshot
        once_after_commit(("pages", event_id), lambda: page_cache.event_pages_show_snapshot(slug=slug, version=version))
        prizes_recompute(event_id, None)  # prizes follow every new snapshot
        standings_updated(event_id=event_id, slug=event.slug, version=event.results_version)
        # FIDE's tools check the new state in a worker of their own queue, if they check such an event at all
        if tournament is not None and fide_checked(event, len(tournament.participants)):
            once_after_commit(("fide-check", event_id), lambda: broker.enqueue_fide_check(event_id))
    if written and before is not None:
        difference = standings_difference(before, data["rows"])
        for changes in undescribed:
            changes.update(standings_impact=difference)
    log.info(
        "recompute event=%s version=%s duration_ms=%s stored=%s",
        event_id,
        event.results_version,
        duration_ms,
        written,
    )
    if written:
        store_explanations(event, result, tournament, data["rows"])
    return written


EXPLAINED_BETWEEN_CHECKS = 250  # rows explained between two looks for newer results (and a last one before storing)


def _newest_version(event_id: int) -> int | None:
    return Event.objects.filter(pk=event_id).values_list("results_version", flat=True).first()


def store_explanations(event: Event, result, tournament: Tournament | None, rows: list[dict]) -> None:
    """Second phase: the explanation traces and (an individual event's) each player's place after every round, which
    the pages showing the traces show (a player's page). The standings are visible already; given up as soon as
    newer results are saved (their recompute explains them), so a worker in the middle of a big open's traces takes
    the next result's recompute at once."""
    event_id, version = event.pk, event.results_version
    started = time.perf_counter()
    places = places_remembered(event, tournament, result) if tournament is not None else None
    traces = explanations_built(event_id, version, result)
    if traces is None:
        log.info("explanations event=%s version=%s given up (newer results)", event_id, version)
        return
    if explanations_stored(event_id, version, traces, with_round_places(rows, places) if places else None):
        # only the pages showing the traces: the standings and the rest were renewed with the snapshot
        event_explanations_changed_after_commit(event_id=event_id, slug=event.slug)
    log.info(
        "explanations event=%s version=%s duration_ms=%s",
        event_id,
        version,
        round((time.perf_counter() - started) * 1000),
    )


class BuiltExplanations(dict[str, Any]):
    """Every participant's traces by number as the snapshot's column keeps them, with the column's JSON text written
    already (`json_text`, None for a team event's): stored as it is, not encoded again."""

    json_text: str | None = None


#: each event's compact traces as this process last built them: what they were built from (TraceInputs), and by number
#: their marshal bytes, their JSON text and their entry in the column's JSON text. One result changes the traces of its
#: players and their opponents, not a whole open's: a participant whose inputs are the same is not built again, and
#: traces equal to those before (same values of the same types: same bytes) are not encoded again.
_built_known: dict[int, tuple[TraceInputs | None, dict[str, tuple[bytes | None, str, str]]]] = {}
_built_known_lock = threading.Lock()
BUILT_KNOWN_EVENTS = 8


def _encoded(
    number: str, traces: dict, known: dict[str, tuple[bytes | None, str, str]]
) -> tuple[bytes | None, str, str]:
    """A participant's compact traces as (their marshal bytes, None if not kept; their JSON text; their entry in the
    column's JSON text: the number, then the text as a JSON string), taken from `known` when they did not change."""
    try:
        key: bytes | None = marshal.dumps(traces)
    except ValueError:  # a value marshal does not write (json does): encoded each time
        key = None
    before = known.get(number)
    if key is not None and before is not None and before[0] == key:
        return before
    text = json.dumps(traces, separators=(",", ":"))
    return key, text, f"{encode_basestring_ascii(number)}:{encode_basestring_ascii(text)}"


def explanations_built(event_id: int, version: int, result) -> BuiltExplanations | None:
    """Every participant's traces as the snapshot stores them; None when newer results came meanwhile."""
    explanations = BuiltExplanations()
    # an individual event's in the compact form (tiebreaks/engine/compact.py), each participant's as one JSON text
    # the database keeps without parsing its numbers: cheap to build and to store, read back exactly as the traces
    # by leagues.selectors.stored_traces; a team event's as its traces
    if not isinstance(result, Standings):
        for index, (number, traces) in enumerate(result.explanations()):
            if index and index % EXPLAINED_BETWEEN_CHECKS == 0 and _newest_version(event_id) != version:
                return None
            explanations[number] = traces
        return explanations if _newest_version(event_id) == version else None
    with _built_known_lock:
        inputs_before, known = _built_known.get(event_id, (None, {}))
    inputs = result.trace_inputs()
    unchanged = inputs.unchanged(inputs_before) if inputs is not None else set()
    now: dict[str, tuple[bytes | None, str, str]] = {}
    entries = []
    for index, (number, traces) in enumerate(result.compact_explanations(unchanged)):
        if index and index % EXPLAINED_BETWEEN_CHECKS == 0 and _newest_version(event_id) != version:
            return None
        now[number] = built = known[number] if traces is None else _encoded(number, traces, known)
        explanations[number] = built[1]
        entries.append(built[2])
    if _newest_version(event_id) != version:
        return None
    explanations.json_text = "{" + ",".join(entries) + "}"
    with _built_known_lock:
        _built_known.pop(event_id, None)
        _built_known[event_id] = (inputs, now)
        while len(_built_known) > BUILT_KNOWN_EVENTS:
            del _built_known[next(iter(_built_known))]
    return explanations


def explanations_stored(event_id: int, version: int, explanations: dict, rows: list[dict] | None = None) -> bool:
    """Store the traces (and `rows`, the standings' rows with each player's place after every round) on the
    snapshot of `version`; False when a newer snapshot is there already."""
    column: object = explanations
    if isinstance(explanations, BuiltExplanations) and explanations.json_text and connection.vendor == "postgresql":
        # the JSON text written already, not encoded again
        column = RawSQL("%s::jsonb", (explanations.json_text,), output_field=JSONField())
    fields = {"explanations": column} if rows is None else {"explanations": column, "rows": rows}
    return bool(StandingsSnapshot.objects.filter(event_id=event_id, version=version).update(**fields))


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


def changes_undescribed(event_id: int) -> list[QuerySet]:
    """The event's corrections and settings' changes (scoring, bye's value, tiebreak order after the start) not yet
    given what they changed in the standings (standings_difference), each kind as a query; none if there are none."""
    kinds: list[QuerySet] = [
        ResultChange.objects.filter(game__round__event_id=event_id, standings_impact__isnull=True).exclude(before=""),
        SettingChange.objects.filter(event_id=event_id, standings_impact__isnull=True),
    ]
    return [changes for changes in kinds if changes.exists()]


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
