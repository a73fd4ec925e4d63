"""Rating change of a rated player under FIDE's Rating Regulations (Handbook B.02, in force from 1 March 2024,
8.3 as amended from 1 October 2025). Pure and exact: scores and changes are Fractions.

* 8.3.1 D = own rating - opponent's rating; a difference of more than 400 points counts as 400, for players
  rated below 2650. From 2650 the real difference is used.
* 8.3.2 PD = the expected score of table 8.1(b) for D; per game delta R = score - PD; the change of an
  event (or rating period) is K x the sum of the delta Rs.
* 8.3.3 K = 40 for a player new to the list until 30 games are completed, and for every player until the end
  of the year of their 18th birthday while rated under 2300; K = 20 while rated under 2400; K = 10 once the
  published rating has reached 2400, even if it drops below. If K x n (the games of the rating period)
  exceeds 700, K is the largest whole number with K x n <= 700.
* 8.3.4 The change of a rating period is rounded to the nearest whole number, 0.5 away from zero.

Only games over the board against rated opponents count (forfeits and byes are not rated).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .fide_tables import EXPECTED_BY_DIFF
from .rating import performance_rating

CAP = 400  # 8.3.1
UNCAPPED_FROM = 2650  # 8.3.1 as amended from 1 October 2025
PERIOD_LIMIT = 700  # 8.3.3: K x n


@dataclass(frozen=True)
class RatedGame:
    """One game over the board: the opponent's rating and the player's score (1, 1/2 or 0); `own_rating`: the
    player's rating when the game was played, when a newer list applied during the event (None: the rating the
    caller gives, the one at the start)."""

    opponent_rating: int
    score: Fraction
    own_rating: int | None = None


def k_factor(
    *,
    rating: int,
    games_rated: int = 30,
    age_at_year_end: int | None = None,
    reached_2400: bool = False,
) -> int:
    """8.3.3: the development coefficient of a rated player (before the period limit).

    `games_rated`: games the player had completed on the rating list (fewer than 30: a new player);
    `age_at_year_end`: the age the player reaches in the year of the event (None: unknown, taken as adult);
    `reached_2400`: whether a published rating of the player ever reached 2400."""
    if reached_2400 or rating >= 2400:
        return 10
    if games_rated < 30:
        return 40
    if age_at_year_end is not None and age_at_year_end <= 18 and rating < 2300:
        return 40
    return 20


#: why a player's K is what it is (development_coefficient)
K_LISTED = "listed"  # as FIDE's rating list publishes it
K_NEW_PLAYER = "new_player"  # fewer than 30 rated games
K_JUNIOR = "junior"  # until the end of the year of the 18th birthday, rated under 2300
K_REACHED_2400 = "reached_2400"
K_UNDER_2400 = "under_2400"  # 30 games or more known
K_UNDER_2400_ASSUMED = "under_2400_assumed"  # the number of rated games is not known: 30 or more assumed


@dataclass(frozen=True)
class DevelopmentCoefficient:
    """A player's K for a rating period and why (`reason`: one of the K_ values); `limited`: K was lowered by
    the 700 limit on K x games."""

    k: int
    reason: str
    limited: bool = False


def development_coefficient(
    *,
    rating: int,
    games: int,
    games_rated: int | None = None,
    birth_year: int | None = None,
    year: int | None = None,
    reached_2400: bool = False,
    listed_k: int | None = None,
) -> DevelopmentCoefficient:
    """8.3.3 for the `games` of one rating period: K from the player's rating, rated games completed before
    (`games_rated`, None: unknown, taken as 30 or more), birth year and the period's `year` (None: taken as an
    adult), or the K FIDE's list publishes (`listed_k`, which wins); then the 700 limit."""
    if listed_k:
        k, reason = listed_k, K_LISTED
    else:
        age = year - birth_year if year and birth_year else None
        k = k_factor(
            rating=rating,
            games_rated=30 if games_rated is None else games_rated,
            age_at_year_end=age,
            reached_2400=reached_2400,
        )
        if k == 10:
            reason = K_REACHED_2400
        elif games_rated is not None and games_rated < 30:
            reason = K_NEW_PLAYER
        elif k == 40:
            reason = K_JUNIOR
        else:
            reason = K_UNDER_2400 if games_rated is not None else K_UNDER_2400_ASSUMED
    limited = period_k(k, games)
    return DevelopmentCoefficient(limited, reason, limited < k)


def period_k(k: int, games: int) -> int:
    """8.3.3: K limited so that K x n does not exceed 700 for the n games of a rating period."""
    if games and k * games > PERIOD_LIMIT:
        return PERIOD_LIMIT // games
    return k


def expected_score(rating: int, opponent_rating: int) -> Fraction:
    """8.3.1-8.3.2: PD of table 8.1(b), with the 400-point rule below 2650."""
    difference = rating - opponent_rating
    if rating < UNCAPPED_FROM:
        difference = max(-CAP, min(CAP, difference))
    difference = max(-800, min(800, difference))  # the table ends at 1.00 / 0.00 beyond 735
    return Fraction(EXPECTED_BY_DIFF[difference + 800], 100)


def game_change(rating: int, game: RatedGame, k: int) -> Fraction:
    """K x delta R of one game."""
    own = rating if game.own_rating is None else game.own_rating
    return k * (game.score - expected_score(own, game.opponent_rating))


def rating_change(rating: int, games: list[RatedGame], k: int) -> Fraction:
    """8.3.2 d): K x the sum of the delta Rs of the games (exact; round with `rounded` for publication)."""
    return sum((game_change(rating, game, k) for game in games), Fraction(0))


def rounded(change: Fraction) -> int:
    """8.3.4: to the nearest whole number, 0.5 away from zero."""
    magnitude = abs(change)
    whole = int(magnitude + Fraction(1, 2))
    return whole if change >= 0 else -whole


@dataclass(frozen=True)
class EventRating:
    """A player's rating result of one event: what the profile and the player page show."""

    games: int
    score: Fraction
    expected: Fraction
    k: int
    change: Fraction
    performance: int | None


def event_rating(rating: int | None, games: list[RatedGame], k: int) -> EventRating | None:
    """Rating change and performance of one event (None for an unrated player or without rated games).

    `k` is the player's K for the event's rating period (`period_k` applied by the caller)."""
    if rating is None or not games:
        return None
    expected = sum(
        (expected_score(rating if g.own_rating is None else g.own_rating, g.opponent_rating) for g in games),
        Fraction(0),
    )
    score = sum((g.score for g in games), Fraction(0))
    halves = int(score * 2)
    return EventRating(
        games=len(games),
        score=score,
        expected=expected,
        k=k,
        change=rating_change(rating, games, k),
        performance=performance_rating([g.opponent_rating for g in games], halves),
    )
