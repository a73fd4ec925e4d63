"""Rating-based criteria (Article 10): ARO, TPR, PTP, APRO, APPO, RTNG.

Only games played over the board count (forfeits never, in any format). Without a rating for
unrated players (``unrated_rating`` or ``/U<r>``) a tournament with unrated participants gets
no rating-based values at all (Art. 10; FIDE's checker does the same): every value is undefined
and a note says why. With such a rating it is used for unrated players both as opponents and
for their own performance.

* ARO = mean opponents' rating, rounded half up; ``/Cn`` ``/Mn`` drop lowest / highest ratings.
* TPR = ARO + dp(percentage), percentage = OTB points / games on the 1/½/0 scale, rounded
  half up (table 8.1a).
* PTP = the lowest rating R whose summed expected score (table 8.1b, differences clipped at
  +-800) reaches the OTB points; zero points: lowest opponent rating - 800.
* APRO / APPO = mean TPR / PTP of the OTB opponents (undefined ones skipped), rounded half up.
* RTNG = own rating (``/R``: lowest first).

Which rating: the first one (``Participant.rating``, the rating at the start), as C.07 (2026, note to
Article 10) says unless the regulations say otherwise. When the event's regulations say otherwise
(``Context.ratings_per_round``), ARO, TPR, PTP and through them APRO and APPO read each opponent's rating
in the round they met (``Participant.round_ratings``); RTNG stays the own first rating. FIDE's checker
knows one rating per player, so it agrees with the first rating only.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from . import reasons as R
from .context import Computed, Context
from .criteria import Criterion
from .crosstable import GAME_KINDS
from .explain import Trace, TraceElement
from .fide_tables import DP_BY_PERCENT, EXPECTED_BY_DIFF


def _ratings(ctx: Context, crit: Criterion) -> list[int] | None:
    """Every participant's rating, or None when an unrated one has no announced rating."""
    fallback = crit.unrated_rating if crit.unrated_rating is not None else ctx.unrated_rating
    result: list[int] | None = ctx.memo(("ratings", fallback), lambda: _all_ratings(ctx, fallback))
    return result


def _all_ratings(ctx: Context, fallback: int | None) -> list[int] | None:
    out: list[int] = []
    for r in ctx.ct.ratings:
        if r is None:
            if fallback is None:
                return None
            r = fallback
        out.append(r)
    return out


def _games(ctx: Context) -> list[list[tuple[int, int, int]]]:
    """Per participant: (round, opponent, points in halves) of every game over the board."""

    def build() -> list[list[tuple[int, int, int]]]:
        ct = ctx.ct
        return [
            [(r, o, h) for r, (kind, o, h) in enumerate(zip(kinds, opps, halves, strict=True)) if kind in GAME_KINDS]
            for kinds, opps, halves in zip(ct.kinds, ct.opps, ct.halves, strict=True)
        ]

    result: list[list[tuple[int, int, int]]] = ctx.memo("otb-games", build)
    return result


def rating_in_round(ctx: Context, i: int, r: int) -> int | None:
    """Participant ``i``'s rating in round ``r`` (0 = round 1) as the criteria read it: the first rating
    unless ratings per round are asked for; None = unrated."""
    first = ctx.ct.ratings[i]
    if not ctx.ratings_per_round:
        return first
    by_round = ctx.ct.round_ratings[i]
    if not by_round:
        return first
    return by_round[min(r, len(by_round) - 1)] or None


def _opponent_ratings(ctx: Context, crit: Criterion) -> list[list[int]] | None:
    """Per participant, in the order of :func:`_games`: each opponent's rating in the round they met (the
    first rating unless ratings per round are asked for); None when an unrated one has no announced rating."""
    fallback = crit.unrated_rating if crit.unrated_rating is not None else ctx.unrated_rating

    def build() -> list[list[int]] | None:
        ratings = _ratings(ctx, crit)
        if ratings is None:
            return None
        games = _games(ctx)
        if not ctx.ratings_per_round:
            return [[ratings[o] for _, o, _ in g] for g in games]
        out: list[list[int]] = []
        for g in games:
            row: list[int] = []
            for r, o, _ in g:
                v = rating_in_round(ctx, o, r)
                if v is None:
                    if fallback is None:
                        return None
                    v = fallback
                row.append(v)
            out.append(row)
        return out

    result: list[list[int]] | None = ctx.memo(("opp-ratings", fallback), build)
    return result


def _round_half_up(total: int, count: int) -> int:
    return (2 * total + count) // (2 * count)


