"""Prize money with every standings snapshot: build the split's inputs, run it, store the allocation.

``prizes_recompute`` is called by the standings recompute right after a snapshot is stored (and by the
admin after a fund is edited). It reads the snapshot (rank order, points, tiebreak values in the
published order) and the entries' players (rating at start, birth year, sex, club), runs the pure
:func:`tiebreaks.prizes.split_prizes` and replaces the stored :class:`PrizeAllocation`. Running it
twice is harmless; an allocation is never replaced by one computed from an older snapshot.

``prizes_for_event`` is the read side for the page and the API.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from django.db import transaction
from django.utils import timezone

from tiebreaks.prizes import (
    CategoryPrize,
    ClubTeamPrize,
    Eligibility,
    PlacePrize,
    PrizeOptions,
    Standing,
    split_prizes,
)

from ..models import Entry, Event, Prize, PrizeAllocation, PrizeAward, PrizeFund, StandingsSnapshot
from ..page_cache import pages_changed
from ..selectors import entries_with_clubs, row_number, shared_places

log = logging.getLogger("leagues.prizes")


def _exact(value: Any) -> Decimal | None:
    """Snapshot numbers (JSON floats such as 4.25) as exact decimals: half and quarter points compare exactly."""
    if value is None:
        return None
    return Decimal(str(value))


def _entries(event: Event) -> dict[int, Entry]:
    return {entry.start_number: entry for entry in entries_with_clubs(event)}


def _club_slug(entry: Entry | None) -> str | None:
    club = entry.club_display if entry is not None else None
    return club.slug if club is not None else None


def club_names(entries: dict[int, Entry]) -> dict[str, str]:
    """Club slug -> name, for the clubs of the entries (the best club team prizes are shown by name)."""
    clubs = (entry.club_display for entry in entries.values())
    return {club.slug: club.name for club in clubs if club is not None}


def prize_standings(snapshot: StandingsSnapshot, entries: dict[int, Entry]) -> list[Standing]:
    """The split's input: one Standing per snapshot row, in rank order; participant id = start number."""
    criteria = list(snapshot.criteria)
    out = []
    for row in snapshot.rows:
        number = row_number(row)
        entry = entries.get(number)
        player = entry.player if entry is not None and entry.player_id else None
        values = row.get("values") or {}
        out.append(
            Standing(
                participant_id=number,
                name=row["name"],
                points=_exact(row["points"]),
                tiebreak_values=tuple((code, _exact(values.get(code))) for code in criteria),
                rating=entry.rating if entry is not None else None,
                birth_year=player.birth_year if player else None,
                sex=(player.sex or None) if player else None,
                club=_club_slug(entry),
            )
        )
    return out


def split_prize(prize: Prize) -> PlacePrize | CategoryPrize | ClubTeamPrize:
    """A stored prize as the split algorithm's input."""
    if prize.kind == Prize.Kind.PLACE:
        if prize.place is None:
            raise RuntimeError("a place prize has its place (a constraint of the table)")
        return PlacePrize(place=prize.place, amount=prize.amount, item=prize.item or None)
    if prize.kind == Prize.Kind.CLUB_TEAM:
        return ClubTeamPrize(rank=prize.rank, amount=prize.amount, item=prize.item or None, players=prize.team_size)
    return CategoryPrize(
        category=prize.category,
        eligibility=(Eligibility(prize.eligibility_kind, prize.eligibility_typed),),
        rank=prize.rank,
        amount=prize.amount,
        item=prize.item or None,
    )


def prize_options(fund: PrizeFund) -> PrizeOptions:
    return PrizeOptions(
        method=fund.method,
        one_prize_per_player=fund.one_prize_per_player,
        remainder=fund.remainder,
        currency=fund.currency,
        lot_order=tuple(fund.lot_order or ()),
        item_tie=fund.item_tie,
        places_first=fund.places_first,
    )


def jsonable(value: Any) -> Any:
    """Line parameters as JSON: tuples as lists, exact decimals as strings, money stays an integer."""
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    return value


