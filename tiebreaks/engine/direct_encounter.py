"""Direct encounter (Article 6, type A): ranks a tied group by the games among its members.

1. Mutual score m(p): p's points against the other members; a repeated meeting counts as the
   *average* of those games (6.1.2). Games over the board count; forfeits only with ``/P`` or
   with pre-determined pairings (15.2).
2. All members met (always assumed in a round robin): order by m; members still equal get
   Article 6 again on their own subgroup (6.2).
3. Not all met (Swiss, 6.3): a member is ranked first only if nobody could catch them whatever
   the missing games' results: ``m(c) + L x missing(c) > m(q) + W x missing(q)`` for every
   other q; then the same for the rest (Article 6 re-applied to the remaining members).

The value reported per participant follows FIDE's checker: the place inside the tied group
(1, 2, ...; equal = still tied; lower is better), or 0 when DE separated nobody in the group.
"""

from __future__ import annotations

from fractions import Fraction

from . import reasons as R
from .context import Context
from .criteria import Criterion
from .crosstable import FORFEIT_KINDS, GAME_KINDS
from .explain import Trace, TraceElement


def _meetings(ctx: Context, crit: Criterion) -> list[dict[int, list[tuple[int, int]]]]:
    """Per participant: opponent -> [(round, points scored)] of the games that count."""

    def build() -> list[dict[int, list[tuple[int, int]]]]:
        ct = ctx.ct
        with_forfeits = crit.forfeits_as_games or ct.round_robin
        out: list[dict[int, list[tuple[int, int]]]] = []
        for kinds, opps, pts in zip(ct.kinds, ct.opps, ct.pts, strict=True):
            met: dict[int, list[tuple[int, int]]] = {}
            for r, (kind, o, p) in enumerate(zip(kinds, opps, pts, strict=True)):
                if o >= 0 and (kind in GAME_KINDS or (with_forfeits and kind in FORFEIT_KINDS)):
                    met.setdefault(o, []).append((r, p))
            out.append(met)
        return out

    result: list[dict[int, list[tuple[int, int]]]] = ctx.memo(("de-meetings", crit.forfeits_as_games), build)
    return result


def mutual_scores(ctx: Context, crit: Criterion, group: list[int]) -> dict[int, Fraction]:
    meetings = _meetings(ctx, crit)
    members = set(group)
    out: dict[int, Fraction] = {}
    for p in group:
        total = Fraction(0)
        for q, games in meetings[p].items():
            if q in members and q != p:
                total += Fraction(sum(pt for _, pt in games), len(games))  # 6.1.2: average
        out[p] = total / ctx.ct.unit
    return out


def order_group(ctx: Context, crit: Criterion, group: list[int]) -> list[list[int]]:
    """Article 6 on a tied group: its members in order, as subgroups still tied."""
    if len(group) <= 1:
        return [group]
    ct = ctx.ct
    meetings = _meetings(ctx, crit)
    m = mutual_scores(ctx, crit, group)
    members = set(group)
    missing = {p: sum(1 for q in group if q != p and q not in meetings[p]) for p in group}
    if ct.round_robin or not any(missing.values()):
        values = sorted({m[p] for p in group}, reverse=True)
        if len(values) == 1:
            return [group]
        out: list[list[int]] = []
        for v in values:
            sub = [p for p in group if m[p] == v]
            out.extend(order_group(ctx, crit, sub) if len(sub) > 1 else [sub])
        return out
    W, L = Fraction(ct.W, ct.unit), Fraction(ct.L, ct.unit)
    for c in group:
        low_c = m[c] + L * missing[c]
        if all(low_c > m[q] + W * missing[q] for q in group if q != c):
            rest = [p for p in group if p != c and p in members]
            return [[c], *order_group(ctx, crit, rest)]
    return [group]


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


def explain_direct_encounter(ctx: Context, crit: Criterion, i: int, group: list[int] | None,
                             value: int | None) -> Trace:
    ct = ctx.ct
    sn = ct.start_numbers[i]
    if not group or len(group) <= 1:
        return Trace(sn, crit.code, Fraction(value or 0), reason=R.DIRECT_ENCOUNTER_SEPARATED_NONE,
                     details={"group": [sn]})
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
            elements.append(TraceElement(r + 1, ct.start_numbers[q], False, Fraction(p, ct.unit), share,
                                         R.DIRECT_ENCOUNTER_MUTUAL_SCORE, "6.1"))
    all_met = ct.round_robin or all(q in meetings[p] for p in group for q in group if q != p)
    return Trace(sn, crit.code, Fraction(value or 0), tuple(elements), total,
                 reason=None if all_met else R.DIRECT_ENCOUNTER_NOT_ALL_MET,
                 details={"group": sorted(ct.start_numbers[p] for p in group), "mutual_score": total,
                          "place": value or 0})
