"""Direct encounter (Article 6, type A): ranks a tied group by the games among its members.

1. Mutual score m(p): p's points against the other members; a repeated meeting counts as the
   *average* of those games (6.1.2). Games over the board count; forfeits only with ``/P`` or
   with pre-determined pairings (15.2).
2. All members met (always assumed in a round robin): order by m; members still equal get
   Article 6 again on their own subgroup (6.2).
3. Not all met (Swiss, 6.3): a member is ranked first only if nobody could catch them whatever
   the missing games' results: ``m(c) + L x missing(c) > m(q) + W x missing(q)`` for every
   other q; then the same test for second place among the rest, and so on; when the test
   fails, Article 6 is applied again to the remaining (smaller) set.

The value reported per participant follows FIDE's checker: the place inside the tied group
(1, 2, ...; equal = still tied; lower is better), or 0 when DE separated nobody in the group.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from . import reasons as R
from .context import Context
from .criteria import Criterion
from .crosstable import FORFEIT_KINDS, GAME_KINDS
from .explain import Trace, TraceElement

_COUNTED_WITH_FORFEITS = GAME_KINDS | FORFEIT_KINDS


class _Meetings:
    """Per participant, built on demand: opponent -> [(round, points scored)] of the games
    that count for DE (only members of tied groups are ever looked at)."""

    def __init__(self, ctx: Context, crit: Criterion) -> None:
        self.ct = ctx.ct
        self.with_forfeits = crit.forfeits_as_games or ctx.ct.round_robin
        self.cache: dict[int, dict[int, list[tuple[int, int]]]] = {}

    def __getitem__(self, i: int) -> dict[int, list[tuple[int, int]]]:
        met = self.cache.get(i)
        if met is None:
            ct = self.ct
            met = {}
            counted = _COUNTED_WITH_FORFEITS if self.with_forfeits else GAME_KINDS
            r = 0
            for kind, o, p in zip(ct.kinds[i], ct.opps[i], ct.pts[i], strict=True):
                if o >= 0 and kind in counted:
                    games = met.get(o)
                    if games is None:
                        met[o] = [(r, p)]
                    else:
                        games.append((r, p))
                r += 1
            self.cache[i] = met
        return met


def _meetings(ctx: Context, crit: Criterion) -> _Meetings:
    result: _Meetings = ctx.memo(("de-meetings", crit.forfeits_as_games), lambda: _Meetings(ctx, crit))
    return result


def _mutual_scaled(ctx: Context, crit: Criterion, group: list[int]) -> tuple[dict[int, int], int]:
    """Mutual scores as integers over a common denominator (returned second).

    The denominator is ``unit x lcm(number of games per opponent)``: 6.1.2 averages repeated
    meetings, and integers keep the comparisons exact and fast.
    """
    m, den, _ = _mutual(ctx, crit, group)
    return m, den


def _mutual(ctx: Context, crit: Criterion, group: list[int]) -> tuple[dict[int, int], int, dict[int, int]]:
    """:func:`_mutual_scaled`, and how many other members each member met, in one pass over the
    members' rounds (the games :class:`_Meetings` keeps, restricted to the group)."""
    ct = ctx.ct
    counted = _COUNTED_WITH_FORFEITS if crit.forfeits_as_games or ct.round_robin else GAME_KINDS
    members = set(group)
    all_kinds, all_opps, all_pts = ct.kinds, ct.opps, ct.pts
    within: list[tuple[int, list[list[int]]]] = []
    met_count: dict[int, int] = {}
    mult = 1
    for p in group:
        by_opponent: dict[int, list[int]] = {}
        for kind, o, pt in zip(all_kinds[p], all_opps[p], all_pts[p], strict=True):
            if o in members and o != p and kind in counted:
                games = by_opponent.get(o)
                if games is None:
                    by_opponent[o] = [pt]
                else:
                    games.append(pt)
        scores = list(by_opponent.values())
        within.append((p, scores))
        met_count[p] = len(scores)
        for games in scores:
            if len(games) != 1:
                mult = lcm(mult, len(games))
    out: dict[int, int] = {}
    for p, scores in within:
        total = 0
        for games in scores:
            if len(games) == 1:
                total += games[0] * mult
            else:
                total += sum(games) * (mult // len(games))
        out[p] = total
    return out, ct.unit * mult, met_count


def mutual_scores(ctx: Context, crit: Criterion, group: list[int]) -> dict[int, Fraction]:
    """Each member's points against the other members (6.1), as exact fractions."""
    scaled, den = _mutual_scaled(ctx, crit, group)
    return {p: Fraction(v, den) for p, v in scaled.items()}


def order_group(ctx: Context, crit: Criterion, group: list[int]) -> list[list[int]]:
    """Article 6 on a tied group: its members in order, as subgroups still tied."""
    if len(group) <= 1:
        return [group]
    ct = ctx.ct
    m, den, met_count = _mutual(ctx, crit, group)
    missing = {p: len(group) - 1 - met_count[p] for p in group}
    if ct.round_robin or not any(missing.values()):
        values = sorted({m[p] for p in group}, reverse=True)
        if len(values) == 1:
            return [group]
        out: list[list[int]] = []
        for v in values:
            sub = [p for p in group if m[p] == v]
            out.extend(order_group(ctx, crit, sub) if len(sub) > 1 else [sub])
        return out
    scale = den // ct.unit
    W, L = ct.W * scale, ct.L * scale
    # 6.3: c is first if its worst case beats every other member's best case (the missing games
    # lost by c, won by the others); then the same test for second place among the rest, ...
    ranked: list[list[int]] = []
    rest = list(group)
    while len(rest) > 1:
        best = sorted(((m[q] + W * missing[q], q) for q in rest), reverse=True)
        first = None
        for c in rest:
            rival = best[0] if best[0][1] != c else best[1]
            if m[c] + L * missing[c] > rival[0]:
                first = c
                break
        if first is None:
            break
        ranked.append([first])
        rest = [p for p in rest if p != first]
    if not ranked:
        return [group]
    # when the test fails, Article 6 is applied again to the participants still unranked
    return ranked + (order_group(ctx, crit, rest) if len(rest) > 1 else [rest] if rest else [])


def places(subgroups: list[list[int]]) -> dict[int, int]:
    """The checker's DE value: place inside the group, or 0 if nobody was separated."""
    if len(subgroups) <= 1:
        return {p: 0 for g in subgroups for p in g}
    out: dict[int, int] = {}
    before = 0
    for g in subgroups:
        for p in g:
            out[p] = before + 1
        before += len(g)
    return out


def explain_direct_encounter(
    ctx: Context, crit: Criterion, i: int, group: list[int] | None, value: int | None
) -> Trace:
    ct = ctx.ct
    sn = ct.start_numbers[i]
    if not group or len(group) <= 1:
        return Trace(
            sn,
            crit.code,
            Fraction(value or 0),
            reason=R.DIRECT_ENCOUNTER_NOT_TIED,
            details={"group": [sn]},
        )
    meetings = _meetings(ctx, crit)
    elements = []
    total = Fraction(0)
    for q in group:
        if q == i:
            continue
        games = meetings[i].get(q, [])
        for r, p in games:
            share = Fraction(p, ct.unit * len(games))
            total += share
            elements.append(
                TraceElement(
                    r + 1,
                    ct.start_numbers[q],
                    False,
                    Fraction(p, ct.unit),
                    share,
                    R.DIRECT_ENCOUNTER_MUTUAL_SCORE,
                    "6.1",
                )
            )
    all_met = ct.round_robin or all(q in meetings[p] for p in group for q in group if q != p)
    return Trace(
        sn,
        crit.code,
        Fraction(value or 0),
        tuple(elements),
        total,
        reason=(
            R.DIRECT_ENCOUNTER_SEPARATED_NONE
            if not value
            else None
            if all_met
            else R.DIRECT_ENCOUNTER_NOT_ALL_MET  # ranked by 6.3: no missing game could change it
        ),
        details={
            "all_met": all_met,  # False: 6.3 (ranked only where no missing game could change it)
            "group": sorted(ct.start_numbers[p] for p in group),
            "mutual_score": total,
            "place": value or 0,
        },
    )
