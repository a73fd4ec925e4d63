"""Drawing of lots (C.07 Article 4.2: when the list is exhausted), seeded and repeatable: ``LOT/S<seed>``.

Every participant's lot is their place when all participants are ordered by the SHA-256 hash of the text
``"<seed>-<pairing number>"`` (hexadecimal, lowest first): lot 1 ranks first among players still tied. The seed is
published with the tie-break list, drawn before the first result, so anyone can repeat the drawing with any
SHA-256 tool and nobody could choose it knowing the standings. Without a seed (``LOT``) the lots are not drawn
yet: the value is undefined for everybody.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

from . import reasons as R
from .context import Computed, Context
from .criteria import Criterion
from .explain import Trace, TraceElement


def lot_hash(seed: int, start_number: int) -> str:
    return hashlib.sha256(f"{seed}-{start_number}".encode()).hexdigest()


def lots(seed: int, start_numbers: list[int]) -> list[int]:
    """The lot of each participant (in the order given), 1 = first."""
    order = sorted(range(len(start_numbers)), key=lambda i: lot_hash(seed, start_numbers[i]))
    lot = [0] * len(start_numbers)
    for place, i in enumerate(order, start=1):
        lot[i] = place
    return lot


def compute_lots(ctx: Context, crit: Criterion) -> Computed:
    ct = ctx.ct
    if crit.seed is None:
        return Computed([None] * ct.n_players, 1, reason=R.LOTS_NOT_DRAWN)
    return Computed(list(lots(crit.seed, list(ct.start_numbers))), 1)


def explain_lots(ctx: Context, crit: Criterion, i: int) -> Trace:
    ct = ctx.ct
    sn = ct.start_numbers[i]
    if crit.seed is None:
        return Trace(sn, crit.code, None, reason=R.LOTS_NOT_DRAWN)
    value = Fraction(lots(crit.seed, list(ct.start_numbers))[i])
    element = TraceElement(None, None, False, value, value, R.LOT_DRAWN, "4.2")
    details = {"seed": crit.seed, "hash": lot_hash(crit.seed, sn)}
    return Trace(sn, crit.code, value, (element,), value, details=details)
