"""Koya system (9.2): points scored against opponents whose final score is at least the limit.

``limit = 50 % x W x maxgames`` (+ ``/L`` offset in half points). ``maxgames`` = games a
participant can be scheduled for: the rounds in a Swiss; ``N - 1`` per cycle in a round robin
(the free round of an odd round robin does not count), minus one for each participant who was never
paired (withdrew before the first round; a forfeit, won or lost, or the pairing-allocated bye was a
pairing, as in FIDE's checker). Forfeits against a scheduled opponent count, as in the
FIDE checker (the points were achieved against that opponent). Opponents qualify on their raw
final score.
"""

from __future__ import annotations

from fractions import Fraction

from . import reasons as R
from .context import Computed, Context
from .criteria import Criterion
from .crosstable import FORFEIT_KINDS, GAME_KINDS, PAB, Crosstable
from .explain import Trace, TraceElement

_PAIRED = GAME_KINDS | FORFEIT_KINDS | {PAB}


def max_games(ct: Crosstable) -> int:
    if not ct.round_robin:
        return ct.k
    n = ct.n_players
    if n < 2:
        return 0
    per_cycle_rounds = n if n % 2 else n - 1
    games = (ct.k // per_cycle_rounds) * (n - 1) + min(ct.k % per_cycle_rounds, n - 1)
    # never paired (FIDE's checker's reading): a forfeit, won or lost, or the pairing-allocated bye was a pairing
    never_played = sum(1 for kinds in ct.kinds if not any(k in _PAIRED for k in kinds))
    return max(games - never_played, 0)


def _threshold(ct: Crosstable, crit: Criterion) -> int:
    """Twice the limit, in scaled units: an opponent qualifies when 2 x score >= this."""
    return ct.W * max_games(ct) + crit.limit_half_points * ct.unit


def compute_koya(ctx: Context, crit: Criterion) -> Computed:
    """KS (9.2): points scored against opponents on at least the limit, forfeits included."""
    ct = ctx.ct
    threshold = _threshold(ct, crit)
    qualifies = [2 * s >= threshold for s in ct.score]
    nums: list[int | None] = []
    for opps, pts in zip(ct.opps, ct.pts, strict=True):
        total = 0
        for o, p in zip(opps, pts, strict=True):
            if o >= 0 and qualifies[o]:
                total += p
        nums.append(total)
    return Computed(nums, ct.unit)


def explain_koya(ctx: Context, crit: Criterion, i: int) -> Trace:
    ct = ctx.ct
    threshold = _threshold(ct, crit)
    elements = []
    for r, (o, p) in enumerate(zip(ct.opps[i], ct.pts[i], strict=True)):
        if o < 0:
            continue
        ok = 2 * ct.score[o] >= threshold
        elements.append(
            TraceElement(
                r + 1,
                ct.start_numbers[o],
                False,
                ct.frac(ct.score[o]),
                ct.frac(p) if ok else Fraction(0),
                R.OPPONENT_QUALIFIES if ok else R.OPPONENT_BELOW_LIMIT,
                "9.2",
                points=ct.frac(p),
            )
        )
    total = sum((e.contribution for e in elements), Fraction(0))
    return Trace(
        ct.start_numbers[i],
        crit.code,
        total,
        tuple(elements),
        total,
        details={"limit": Fraction(threshold, 2 * ct.unit), "max_games": max_games(ct)},
    )