def prizes_recompute(
    event_id: int, snapshot: StandingsSnapshot | None = None, *, strict: bool = False
) -> PrizeAllocation | None:
    """Split the event's prize fund over its standings snapshot (the stored one when None) and store it.

    Returns the allocation now stored, or None when the event has no fund or no standings yet, or when
    the split refuses the fund (logged; with ``strict`` the ValueError is raised instead).
    """
    fund = PrizeFund.objects.filter(event_id=event_id).select_related("event").prefetch_related("prizes").first()
    if fund is None:
        return None
    if snapshot is None:
        snapshot = StandingsSnapshot.objects.filter(event_id=event_id).first()
        if snapshot is None:
            return None
    entries = _entries(fund.event)
    try:
        result = split_prizes(
            prize_standings(snapshot, entries),
            [split_prize(p) for p in fund.prizes.all()],
            prize_options(fund),
            club_names(entries),
        )
    except ValueError:
        # a fund the split refuses (e.g. one category with two eligibility rules): the standings must not
        # fail with it; the old allocation stays and the admin reports the reason when the fund is saved
        if strict:
            raise
        log.exception("prize split refused event=%s fund=%s", event_id, fund.pk)
        return None
    with transaction.atomic():
        current = PrizeAllocation.objects.select_for_update().filter(fund=fund).first()
        if current is not None and current.version > snapshot.version:
            return current  # computed from a newer snapshot meanwhile
        fields = dict(
            version=snapshot.version,
            computed_at=timezone.now(),
            currency=result.currency,
            fund_total=result.fund,
            total_paid=result.total_paid,
            remainder=result.remainder,
            unawarded=result.unawarded,
            lines=[{"code": line.code, "params": jsonable(line.params)} for line in result.lines],
            club_awards=[
                {"club": award.participant_id, "name": award.name, "money": award.money, "items": list(award.items)}
                for award in result.club_awards
            ],
            event_finished=fund.event.status == Event.Status.FINISHED,
        )
        if current is None:
            allocation = PrizeAllocation.objects.create(fund=fund, **fields)
        else:
            PrizeAllocation.objects.filter(pk=current.pk).update(**fields)
            allocation = PrizeAllocation.objects.get(pk=current.pk)
            allocation.awards.all().delete()
        position = {s: i for i, s in enumerate(row_number(row) for row in snapshot.rows)}
        PrizeAward.objects.bulk_create(
            PrizeAward(
                allocation=allocation,
                entry=entries[award.participant_id],
                position=position[award.participant_id] + 1,
                money=award.money,
                items=list(award.items),
            )
            for award in result.awards
            if award.participant_id in entries
        )
        pages_changed(event_id=event_id)  # the prizes page shows the new split
    return allocation


# ------------------------------------------------------------------------------------------ reads


@dataclass
class EventPrizes:
    event: Event
    fund: PrizeFund | None  # None: no published fund
    allocation: PrizeAllocation | None = None
    snapshot_version: int | None = None
    places: dict[int, str] = field(default_factory=dict)  # start number -> place as shown ("1–2" when shared)
    prizes: list[Prize] = field(default_factory=list)
    awards: list[PrizeAward] = field(default_factory=list)

    @property
    def provisional(self) -> bool:
        """Provisional until the event is finished and the allocation follows the latest standings."""
        if self.allocation is None:
            return True
        return self.allocation.is_provisional(self.event, self.snapshot_version)

    @property
    def being_updated(self) -> bool:
        """Results or standings are newer than the prizes shown."""
        if self.allocation is None:
            return self.snapshot_version is not None or self.event.results_version > 0
        return self.snapshot_version != self.allocation.version or self.event.results_version > self.allocation.version


def prizes_for_event(*, slug: str) -> EventPrizes:
    """The published prize fund of a public event and its latest allocation (raises Event.DoesNotExist)."""
    event = Event.objects.public().select_related("league", "season").get(slug=slug)
    fund = PrizeFund.objects.filter(event=event, published=True).first()
    if fund is None:
        return EventPrizes(event=event, fund=None)
    snapshot = StandingsSnapshot.objects.filter(event=event).only("version", "rows").first()
    snapshot_version = snapshot.version if snapshot else None
    rows = snapshot.rows if snapshot else []
    places = dict(zip((row_number(row) for row in rows), shared_places([row["rank"] for row in rows]), strict=True))
    allocation = PrizeAllocation.objects.filter(fund=fund).first()
    prizes = list(fund.prizes.all())  # in the organiser's order, as the manage page shows and the split reads them
    awards = list(allocation.awards.select_related("entry__player", "entry__team")) if allocation else []
    return EventPrizes(
        event=event,
        fund=fund,
        allocation=allocation,
        snapshot_version=snapshot_version,
        places=places,
        prizes=prizes,
        awards=awards,
    )


def category_badges(
    event: Event, snapshot: StandingsSnapshot | None, entries: dict[int, Entry]
) -> dict[int, list[str]]:
    """Start number -> the categories of the event's published category prizes the player belongs to.

    Nothing while the organiser has not published the prize fund: a badge tells a reader a player's age
    band or sex, so it shows only what the organiser chose to publish."""
    fund = PrizeFund.objects.filter(event=event, published=True).prefetch_related("prizes").first()
    if fund is None or snapshot is None:
        return {}
    rules: dict[str, Eligibility] = {}
    for prize in fund.prizes.all():
        category = split_prize(prize)
        if isinstance(category, CategoryPrize):
            rules.setdefault(category.category, category.eligibility[0])
    badges: dict[int, list[str]] = {}
    for standing in prize_standings(snapshot, entries):
        found = [name for name, rule in rules.items() if rule.admits(standing)]
        if found:
            badges[cast(int, standing.participant_id)] = found
    return badges
