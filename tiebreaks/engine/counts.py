"""Counting criteria of Article 7 (type B) and the pairing number:

* WIN (7.1) rounds with the win points, played or not (forfeit wins, FPB, PAB when P = W);
* WON (7.2) games won over the board; BPG (7.3) games played with Black; BWG (7.4) games won
  with Black - forfeits and byes never count;
* REP (7.6) rounds minus requested byes, absences and forfeit losses;
* STD (7.7) standard points: 1 / ½ / 0 against the scheduled opponent's points in that round,
  or against the draw value without an opponent (text reading; the FIDE checker always compares
  with the draw value, which differs only for double forfeits and abnormal results - spec §4.9);
* TPN (7.8) the pairing number, lower first (``/R``: higher first).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from . import reasons as R
from .context import Computed, Context
from .criteria import Criterion
from .crosstable import ABSENT, FORFEIT_LOSS, GAME_KINDS, HPB, PLAYED, ZPB, Crosstable
from .explain import Trace, TraceElement

_NOT_ELECTED = frozenset({HPB, ZPB, ABSENT, FORFEIT_LOSS})


def _std_halves(ct: Crosstable, i: int, r: int) -> int:
    p = ct.pts[i][r]
    o = ct.opps[i][r]
    other = ct.pts[o][r] if o >= 0 else ct.D
    return 2 if p > other else (1 if p == other else 0)


# per-round indicator (0/1, or halves for STD) for each counting criterion
def _round_flags(ct: Crosstable, name: str, i: int) -> list[int]:
    kinds, pts, black, halves = ct.kinds[i], ct.pts[i], ct.black[i], ct.halves[i]
    if name == "WIN":
        return [1 if p == ct.W else 0 for p in pts]
    if name == "WON":
        return [1 if k == PLAYED and h == 2 else 0 for k, h in zip(kinds, halves, strict=True)]
    if name == "BPG":
        return [1 if k in GAME_KINDS and b else 0 for k, b in zip(kinds, black, strict=True)]
    if name == "BWG":
        return [1 if k == PLAYED and b and h == 2 else 0 for k, b, h in zip(kinds, black, halves, strict=True)]
    if name == "REP":
        return [0 if k in _NOT_ELECTED else 1 for k in kinds]
    if name == "STD":
        return [_std_halves(ct, i, r) for r in range(ct.k)]
    raise KeyError(name)


_REASONS = {
    "WIN": (R.WIN_ROUND, "7.1"),
    "WON": (R.WON_OVER_THE_BOARD, "7.2"),
    "BPG": (R.PLAYED_WITH_BLACK, "7.3"),
    "BWG": (R.WON_WITH_BLACK, "7.4"),
    "REP": (R.ELECTED_TO_PLAY, "7.6"),
    "STD": (R.STANDARD_POINTS, "7.7"),
}


def compute_count(ctx: Context, crit: Criterion) -> Computed:
    """WIN WON BPG BWG REP STD TPN (Art. 7) for everybody (see the module docstring)."""
    ct = ctx.ct
    name = crit.name
    if name == "TPN":
        return Computed(list(ct.start_numbers), 1)
    if name == "WIN":
        W = ct.W
        return Computed([sum(1 for p in pts if p == W) for pts in ct.pts], 1)
    if name == "REP":
        return Computed([sum(1 for k in kinds if k not in _NOT_ELECTED) for kinds in ct.kinds], 1)
    # the same sums as _round_flags (which explain() shows), one pass per participant
    if name == "WON":
        return Computed(
            [
                sum([k == PLAYED and h == 2 for k, h in zip(kinds, halves, strict=True)])
                for kinds, halves in zip(ct.kinds, ct.halves, strict=True)
            ],
            1,
        )
    if name == "BPG":
        return Computed(
            [
                sum([b and k in GAME_KINDS for k, b in zip(kinds, black, strict=True)])
                for kinds, black in zip(ct.kinds, ct.black, strict=True)
            ],
            1,
        )
    if name == "BWG":
        return Computed(
            [
                sum([b and k == PLAYED and h == 2 for k, b, h in zip(kinds, black, halves, strict=True)])
                for kinds, black, halves in zip(ct.kinds, ct.black, ct.halves, strict=True)
            ],
            1,
        )
    if name == "STD":
        all_pts, D = ct.pts, ct.D
        nums: list[int | None] = []
        for pts, opps in zip(ct.pts, ct.opps, strict=True):
            total = 0
            r = 0
            for p, o in zip(pts, opps, strict=True):
                other = all_pts[o][r] if o >= 0 else D
                total += 2 if p > other else (1 if p == other else 0)
                r += 1
            nums.append(total)
        return Computed(nums, 2)
    flags: Callable[[Crosstable, str, int], list[int]] = _round_flags
    return Computed([sum(flags(ct, name, i)) for i in range(ct.n_players)], 1)


def explain_count(ctx: Context, crit: Criterion, i: int) -> Trace:
    ct = ctx.ct
    sn = ct.start_numbers[i]
    if crit.name == "TPN":
        v = Fraction(sn)
        el = TraceElement(None, None, False, v, v, R.PAIRING_NUMBER, "7.8")
        return Trace(sn, crit.code, v, (el,), v)
    reason, article = _REASONS[crit.name]
    den = 2 if crit.name == "STD" else 1
    elements = []
    for r, f in enumerate(_round_flags(ct, crit.name, i)):
        o = ct.opps[i][r]
        this_reason = reason
        if crit.name == "REP" and not f:
            this_reason = R.NOT_ELECTED
        elements.append(
            TraceElement(
                r + 1,
                ct.start_numbers[o] if o >= 0 else None,
                False,
                None,
                Fraction(f, den),
                this_reason,
                article,
                points=ct.frac(ct.pts[i][r]),
            )
        )
    total = sum((e.contribution for e in elements), Fraction(0))
    return Trace(sn, crit.code, total, tuple(elements), total)
