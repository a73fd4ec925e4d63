"""The event checked with FIDE's own tools: after each round (once the recompute has stored the standings and no
published game waits for its result) a worker runs FIDE's pairing checker and tie-break checker (gacrux, through
:mod:`pairings.fide_tools`) on the event's own TRF export, and keeps their verdict next to the standings: whether
every round's pairing is FIDE's, whether every tie-break value the site shows is the one FIDE's checker computes,
and each difference. Readers see it on the standings page and in the API; anyone can download the same TRF and
run the tools themselves."""

import json
import logging
from fractions import Fraction
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from pairings.fide_tools import FideToolRefused, fide_pairing_check, fide_rules_version, fide_tiebreaks

from ..models import EntryRating, Event, FideCheck, Game, Result, StandingsSnapshot
from ..page_cache import pages_changed
from .ratings import tiebreaks_written
from .round_pairings import last_paired_round
from .trf import event_export_trf

log = logging.getLogger(__name__)

#: bigger events are not checked: FIDE's pairing checker replays every round with its engine, which takes
#: minutes on a big open (the worker would hold its queue for them)
MAX_CHECKED_PLAYERS = 300


def fide_checked(event: Event, players: int) -> bool:
    """Whether FIDE's tools check the event: an individual event that is not a cup (a cup is paired by its bracket,
    not by FIDE's rules), of at most MAX_CHECKED_PLAYERS players."""
    return not event.is_team and not event.is_knockout and players <= MAX_CHECKED_PLAYERS


def fide_check_of(event: Event) -> FideCheck | None:
    return FideCheck.objects.filter(event=event).first()


def _hundredths(value: Any) -> Fraction | None:
    """A value as the checker prints it and the site shows it: two decimals at most, half up."""
    if value is None:
        return None
    return Fraction(round(Fraction(str(value)) * 100), 100)


def _shown(value: Fraction | None) -> str | None:
    if value is None:
        return None
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _state(event_id: int) -> tuple[Event, StandingsSnapshot, str, int] | None:
    """The event, its snapshot and its TRF export of one consistent state, and the rounds played; None when the
    state is not one to check (standings behind the results, a published game without a result, too big)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        event = Event.objects.filter(pk=event_id).first()
        if event is None or not fide_checked(event, 0):
            return None
        snapshot = StandingsSnapshot.objects.filter(event=event).first()
        if snapshot is None or snapshot.version != event.results_version:
            return None  # the recompute of the newest results will ask again
        games = Game.objects.filter(round__event=event)
        if games.filter(result=Result.PENDING, black__isnull=False).exists():
            return None  # in the middle of a round: checked once it is complete
        rounds = last_paired_round(event)
        if games.filter(round__number__gt=rounds).exists():
            return None  # byes entered for the next round: checked once it is paired and played
        if not rounds or not fide_checked(event, event.entries.count()):
            return None
        return event, snapshot, event_export_trf(event=event), rounds


def _pairing_differences(trf: str) -> tuple[bool, list[dict[str, Any]]]:
    try:
        checked = fide_pairing_check(trf)
    except FideToolRefused as refusal:
        return False, [{"kind": "refused", "tool": "pairings", "message": str(refusal)[:500]}]
    differences = [
        {"kind": "pairing", "round": c.round, "site": [list(p) for p in c.file], "fide": [list(p) for p in c.fide]}
        for c in checked
        if not c.same
    ]
    return not differences, differences


#: the criteria that read ratings (C.07 Article 10)
RATING_CRITERIA = frozenset({"ARO", "TPR", "PTP", "APRO", "APPO", "RTNG"})


def _tiebreak_differences(event: Event, snapshot: StandingsSnapshot, trf: str, rounds: int) -> list[dict[str, Any]]:
    criteria = list(snapshot.criteria)
    if (
        event.tiebreak_ratings == Event.TiebreakRatings.ROUND
        and EntryRating.objects.filter(entry__event=event).exists()
    ):
        # FIDE's checker knows one rating per player (the TRF's, at the start): the rating of each round, which
        # the event's regulations chose, is not what it computes, so those criteria are left out of the check
        criteria = [code for code in criteria if code.split("/")[0].split(":")[0].upper() not in RATING_CRITERIA]
    # FIDE's checker has no seeded drawing of lots (its RND is a number the file would have to carry): the lots
    # are repeatable by anyone from the published seed instead (tiebreaks/engine/lots.py)
    # nor the decisions the site records (a play-off's games, a manual order of players still tied)
    criteria = [code for code in criteria if code.split("/")[0].upper() not in ("LOT", "PO", "MAN")]
    try:
        asked = tiebreaks_written(["PTS", *criteria], event.unrated_rating)  # the event's rating for unrated players
        fide = fide_tiebreaks(trf, asked, rounds=rounds, rule_set=snapshot.rules, round_robin=event.is_round_robin)
    except FideToolRefused as refusal:
        return [{"kind": "refused", "tool": "tiebreaks", "message": str(refusal)[:500]}]
    differences = []
    for row in snapshot.rows:
        number = row["start_number"]
        theirs = fide.get(number)
        ours = [row["points"], *(row["values"].get(code) for code in criteria)]
        for code, site, other in zip(["PTS", *criteria], ours, theirs or [None] * len(ours), strict=True):
            site_value, fide_value = _hundredths(site), _hundredths(other)
            if theirs is None or site_value != fide_value:
                differences.append(
                    {
                        "kind": "tiebreak",
                        "number": number,
                        "name": row.get("name", ""),
                        "criterion": code,
                        "site": _shown(site_value),
                        "fide": _shown(fide_value),
                    }
                )
    return differences


def event_fide_check(*, event_id: int) -> FideCheck | None:
    """Check the event with FIDE's tools and store the verdict (the worker's part, after a recompute). Returns
    the verdict, or None when the event is not checked now (see :func:`_state`)."""
    state = _state(event_id)
    if state is None:
        return None
    event, snapshot, trf, rounds = state
    pairings_ok, differences = _pairing_differences(trf)
    tiebreaks_ok: bool | None = None
    if fide_rules_version(snapshot.rules) is not None:  # FIDE's checker applies FIDE's rules only
        found = _tiebreak_differences(event, snapshot, trf, rounds)
        tiebreaks_ok = not found
        differences += found
    with transaction.atomic():
        # a newer check (of newer results) is never replaced by this one
        current = FideCheck.objects.select_for_update().filter(event_id=event_id).first()
        if current is not None and current.version > snapshot.version:
            return current
        # the differences as stored (JSON: the pairs' tuples read back as lists)
        stored_differences = json.loads(json.dumps(differences))
        verdict = {
            "rounds": rounds,
            "pairings_ok": pairings_ok,
            "tiebreaks_ok": tiebreaks_ok,
            "differences": stored_differences,
        }
        version, checked_at = snapshot.version, timezone.now()
        if current is not None and all(getattr(current, field) == value for field, value in verdict.items()):
            # the same verdict of newer results: the standings page says nothing new, so it is not renewed
            FideCheck.objects.filter(pk=current.pk).update(version=version, checked_at=checked_at)
            current.version, current.checked_at = version, checked_at
            check = current
        else:
            check, _created = FideCheck.objects.update_or_create(
                event_id=event_id, defaults={**verdict, "version": version, "checked_at": checked_at}
            )
            pages_changed(event_id=event_id)  # the standings page shows the new verdict
    if not check.ok:
        log.info("FIDE's tools disagree with event %s after round %s: %s", event.slug, rounds, differences[:5])
    return check
