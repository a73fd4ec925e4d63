"""Prize split: who receives which prize money and items, exactly, and why (spec tiebreak-rules.md §14).

Pure Python: imports nothing from Django or from the rest of the project. The inputs, outputs and reason
codes are in :mod:`.model`; the two algorithms in :mod:`.players` (place and category prizes) and
:mod:`.clubs` (best club team).

Money is in integer minor units (pence, cents, øre), never floats. Shares are computed exactly and
paid rounded down; the undistributable remainder is reported (or, on request, paid one unit at a
time in tie-break order). The explanation is data: ``Line(code, params)``, codes listed in ``REASONS``.

Methods (``PrizeOptions.method``):

``"pool"`` (default)
    A group tied on points shares equally the money of the place prizes for the positions it
    occupies (a tie of m at position k pools places k..k+m-1; only prizes that exist). Tied best
    eligible players share a category's prizes equally. With one prize per player, the eligible
    members of a group take a category share instead of their place share when it is strictly larger;
    the freed place then goes to the next player in line.
``"us-32b3"``
    US Chess 32B3: each tied player brings at most one prize (place or category) into a common pool,
    chosen so that the pool is as large as possible, and the pool is shared equally, unless the
    eligible players would get more by sharing only a category prize the others cannot win.
``"none"``
    No pooling: the tie-break order decides the money too.

``places_first=True`` (with "pool" or "none"; the simpler scheme §14 offers as an event option):
place prizes are never given up; category prizes go only to eligible players who won no place money.

Indivisible items (trophy, title, qualification place, free entry) always go strictly by the
published tie-break order, to the player on that place (or the r-th best eligible player for a
category), whether or not that player took the money of that prize; they do not count against the
one-money-prize rule. Players still tied after every tie-break need a drawing of lots
(``PrizeOptions.lot_order``; without one the item is reported as undecided), or, if the event says
so (``item_tie="shared"``), each of them receives the item as shared.

Decisions where the sources are silent: a category share equal to the place share keeps the place;
the 32B3 pool is maximised greedily (swap the lowest place brought for the best open category prize
while that gains); shares shown in ``better_prize_taken``/``us32b3_*`` are rounded down; unrated
players are never under a rating limit; ``born_after``/``born_before`` are strict. Team prizes in a
team event are the same call made on team standings.

Best club team (``ClubTeamPrize``, an individual event): the club whose best ``players`` (N, default 3)
players, in standings order, scored the most points together. A club with fewer than N players in the
standings counts the players it has (its total is simply smaller). Clubs are ranked by that total, then
by the sum of the same players' values of the first published tie-break (missing values count 0), then
by their best player's place. The money follows the method as for players: clubs tied on total points
share the money of the ranks they occupy ("pool" and "us-32b3"; tie-breaks decide only items), while
"none" lets the tie-break sum decide and pools only clubs still equal after it. Club prizes go to the
club (``PrizeResult.club_awards``, keyed by the club value of the standings); they never count against
one prize per player. A club item goes by the club order; clubs still equal after the tie-break sum
share it (``item_tie="shared"``) or need a drawing of lots (club keys in ``lot_order``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from .clubs import ClubSplit
from .model import (
    CURRENCIES,
    ELIGIBILITY_KINDS,
    ITEM_TIE_RULES,
    METHODS,
    REASONS,
    REMAINDER_RULES,
    Award,
    CategoryPrize,
    ClubTeamPrize,
    Eligibility,
    Line,
    PlacePrize,
    PrizeOptions,
    PrizeResult,
    Standing,
)
from .players import PlayerSplit

__all__ = [
    "CURRENCIES",
    "REASONS",
    "Award",
    "CategoryPrize",
    "ClubTeamPrize",
    "Eligibility",
    "Line",
    "PlacePrize",
    "PrizeOptions",
    "PrizeResult",
    "Standing",
    "split_prizes",
]


def split_prizes(
    standings: Sequence[Standing],
    prizes: Sequence[PlacePrize | CategoryPrize | ClubTeamPrize],
    options: PrizeOptions | None = None,
    club_names: Mapping[Any, str] | None = None,
) -> PrizeResult:
    """Distribute the prize fund over the final standings (given in rank order).

    ``club_names`` maps the standings' club values to the names shown (default: the value itself)."""
    standings = list(standings)
    options = options or PrizeOptions()
    _validate(standings, prizes, options)
    players = PlayerSplit(standings, prizes, options)
    awards = players.run()
    clubs = ClubSplit(standings, prizes, options, club_names or {})
    club_awards = clubs.run()
    return PrizeResult(
        awards,
        tuple(players.lines + clubs.lines),
        options.currency,
        sum(p.amount for p in prizes),
        sum(a.money for a in awards) + sum(a.money for a in club_awards),
        players.remainder + clubs.remainder,
        players.unawarded + clubs.unawarded,
        club_awards,
    )


