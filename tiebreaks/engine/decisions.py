"""Decisions that rank tied players beyond the computed criteria (FIDE C.07 2026 and the 2026 checklist Q205/207).

``MAN`` (manual order) ends a list: a decision of the chief arbiter or the organiser, with its reason, orders
players still tied after every criterion (``Tournament.manual_orders``). Its value is the player's place in the
decision (1 = first); a player named in no decision has no value.

``PO`` (play-off) comes before the tie-breaks: the places the regulations decide by a play-off are decided by the
play-off games (``Tournament.playoffs``), which are not rounds of the event (they count for no points and no
tie-break). Its value is the player's play-off score; in an Armageddon game a draw counts as a win for Black. A
player who played no play-off has no value (undefined is sorted last, so the play-off's players come first).
"""

from __future__ import annotations

from fractions import Fraction

from . import reasons as R
from .context import Computed, Context
from .criteria import Criterion
from .explain import Trace, TraceElement
from .model import ManualOrder, Playoff, PlayoffGame


def _manual_places(orders: tuple[ManualOrder, ...]) -> dict[int, tuple[int, ManualOrder]]:
    out: dict[int, tuple[int, ManualOrder]] = {}
    for order in orders:
        for place, sn in enumerate(order.start_numbers, start=1):
            out[sn] = (place, order)
    return out


def compute_manual(ctx: Context, crit: Criterion) -> Computed:
    places = _manual_places(ctx.tournament.manual_orders)
    return Computed([places[sn][0] if sn in places else None for sn in ctx.ct.start_numbers], 1)


def explain_manual(ctx: Context, crit: Criterion, i: int) -> Trace:
    sn = ctx.ct.start_numbers[i]
    found = _manual_places(ctx.tournament.manual_orders).get(sn)
    if found is None:
        return Trace(sn, crit.code, None, reason=R.NO_MANUAL_ORDER)
    place, order = found
    value = Fraction(place)
    elements = [TraceElement(None, None, False, value, value, R.MANUAL_PLACE, "4.2")]
    elements += [
        TraceElement(None, other, False, None, Fraction(0), R.MANUAL_ABOVE, "4.2")
        for other in order.start_numbers[place:]
    ]
    details = {"reason": order.reason, "by": order.decided_by, "on": order.decided_on, "who": order.recorded_by}
    return Trace(sn, crit.code, value, tuple(elements), value, details=details)


def game_points(game: PlayoffGame, sn: int) -> Fraction:
    """What ``sn`` scored in one play-off game; in an Armageddon game a draw is a win for Black."""
    white = {"1-0": Fraction(1), "0-1": Fraction(0)}.get(game.result, Fraction(1, 2))
    if game.armageddon and white == Fraction(1, 2):
        white = Fraction(0)
    return white if sn == game.white else 1 - white


def _playoff_of(playoffs: tuple[Playoff, ...], sn: int) -> Playoff | None:
    return next((p for p in playoffs if any(sn in (g.white, g.black) for g in p.games)), None)


def compute_playoff(ctx: Context, crit: Criterion) -> Computed:
    nums: list[int | None] = []
    for sn in ctx.ct.start_numbers:
        playoff = _playoff_of(ctx.tournament.playoffs, sn)
        if playoff is None:
            nums.append(None)
            continue
        total = sum((game_points(g, sn) for g in playoff.games if sn in (g.white, g.black)), Fraction(0))
        nums.append(int(total * 2))
    return Computed(nums, 2)


def explain_playoff(ctx: Context, crit: Criterion, i: int) -> Trace:
    sn = ctx.ct.start_numbers[i]
    playoff = _playoff_of(ctx.tournament.playoffs, sn)
    if playoff is None:
        return Trace(sn, crit.code, None, reason=R.NO_PLAYOFF)
    elements = []
    for number, game in enumerate(playoff.games, start=1):
        if sn not in (game.white, game.black):
            continue
        points = game_points(game, sn)
        opponent = game.black if sn == game.white else game.white
        armageddon_draw = game.armageddon and game.result not in ("1-0", "0-1")
        reason = R.PLAYOFF_ARMAGEDDON_DRAW if armageddon_draw else R.PLAYOFF_GAME
        elements.append(TraceElement(number, opponent, False, points, points, reason, "2.1", points=points))
    total = sum((e.contribution for e in elements), Fraction(0))
    return Trace(sn, crit.code, total, tuple(elements), total, details={"place": playoff.place})
