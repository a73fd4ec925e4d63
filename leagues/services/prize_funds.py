"""An event's prize fund as its organiser sets it: the fund's options and its prizes (amounts typed in the
currency's units, stored in minor units), saved and split again at once (the split and its storage:
services.prizes), or previewed over today's standings with nothing saved. A finished event's fund changes only
by its organiser, with a reason shown publicly.

``prize_fund_save`` checks that the user organises the league, validates everything before writing, and writes
in one transaction: a refused call changes nothing. Errors are ServiceError with a code and a sentence; field
errors (FieldError) carry ``field`` (``prizes-N``: the Nth prize) so a form can show them next to the field."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tiebreaks.prizes import CURRENCIES, split_prizes

from ..errors import FieldError, ServiceError
from ..models import Event, FinishedEventChange, Prize, PrizeFund, StandingsSnapshot
from ..page_cache import pages_changed
from ..permissions import AnyUser
from ..selectors import entries_with_clubs, row_number
from .edits import _assign, _organiser, _validated
from .prizes import club_names, prize_options, prize_standings, prizes_recompute, split_prize
from .results import finished_event_override

FUND_FIELDS = {"currency", "method", "one_prize_per_player", "remainder", "places_first", "item_tie", "published"}


def minor_units(amount: Decimal, currency: str) -> int:
    """An amount in the currency's units (e.g. 150.50 pounds) as minor units (15050 pence)."""
    decimals = CURRENCIES.get(currency, (currency, 2))[1]
    scaled = (Decimal(amount) * 10**decimals).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    if scaled != Decimal(amount) * 10**decimals:
        raise ServiceError(_("%(currency)s has no smaller unit than this.") % {"currency": currency}, code="bad_amount")
    return int(scaled)


def major_units(amount: int, currency: str) -> Decimal:
    decimals = CURRENCIES.get(currency, (currency, 2))[1]
    return Decimal(amount) / 10**decimals if decimals else Decimal(amount)


@dataclass
class PrizeInput:
    kind: str
    place: int | None = None
    category: str = ""
    eligibility_kind: str = ""
    eligibility_value: str = ""
    rank: int = 1
    amount: Decimal = Decimal(0)  # in the currency's units
    item: str = ""
    team_size: int = 3


def _prizes(fund: PrizeFund, prizes: list[PrizeInput]) -> list[Prize]:
    built = []
    for index, given in enumerate(prizes, start=1):
        if given.amount < 0:
            raise FieldError(f"prizes-{index}", _("An amount cannot be negative."))
        prize = Prize(
            fund=fund,
            kind=given.kind,
            place=given.place if given.kind == Prize.Kind.PLACE else None,
            category=given.category,
            eligibility_kind=given.eligibility_kind,
            eligibility_value=given.eligibility_value,
            rank=given.rank or 1,
            amount=minor_units(given.amount, fund.currency),
            item=given.item,
            team_size=given.team_size or 3,
            position=index,  # the organiser's order, which the split follows
        )
        try:
            prize.full_clean(exclude=["fund"], validate_constraints=False)
        except ValidationError as exc:
            messages = [m for ms in exc.message_dict.values() for m in ms]
            raise FieldError(f"prizes-{index}", messages[0]) from None
        built.append(prize)
    keys = [(p.kind, p.place, p.category, p.rank) for p in built]
    if len(keys) != len(set(keys)):
        raise FieldError("prizes", _("Two prizes have the same place or the same category and rank."))
    return built


def prize_fund_save(
    *, event: Event, user: AnyUser, fields: dict[str, Any], prizes: list[PrizeInput], reason: str = ""
) -> PrizeFund:
    """Replace the event's prize fund and prizes (amounts in the currency's units) and split it again.
    A finished event's prizes change only by its organiser, with a reason shown publicly."""
    with transaction.atomic():
        _organiser(user, event.league_id)
        event = Event.objects.select_for_update().get(pk=event.pk)
        finished_event_override(event, user, reason, FinishedEventChange.Subject.PRIZES)
        fund = PrizeFund.objects.filter(event=event).first() or PrizeFund(event=event, currency=event.league.currency)
        _assign(fund, fields, FUND_FIELDS)
        _validated(fund, exclude=["event", "lot_order"])
        fund.save()
        built = _prizes(fund, prizes)
        fund.prizes.all().delete()
        try:
            with transaction.atomic():
                Prize.objects.bulk_create(built)
        except IntegrityError:
            raise FieldError("prizes", _("Two prizes have the same place or the same category and rank.")) from None
        try:
            prizes_recompute(event.pk, strict=True)
        except ValueError as exc:
            raise FieldError("prizes", str(exc), code="prize_split_refused") from None
        pages_changed(event_id=event.pk)
        return fund


@dataclass
class PrizePreview:
    currency: str
    awards: list[tuple[int, str, int, list[str]]]  # (place, name, money in minor units, items)
    lines: list[tuple[str, dict[str, Any]]]  # the split's reason lines (code, params)
    total_paid: int
    fund_total: int
    problem: str = ""


def prizes_preview(*, event: Event, fields: dict[str, Any], prizes: list[PrizeInput]) -> PrizePreview:
    """Who would receive what if the standings ended today, with these prizes: nothing is saved."""
    fund = PrizeFund(event=event, currency=event.league.currency)
    _assign(fund, fields, FUND_FIELDS)
    built = _prizes(fund, prizes)
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    if snapshot is None:
        return PrizePreview(fund.currency, [], [], 0, sum(p.amount for p in built), _("No standings yet."))
    entries = {entry.start_number: entry for entry in entries_with_clubs(event)}
    try:
        result = split_prizes(
            prize_standings(snapshot, entries),
            [split_prize(p) for p in built],
            prize_options(fund),
            club_names(entries),
        )
    except ValueError as exc:
        return PrizePreview(fund.currency, [], [], 0, sum(p.amount for p in built), str(exc))
    place = {row_number(row): index for index, row in enumerate(snapshot.rows, start=1)}
    awards = sorted(
        (place.get(a.participant_id, 0), entries[a.participant_id].name, a.money, list(a.items))
        for a in result.awards
        if a.participant_id in entries
    )
    awards += [(0, a.name, a.money, list(a.items)) for a in result.club_awards]
    lines = [(line.code, line.params) for line in result.lines]
    return PrizePreview(fund.currency, awards, lines, result.total_paid, result.fund)