def _validate(
    standings: list[Standing], prizes: Sequence[PlacePrize | CategoryPrize | ClubTeamPrize], o: PrizeOptions
) -> None:
    _validate_options(o)
    _validate_standings(standings)
    for p in prizes:
        if not isinstance(p.amount, int) or isinstance(p.amount, bool) or p.amount < 0:
            raise ValueError(f"prize amounts are non-negative integers of minor units: {p!r}")
    places = [p.place for p in prizes if isinstance(p, PlacePrize)]
    if len(set(places)) != len(places) or min(places, default=1) < 1:
        raise ValueError("place prizes need distinct places from 1")
    _validate_category_prizes([p for p in prizes if isinstance(p, CategoryPrize)])
    _validate_club_prizes([p for p in prizes if isinstance(p, ClubTeamPrize)])


def _validate_options(o: PrizeOptions) -> None:
    """The method, the tie rules and the remainder rule are known ones, and agree (US 32B3)."""
    if o.method not in METHODS:
        raise ValueError(f"unknown method {o.method!r}")
    if o.item_tie not in ITEM_TIE_RULES:
        raise ValueError(f"unknown item tie rule {o.item_tie!r}")
    if o.remainder not in REMAINDER_RULES:
        raise ValueError(f"unknown remainder rule {o.remainder!r}")
    if o.method == "us-32b3" and (o.places_first or not o.one_prize_per_player):
        raise ValueError("US 32B3 presupposes one cash prize per player (32B1), the most valuable")


def _validate_standings(standings: list[Standing]) -> None:
    """Each participant once, in rank order."""
    ids = [s.participant_id for s in standings]
    if len(set(ids)) != len(ids):
        raise ValueError("participant ids must be unique")
    for a, b in itertools.pairwise(standings):
        if b.points > a.points:
            raise ValueError("standings must be in rank order (points never increase)")


def _validate_category_prizes(prizes: list[CategoryPrize]) -> None:
    """Known eligibility kinds, one eligibility per category, distinct ranks within a category."""
    categories: dict[str, list[CategoryPrize]] = {}
    for p in prizes:
        categories.setdefault(p.category, []).append(p)
    for p in prizes:
        for rule in p.eligibility:
            if rule.kind not in ELIGIBILITY_KINDS:
                raise ValueError(f"unknown eligibility kind {rule.kind!r}")
        if p.eligibility != categories[p.category][0].eligibility:
            raise ValueError(f"category {p.category!r}: all its prizes need the same eligibility")
    if any(len({p.rank for p in c}) != len(c) for c in categories.values()):
        raise ValueError("category prizes need distinct ranks")


def _validate_club_prizes(club: list[ClubTeamPrize]) -> None:
    """Distinct ranks from 1, and one number of players counted (at least 1) for every club team prize."""
    club_ranks = [p.rank for p in club]
    if len(set(club_ranks)) != len(club_ranks) or min(club_ranks, default=1) < 1:
        raise ValueError("club team prizes need distinct ranks from 1")
    if len({p.players for p in club}) > 1 or any(
        not isinstance(p.players, int) or isinstance(p.players, bool) or p.players < 1 for p in club
    ):
        raise ValueError("club team prizes need one and the same number of players counted, at least 1")