def _aro(opp_ratings: list[int], low: int, high: int) -> int | None:
    if low or high:
        opp_ratings = sorted(opp_ratings)
        opp_ratings = opp_ratings[low : len(opp_ratings) - high]
    if not opp_ratings:
        return None
    return _round_half_up(sum(opp_ratings), len(opp_ratings))


def average_rating(opp_ratings: list[int]) -> int | None:
    """ARO: the opponents' mean rating rounded half up (None without opponents)."""
    return _aro(opp_ratings, 0, 0)


def performance_rating(opp_ratings: list[int], halves: int) -> int | None:
    """FIDE's TPR: ARO + dp(percentage) of table 8.1(a), ``halves`` = points x 2 on the 1/½/0 scale,
    the percentage rounded half up (None without games). Board statistics use it too."""
    g = len(opp_ratings)
    if not g:
        return None
    pct = (100 * halves + g) // (2 * g)
    return _round_half_up(sum(opp_ratings), g) + DP_BY_PERCENT[pct]


_OFFSET = 5000  # ratings are below 5000: a difference table over +-10000 needs no clipping test


@lru_cache(maxsize=1)
def _expected_wide() -> tuple[int, ...]:
    """Table 8.1(b) indexed by ``difference + 2 x _OFFSET`` (built on first use)."""
    # differences below -800 read entry 0, above +800 the last entry (the table is clipped)
    outside = 2 * _OFFSET - 800
    return (EXPECTED_BY_DIFF[0],) * outside + tuple(EXPECTED_BY_DIFF) + (EXPECTED_BY_DIFF[-1],) * outside


