"""Buchholz family: BH (8.1), FB Fore Buchholz (8.3), AOB average of opponents' Buchholz (8.2).

BH(p) = sum of one element per round: the opponent's adjusted score (16.3) for a game, a dummy
opponent (16.4) for an own unplayed round; ``/Cn`` ``/Mn`` remove elements (14.1, 16.5); ``/P``
counts forfeits as games. FB is BH with every final-round paired game set to a draw for
everybody (scores, adjusted scores and dummies recomputed). AOB is the mean BH (or FB with
``/F``) of the opponents met over the board, rounded half up to 0.01 as FIDE's checker does.
In round robins this family is refused unless explicitly overridden (note to Art. 8).
"""

from __future__ import annotations

from fractions import Fraction

from . import reasons as R
from .context import Computed, Context
from .criteria import Criterion
from .crosstable import GAME_KINDS
from .explain import Trace, TraceElement
from .unplayed import adjustments_of, cut_elements, cut_sum_sorted


def _base(ctx: Context, crit: Criterion) -> Context:
    return ctx.fore if crit.name == "FB" else ctx


def _sorted_elements(ctx: Context, forfeits_as_games: bool) -> list[tuple[int, list[int], list[int]]]:
    def build() -> list[tuple[int, list[int], list[int]]]:
        out: list[tuple[int, list[int], list[int]]] = []
        a16 = ctx.a16
        all_games = a16.all_games
        elements = None
        for i in range(ctx.ct.n_players):
            if all_games[i]:  # fast path: no unplayed round, no VUR
                other = a16.game_values(i)
                other.sort()
                out.append((sum(other), [], other))
                continue
            if elements is None:
                elements = a16.elements(forfeits_as_games)
            els = elements[i]
            vur = sorted([e.value for e in els if e.vur])
            other = sorted([e.value for e in els if not e.vur])
            out.append((sum(vur) + sum(other), vur, other))
        return out

    result: list[tuple[int, list[int], list[int]]] = ctx.memo(("bh-sorted", forfeits_as_games), build)
    return result


def compute_buchholz(ctx: Context, crit: Criterion) -> Computed:
    """BH / FB (8.1, 8.3) for everybody; cuts per 14.1 with the 16.5 VUR-first rule.

    Elements: opponent's adjusted score (16.3) per game; dummy (16.4) per own unplayed round
    (capped by 16.4.1/16.4.2); forfeits as games with ``/P``; round robins: forfeits are games,
    free rounds nothing (15.2). Too many removals leave 0.
    """
    base = _base(ctx, crit)
    low, high = crit.cut + crit.median, crit.median
    vur_first = base.rules.cut_vur_first
    nums: list[int | None] = [
        cut_sum_sorted(total, vur, other, low, high, vur_first)
        for total, vur, other in _sorted_elements(base, crit.forfeits_as_games)
    ]
    return Computed(nums, base.ct.unit)


def explain_buchholz(ctx: Context, crit: Criterion, i: int) -> Trace:
    """Every element of participant ``i``'s BH/FB with its reason, Article and any cut."""
    base = _base(ctx, crit)
    ct = base.ct
    a16 = base.a16
    els = a16.elements(crit.forfeits_as_games)[i]
    values = [e.value for e in els]
    removals = cut_elements(
        [(v, 0) for v in values],
        values,
        [e.vur for e in els],
        low=crit.cut + crit.median,
        high=crit.median,
        vur_first=base.rules.cut_vur_first,
    )
    removed = {r.position: r.reason for r in removals}
    frac = ct.frac
    fore_round = ct.k - 1 if crit.name == "FB" else None
    elements = []
    for j, e in enumerate(els):
        reason = e.reason
        if e.round == fore_round and e.opponent >= 0 and not e.dummy:
            reason = R.FORE_LAST_ROUND_DRAW  # 8.3: the final-round game counts as a draw
        elements.append(
            TraceElement(
                round=e.round + 1,
                opponent=ct.start_numbers[e.opponent] if e.opponent >= 0 else None,
                dummy=e.dummy,
                value=frac(e.value),
                contribution=frac(e.value),
                reason=reason,
                article=e.article,
                points=frac(e.points),
                vur=e.vur,
                removed=removed.get(j),
                adjustments=adjustments_of(a16, e.opponent) if e.opponent >= 0 else (),
            )
        )
    total = sum((frac(e.value) for j, e in enumerate(els) if j not in removed), Fraction(0))
    details: dict[str, object] = {
        "own_score": frac(ct.score[i]),
        "adjusted_score": frac(a16.adjusted[i]),  # what this participant is worth to others (16.3)
        "adjusted_rounds": [a.to_dict() for a in adjustments_of(a16, i)],
        "dummy_bye_cap": frac(a16.cap_bye),
    }
    if crit.name == "FB":  # every score above is the Fore Buchholz one: final round as draws (8.3)
        details["fore_final_round"] = ct.k if base is not ctx else None
    return Trace(ct.start_numbers[i], crit.code, total, tuple(elements), total, details=details)


def _aob_parts(ctx: Context, crit: Criterion) -> tuple[list[int | None], int, list[list[int]]]:
    """(opponents' BH or FB numerators, their denominator, OTB opponents per participant)."""
    source = Criterion("FB") if crit.fore else Criterion("BH")
    bh = ctx.memo(("bh-values", source), lambda: compute_buchholz(ctx, source))
    ct = ctx.ct

    def otb_opponents() -> list[list[int]]:
        return [
            [o for kind, o in zip(kinds, opps, strict=True) if kind in GAME_KINDS]
            for kinds, opps in zip(ct.kinds, ct.opps, strict=True)
        ]

    opponents: list[list[int]] = ctx.memo("otb-opponents", otb_opponents)
    return bh.nums, bh.den, opponents


def compute_aob(ctx: Context, crit: Criterion) -> Computed:
    """AOB (8.2): mean BH (``/F``: FB) of the opponents met over the board, one term per game,
    rounded half up to 0.01 (FIDE checker); undefined without a game over the board."""
    bh_nums, den, opponents = _aob_parts(ctx, crit)
    nums: list[int | None] = []
    for opps in opponents:
        if not opps:
            nums.append(None)
            continue
        total = 0
        for o in opps:
            total += bh_nums[o]  # type: ignore[operator]
        q = len(opps) * den
        nums.append((200 * total + q) // (2 * q))  # hundredths, rounded half up
    return Computed(nums, 100)


def explain_aob(ctx: Context, crit: Criterion, i: int) -> Trace:
    bh_nums, den, opponents = _aob_parts(ctx, crit)
    ct = ctx.ct
    value = ctx.memo(("computed", crit.code), lambda: compute_aob(ctx, crit)).nums[i]
    elements = []
    r_of = [r for r, kind in enumerate(ct.kinds[i]) if kind in GAME_KINDS]
    for r, o in zip(r_of, opponents[i], strict=True):
        v = Fraction(bh_nums[o], den)  # type: ignore[arg-type]
        elements.append(TraceElement(r + 1, ct.start_numbers[o], False, v, v, R.OPPONENT_VALUE, "8.2"))
    if not elements:
        return Trace(ct.start_numbers[i], crit.code, None, reason=R.UNDEFINED_NO_GAMES)
    total = sum((e.contribution for e in elements), Fraction(0))
    return Trace(
        ct.start_numbers[i],
        crit.code,
        Fraction(value, 100) if value is not None else None,
        tuple(elements),
        total,
        divisor=len(elements),
        rounding="half_up_0.01",
        details={"exact": total / len(elements)},
    )
