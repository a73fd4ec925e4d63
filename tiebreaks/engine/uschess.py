"""US Chess rule 34 tie-break systems (rule set ``us-chess``, spec §11).

Unplayed games (34, spec §11.1), read from the rule set's data
(``OpponentUnplayed.ALL_AS_DRAWS``, ``OwnUnplayed.ZERO``):

* an opponent counts with their *adjusted* score: every unplayed round of theirs (bye, forfeit
  win or loss, absence, rounds after a withdrawal) counts as a draw (``D``, i.e. ½) whatever it
  was - W, W, L, withdrew before rounds 4-5 gives 1 + 1 + 0 + ½ + ½ = 3;
* the player's own unplayed rounds count as opponents with adjusted score 0;
* cuts are plain numerical: those zeros go only if they are the lowest.

Systems (34E): ``MM`` Modified Median (34E1), ``SOLK`` Solkoff (34E2), ``CUM`` Cumulative
(34E3), ``MED`` Median/Harkness (34E4), ``H2H`` result between tied players (34E5), ``BLK``
most blacks (34E6), ``KASH`` Kashdan (34E7), ``OPPCUM`` cumulative of opposition (34E9).
``SB`` (34E8: adjusted scores of the opponents beaten plus half of those drawn) is the shared
Sonneborn-Berger function on the same data; its trace (:func:`explain_sonneborn_us`) cites rule
34 (34E8, and 34 for own unplayed rounds and the rounds counted as draws), not C.07.

``H2H`` (34E5, Michigan CA formulation, spec §11.2): plus/minus - wins minus losses - in the
games played at the board among the participants on the same score (+2 from 3-1 beats +1 from
1-0; not a percentage). Forfeits are unplayed games and do not count. It is a value per
participant over the whole score group: the ranking re-evaluates only DE inside the subgroups
left by earlier criteria, so after an earlier criterion has split a score group H2H still counts
the games against the players it separated.

"Nine or more rounds" (34E1, 34E4) and the 50 % line of 34E1 use the rounds computed so far
(``k``), as the engine does for 16.4.2 in provisional standings; both equal ``n`` at the end.

Spec T12 (WinTD example, 5 rounds, both on 4): A's opponents 0, 3, 3, 4, 5 give Solkoff 15,
MM 15 (plus score: the lowest, 0, dropped), Harkness 10.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from . import reasons as R
from .context import Computed, Context
from .criteria import Criterion
from .crosstable import GAME_KINDS, Crosstable
from .explain import Adjustment, Trace, TraceElement
from .sonneborn import explain_sonneborn
from .unplayed import cut_elements, cut_sum_sorted

UNPLAYED_ARTICLE = "34"  # the unplayed-games paragraph of rule 34 (spec §11.1)
SB_ARTICLE = "34E8"  # Sonneborn-Berger: the shared function, its US trace cites 34E8


# --- opponents' adjusted scores and the elements of Solkoff / medians ---------------------------
def _values(ctx: Context, i: int) -> list[int]:
    """One element per round: the opponent's adjusted score for a game at the board, 0 for an
    own unplayed round (scaled integers)."""
    ct = ctx.ct
    adj = ctx.a16.adjusted
    return [adj[o] if kind in GAME_KINDS else 0 for kind, o in zip(ct.kinds[i], ct.opps[i], strict=True)]


def _sorted_values(ctx: Context) -> list[tuple[int, list[int]]]:
    def build() -> list[tuple[int, list[int]]]:
        out = []
        for i in range(ctx.ct.n_players):
            values = sorted(_values(ctx, i))
            out.append((sum(values), values))
        return out

    result: list[tuple[int, list[int]]] = ctx.memo("us-sorted-values", build)
    return result


def _drops(ct: Crosstable) -> int:
    """34E1 / 34E4: one value on each applicable side, two from nine rounds on."""
    return 2 if ct.k >= 9 else 1


def score_class(ct: Crosstable, i: int) -> str:
    """34E1: ``plus`` (more than 50 % of the maximum), ``even`` (exactly 50 %) or ``minus``."""
    twice, maximum = 2 * ct.score[i], ct.W * ct.k
    return "plus" if twice > maximum else ("even" if twice == maximum else "minus")


_CLASS_REASON = {"plus": R.US_PLUS_SCORE, "even": R.US_EVEN_SCORE, "minus": R.US_MINUS_SCORE}


def _lows_highs(ctx: Context, crit: Criterion, i: int) -> tuple[int, int]:
    """How many lowest and highest values the criterion drops for participant ``i``."""
    ct = ctx.ct
    d = _drops(ct)
    if crit.name == "MED":
        return d, d
    if crit.name == "MM":
        cls = score_class(ct, i)
        return (d, 0) if cls == "plus" else ((0, d) if cls == "minus" else (d, d))
    return 0, 0  # SOLK


def compute_opponent_sum(ctx: Context, crit: Criterion) -> Computed:
    """SOLK (34E2), MM (34E1), MED (34E4): opponents' adjusted scores (0 for an own unplayed
    round), then plain numerical drops: MM by the player's plus / even / minus score, MED the
    highest and the lowest; two on each side from nine rounds on."""
    nums: list[int | None] = []
    for i, (total, values) in enumerate(_sorted_values(ctx)):
        low, high = _lows_highs(ctx, crit, i)
        nums.append(cut_sum_sorted(total, [], values, low, high, False))
    return Computed(nums, ctx.ct.unit)


def adjustments(ctx: Context, q: int) -> tuple[Adjustment, ...]:
    """The rounds of participant ``q`` that their US adjusted score counts as a draw (34)."""
    ct = ctx.ct
    return tuple(
        Adjustment(r + 1, R.UNPLAYED_COUNTS_AS_DRAW, UNPLAYED_ARTICLE, ct.frac(ct.pts[q][r]), ct.frac(ct.D))
        for r in ctx.a16.adjusted_rounds[q]
    )


_DROP_REASONS = {
    ("MM", "plus", R.CUT_LOWEST): R.MM_PLUS_LOWEST_DROPPED,
    ("MM", "minus", R.MEDIAN_HIGHEST): R.MM_MINUS_HIGHEST_DROPPED,
    ("MM", "even", R.CUT_LOWEST): R.MM_EVEN_LOWEST_DROPPED,
    ("MM", "even", R.MEDIAN_HIGHEST): R.MM_EVEN_HIGHEST_DROPPED,
}


def explain_opponent_sum(ctx: Context, crit: Criterion, i: int) -> Trace:
    """Every round's element (opponent's adjusted score with the rounds counted as draws, or 0
    for an own unplayed round) and what MM / MED dropped, with the rule that dropped it."""
    ct = ctx.ct
    a16 = ctx.a16
    article = crit.article
    values = _values(ctx, i)
    low, high = _lows_highs(ctx, crit, i)
    removals = cut_elements(
        [(v, 0) for v in values], values, [False] * len(values), low=low, high=high, vur_first=False
    )
    cls = score_class(ct, i)
    removed: dict[int, str] = {}
    for removal in removals:
        if crit.name == "MED":
            reason = R.MEDIAN_LOWEST_DROPPED if removal.reason == R.CUT_LOWEST else R.MEDIAN_HIGHEST_DROPPED
        else:
            reason = _DROP_REASONS[(crit.name, cls, removal.reason)]
        removed[removal.position] = reason
    elements = []
    for r, (kind, o, v) in enumerate(zip(ct.kinds[i], ct.opps[i], values, strict=True)):
        played = kind in GAME_KINDS
        if played:
            reason = R.US_ADJUSTED_SCORE if a16.adjusted[o] != ct.score[o] else R.ACTUAL_SCORE
        else:
            reason = R.DUMMY_ZERO
        elements.append(
            TraceElement(
                round=r + 1,
                opponent=ct.start_numbers[o] if o >= 0 else None,
                dummy=not played,
                value=ct.frac(v),
                contribution=ct.frac(v),
                reason=reason,
                article=article if played else UNPLAYED_ARTICLE,
                points=ct.frac(ct.pts[i][r]),
                removed=removed.get(r),
                adjustments=adjustments(ctx, o) if played else (),
            )
        )
    total = sum((e.contribution for e in elements if e.removed is None), Fraction(0))
    details: dict[str, object] = {
        "own_score": ct.frac(ct.score[i]),
        "adjusted_score": ct.frac(a16.adjusted[i]),  # what this participant is worth to others (34)
        "adjusted_rounds": [a.to_dict() for a in adjustments(ctx, i)],
    }
    if crit.name == "MM":
        details["score_class"] = _CLASS_REASON[cls]  # plus / even / minus decides the drops
        details["maximum"] = ct.frac(ct.W * ct.k)
    if crit.name in ("MM", "MED"):
        details["drops_per_side"] = _drops(ct)
    return Trace(ct.start_numbers[i], crit.code, total, tuple(elements), total, details=details)


# --- Sonneborn-Berger (34E8) -------------------------------------------------------------------
def explain_sonneborn_us(ctx: Context, crit: Criterion, i: int) -> Trace:
    """SB (34E8): the shared Sonneborn-Berger trace (same elements and values) citing rule 34:
    a game gives the opponent's US adjusted score (``us_adjusted_score``, 34E8, with the rounds
    counted as draws under 34), an own unplayed round an opponent with 0 (``dummy_zero``, 34)."""
    ct = ctx.ct
    adjusted = ctx.a16.adjusted
    trace = explain_sonneborn(ctx, crit, i)
    elements = []
    for e in trace.elements:
        if e.dummy:  # worth 0 whatever the scheduled opponent scored: no adjustments to show
            e = replace(e, article=UNPLAYED_ARTICLE, adjustments=())
        elif e.reason in (R.ADJUSTED_SCORE, R.ACTUAL_SCORE) and e.opponent is not None:
            o = ct.index[e.opponent]
            reason = R.US_ADJUSTED_SCORE if adjusted[o] != ct.score[o] else R.ACTUAL_SCORE
            e = replace(e, reason=reason, article=SB_ARTICLE, adjustments=adjustments(ctx, o))
        elements.append(e)
    details = {
        **trace.details,
        "adjusted_score": ct.frac(adjusted[i]),  # what this participant is worth to others (34)
        "adjusted_rounds": [a.to_dict() for a in adjustments(ctx, i)],
    }
    return replace(trace, elements=tuple(elements), details=details)


# --- Cumulative (34E3) and cumulative of opposition (34E9) -----------------------------------
def _reduction(ctx: Context, kind: int, points: int) -> tuple[int, str | None]:
    """34E3: what an unplayed round takes off the cumulative score, and why."""
    ct = ctx.ct
    if kind in GAME_KINDS or not points:
        return 0, None
    if points == ct.W:
        return points, R.CUM_UNPLAYED_WIN_SUBTRACTED
    if points == ct.D and ctx.rules.cumulative_half_point_reduction:
        return points, R.CUM_HALF_POINT_BYE_SUBTRACTED
    return 0, None


def _cumulative(ctx: Context) -> list[int]:
    def build() -> list[int]:
        ct = ctx.ct
        out = []
        for kinds, pts in zip(ct.kinds, ct.pts, strict=True):
            running = total = 0
            for kind, p in zip(kinds, pts, strict=True):
                running += p
                total += running - _reduction(ctx, kind, p)[0]
            out.append(total)
        return out

    result: list[int] = ctx.memo("us-cumulative", build)
    return result


def compute_cumulative(ctx: Context, crit: Criterion) -> Computed:
    """CUM (34E3): the sum of the running scores, minus 1 for each unplayed win or one-point
    bye (and, unless the rule set says otherwise, ½ for each half-point bye)."""
    return Computed(list[int | None](_cumulative(ctx)), ctx.ct.unit)


def explain_cumulative(ctx: Context, crit: Criterion, i: int) -> Trace:
    ct = ctx.ct
    running = 0
    elements = []
    for r, (kind, o, p) in enumerate(zip(ct.kinds[i], ct.opps[i], ct.pts[i], strict=True)):
        running += p
        opponent = ct.start_numbers[o] if o >= 0 else None
        elements.append(
            TraceElement(
                r + 1, opponent, False, ct.frac(running), ct.frac(running), R.RUNNING_SCORE, "34E3", ct.frac(p)
            )
        )
        cut, reason = _reduction(ctx, kind, p)
        if reason is not None:
            elements.append(TraceElement(r + 1, opponent, False, ct.frac(p), -ct.frac(cut), reason, "34E3", ct.frac(p)))
    total = sum((e.contribution for e in elements), Fraction(0))
    details = {"half_point_bye_reduction": ctx.rules.cumulative_half_point_reduction}
    return Trace(ct.start_numbers[i], crit.code, total, tuple(elements), total, details=details)


def compute_opposition_cumulative(ctx: Context, crit: Criterion) -> Computed:
    """OPPCUM (34E9): the sum of the Cumulative values (34E3) of the opponents met at the board;
    an own unplayed round (bye, forfeit) is an opponent with 0."""
    ct = ctx.ct
    cum = _cumulative(ctx)
    nums: list[int | None] = []
    for kinds, opps in zip(ct.kinds, ct.opps, strict=True):
        nums.append(sum(cum[o] for kind, o in zip(kinds, opps, strict=True) if kind in GAME_KINDS))
    return Computed(nums, ct.unit)


def explain_opposition_cumulative(ctx: Context, crit: Criterion, i: int) -> Trace:
    ct = ctx.ct
    cum = _cumulative(ctx)
    elements = []
    for r, (kind, o) in enumerate(zip(ct.kinds[i], ct.opps[i], strict=True)):
        played = kind in GAME_KINDS
        value = ct.frac(cum[o]) if played else Fraction(0)
        elements.append(
            TraceElement(
                r + 1,
                ct.start_numbers[o] if o >= 0 else None,
                not played,
                value,
                value,
                R.OPPONENT_CUMULATIVE if played else R.DUMMY_ZERO,
                "34E9" if played else UNPLAYED_ARTICLE,
                ct.frac(ct.pts[i][r]),
            )
        )
    total = sum((e.contribution for e in elements), Fraction(0))
    return Trace(ct.start_numbers[i], crit.code, total, tuple(elements), total)


# --- counts: Kashdan (34E7), most blacks (34E6), result between tied players (34E5) -----------
_KASHDAN = {2: (4, R.KASHDAN_WIN), 1: (2, R.KASHDAN_DRAW), 0: (1, R.KASHDAN_LOSS)}


def _kashdan_rounds(ct: Crosstable, i: int) -> list[tuple[int, str] | None]:
    return [
        _KASHDAN[h] if kind in GAME_KINDS else (0, R.UNPLAYED_EXCLUDED)
        for kind, h in zip(ct.kinds[i], ct.halves[i], strict=True)
    ]


def _black_rounds(ct: Crosstable, i: int) -> list[tuple[int, str] | None]:
    """34E6: games at the board with Black (unplayed games never count)."""
    return [
        (1, R.PLAYED_WITH_BLACK) if kind in GAME_KINDS and b else None
        for kind, b in zip(ct.kinds[i], ct.black[i], strict=True)
    ]


def _head_to_head_rounds(ct: Crosstable, i: int) -> list[tuple[int, str] | None]:
    """34E5: +1 / 0 / -1 per game at the board against a participant on the same score."""
    out: list[tuple[int, str] | None] = []
    own = ct.score[i]
    for kind, o, h in zip(ct.kinds[i], ct.opps[i], ct.halves[i], strict=True):
        if kind in GAME_KINDS and o != i and ct.score[o] == own:
            out.append((h - 1, R.HEAD_TO_HEAD_RESULT))
        else:
            out.append(None)
    return out


def _count_rounds(ct: Crosstable, name: str, i: int) -> list[tuple[int, str] | None]:
    if name == "KASH":
        return _kashdan_rounds(ct, i)
    if name == "BLK":
        return _black_rounds(ct, i)
    return _head_to_head_rounds(ct, i)


def compute_count(ctx: Context, crit: Criterion) -> Computed:
    """KASH (34E7): 4 per win, 2 per draw, 1 per loss at the board, 0 per unplayed game.
    BLK (34E6): games played with Black. H2H (34E5): plus/minus (wins minus losses) in the games
    at the board among the participants on the same score."""
    ct = ctx.ct
    nums: list[int | None] = []
    for i in range(ct.n_players):
        nums.append(sum(x[0] for x in _count_rounds(ct, crit.name, i) if x is not None))
    return Computed(nums, 1)


def explain_count(ctx: Context, crit: Criterion, i: int) -> Trace:
    ct = ctx.ct
    article = crit.article
    elements = []
    for r, item in enumerate(_count_rounds(ct, crit.name, i)):
        if item is None:
            continue
        value, reason = item
        o = ct.opps[i][r]
        elements.append(
            TraceElement(
                r + 1,
                ct.start_numbers[o] if o >= 0 else None,
                False,
                Fraction(value),
                Fraction(value),
                reason,
                article,
                ct.frac(ct.pts[i][r]),
            )
        )
    total = sum((e.contribution for e in elements), Fraction(0))
    details: dict[str, object] = {}
    if crit.name == "H2H":
        details["tied_with"] = [
            ct.start_numbers[j] for j in range(ct.n_players) if j != i and ct.score[j] == ct.score[i]
        ]
    return Trace(ct.start_numbers[i], crit.code, total, tuple(elements), total, details=details)


__all__ = ["adjustments", "explain_sonneborn_us", "score_class"]