def _ptp(opp_ratings: list[int], halves: int) -> int | None:
    if not opp_ratings:
        return None
    if halves == 0:
        return min(opp_ratings) - 800
    target = 50 * halves  # OTB points x 100
    if max(opp_ratings) >= _OFFSET or min(opp_ratings) < 0:
        table, base = EXPECTED_BY_DIFF, None
    else:
        table, base = _expected_wide(), 2 * _OFFSET
    shifted = [base - r for r in opp_ratings] if base is not None else opp_ratings

    def expected(rating: int) -> int:
        if base is None:
            return sum(table[max(-800, min(800, rating - r)) + 800] for r in opp_ratings)
        return sum([table[rating + s] for s in shifted])

    # bracket the answer near the performance rating, then bisect:
    # invariant expected(lo) < target <= expected(hi)
    guess = performance_rating(opp_ratings, halves) or 0
    step = 2  # the PTP is usually within a few points of the TPR
    if expected(guess) >= target:
        hi = guess
        lo = guess - step
        while expected(lo) >= target:
            hi = lo
            step *= 2
            lo = hi - step
    else:
        lo = guess
        hi = guess + step
        while expected(hi) < target:
            lo = hi
            step *= 2
            hi = lo + step
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if expected(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi


def _per_player(ctx: Context, crit: Criterion, name: str) -> list[int | None] | None:
    def build() -> list[int | None] | None:
        opp_ratings = _opponent_ratings(ctx, crit)
        if opp_ratings is None:
            return None
        out: list[int | None] = []
        for games, opp in zip(_games(ctx), opp_ratings, strict=True):
            halves = sum([h for _, _, h in games])
            out.append(performance_rating(opp, halves) if name == "TPR" else _ptp(opp, halves))
        return out

    key = ("perf", name, crit.unrated_rating)
    result: list[int | None] | None = ctx.memo(key, build)
    return result


def compute_rating(ctx: Context, crit: Criterion) -> Computed:
    """ARO TPR PTP APRO APPO RTNG (Art. 10) for everybody; all undefined when unrated players
    have no announced rating; forfeits never count."""
    ct = ctx.ct
    ratings = _ratings(ctx, crit)
    opp_ratings = _opponent_ratings(ctx, crit)
    if ratings is None or opp_ratings is None:
        return Computed([None] * ct.n_players, 1, reason=R.UNDEFINED_UNRATED_PLAYERS)
    name = crit.name
    if name == "RTNG":
        return Computed(list(ratings), 1)
    if name in ("TPR", "PTP"):
        return Computed(list(_per_player(ctx, crit, name) or []), 1)
    games = _games(ctx)
    if name == "ARO":
        low, high = crit.cut + crit.median, crit.median
        return Computed([_aro(list(opp), low, high) for opp in opp_ratings], 1)
    # APRO / APPO
    source = _per_player(ctx, crit, "TPR" if name == "APRO" else "PTP") or []
    nums: list[int | None] = []
    for g in games:
        vals = [v for _, o, _ in g if (v := source[o]) is not None]
        nums.append(_round_half_up(sum(vals), len(vals)) if vals else None)
    return Computed(nums, 1)


def explain_rating(ctx: Context, crit: Criterion, i: int) -> Trace:
    ct = ctx.ct
    sn = ct.start_numbers[i]
    ratings = _ratings(ctx, crit)
    all_opp_ratings = _opponent_ratings(ctx, crit)
    if ratings is None or all_opp_ratings is None:
        return Trace(sn, crit.code, None, reason=R.UNDEFINED_UNRATED_PLAYERS)
    opp_ratings = all_opp_ratings[i]
    value = ctx.memo(("computed", crit.code), lambda: compute_rating(ctx, crit)).nums[i]
    if crit.name == "RTNG":
        v = Fraction(ratings[i])
        return Trace(sn, crit.code, v, (TraceElement(None, None, False, v, v, R.OWN_RATING, "10.6"),), v)
    games = _games(ctx)[i]
    if not games:
        return Trace(sn, crit.code, None, reason=R.UNDEFINED_NO_GAMES)
    elements: list[TraceElement] = []
    details: dict[str, object] = {}
    rounding = "half_up_integer"
    if crit.name in ("ARO", "TPR", "PTP"):
        removed: dict[int, str] = {}
        if crit.name == "ARO" and (crit.cut or crit.median):
            order = sorted(range(len(games)), key=lambda j: (opp_ratings[j], j))
            for j in order[: crit.cut + crit.median]:
                removed[j] = R.CUT_LOWEST
            for j in order[len(order) - crit.median :] if crit.median else []:
                removed.setdefault(j, R.MEDIAN_HIGHEST)
        for j, (r, o, h) in enumerate(games):
            v = Fraction(opp_ratings[j])
            # a rating other than the first (a newer list, read when the regulations ask for ratings per round)
            newer = ctx.ratings_per_round and opp_ratings[j] != ratings[o]
            elements.append(
                TraceElement(
                    r + 1,
                    ct.start_numbers[o],
                    False,
                    v,
                    v,
                    R.OPPONENT_RATING_IN_ROUND if newer else R.OPPONENT_RATING,
                    "10.1",
                    points=Fraction(h, 2),
                    removed=removed.get(j),
                )
            )
        kept = [e for e in elements if e.removed is None]
        if not kept:
            return Trace(sn, crit.code, None, tuple(elements), reason=R.UNDEFINED_NOTHING_LEFT)
        total = sum((e.contribution for e in kept), Fraction(0))
        halves = sum(h for _, _, h in games)
        details = {"points": Fraction(halves, 2), "games": len(games)}
        if crit.name == "TPR":
            pct = (100 * halves + len(games)) // (2 * len(games))
            details.update(percentage=pct, dp=DP_BY_PERCENT[pct], aro=_aro(list(opp_ratings), 0, 0))
            rounding = "aro_plus_dp"
        elif crit.name == "PTP":
            rounding = "lowest_rating_reaching_points"
        return Trace(
            sn,
            crit.code,
            Fraction(value) if value is not None else None,
            tuple(elements),
            total,
            divisor=len(kept),
            rounding=rounding,
            details=details,
        )
    source = _per_player(ctx, crit, "TPR" if crit.name == "APRO" else "PTP") or []
    for r, o, _h in games:
        sv = source[o]
        if sv is None:
            elements.append(
                TraceElement(
                    r + 1,
                    ct.start_numbers[o],
                    False,
                    None,
                    Fraction(0),
                    R.OPPONENT_VALUE_UNDEFINED,
                    "10.4",
                    removed=R.OPPONENT_VALUE_UNDEFINED,
                )
            )
        else:
            elements.append(
                TraceElement(
                    r + 1,
                    ct.start_numbers[o],
                    False,
                    Fraction(sv),
                    Fraction(sv),
                    R.OPPONENT_VALUE,
                    "10.4" if crit.name == "APRO" else "10.5",
                )
            )
    kept = [e for e in elements if e.removed is None]
    if not kept:
        return Trace(sn, crit.code, None, tuple(elements), reason=R.UNDEFINED_NO_GAMES)
    total = sum((e.contribution for e in kept), Fraction(0))
    return Trace(
        sn,
        crit.code,
        Fraction(value) if value is not None else None,
        tuple(elements),
        total,
        divisor=len(kept),
        rounding=rounding,
    )
