"""PS - sum of progressive (running) scores (7.5), with ``/Cj`` dropping the first ``j``.

Unplayed rounds add their awarded points, so the running score carries through absences.
Spec T3: W W W L W gives 1 + 2 + 3 + 3 + 4 = 13.
"""

from __future__ import annotations

from fractions import Fraction

from . import reasons as R
from .context import Computed, Context
from .criteria import Criterion
from .explain import Trace, TraceElement


def compute_progressive(ctx: Context, crit: Criterion) -> Computed:
    """PS (7.5): sum of the running scores; ``/Cj`` drops the first ``j`` of them."""
    ct = ctx.ct
    drop = crit.cut
    nums: list[int | None] = []
    for pts in ct.pts:
        running = total = 0
        for r, p in enumerate(pts):
            running += p
            if r >= drop:
                total += running
        nums.append(total)
    return Computed(nums, ct.unit)


def explain_progressive(ctx: Context, crit: Criterion, i: int) -> Trace:
    ct = ctx.ct
    running = 0
    elements = []
    for r, p in enumerate(ct.pts[i]):
        running += p
        opp = ct.opps[i][r]
        elements.append(
            TraceElement(
                round=r + 1,
                opponent=ct.start_numbers[opp] if opp >= 0 else None,
                dummy=False,
                value=ct.frac(running),
                contribution=ct.frac(running),
                reason=R.RUNNING_SCORE,
                article="7.5",
                points=ct.frac(p),
                removed=R.CUT_FIRST_ROUNDS if r < crit.cut else None,
            )
        )
    total = sum((e.contribution for e in elements if e.removed is None), Fraction(0))
    return Trace(ct.start_numbers[i], crit.code, total, tuple(elements), total)
