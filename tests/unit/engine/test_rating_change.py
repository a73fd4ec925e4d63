"""FIDE rating change (Rating Regulations B.02 8.3, from 1 March 2024, 8.3.1 as amended from 1 October 2025),
checked against the regulations' own rules and their published examples, worked by hand from table 8.1(b)."""

from fractions import Fraction

import pytest

from tiebreaks.engine.rating_change import (
    K_JUNIOR,
    K_LISTED,
    K_NEW_PLAYER,
    K_REACHED_2400,
    K_UNDER_2400,
    K_UNDER_2400_ASSUMED,
    DevelopmentCoefficient,
    RatedGame,
    development_coefficient,
    event_rating,
    expected_score,
    game_change,
    k_factor,
    period_k,
    rating_change,
    rounded,
)

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


def test_equal_ratings_expect_half_a_point():
    assert expected_score(2000, 2000) == Fraction(1, 2)


def test_table_8_1b_a_hundred_points_is_064_and_036():
    # 8.1(b): a difference of 92-98 gives PD .64 for the higher rated, .36 for the lower rated player
    assert expected_score(2100, 2000) == Fraction(64, 100)
    assert expected_score(2000, 2100) == Fraction(36, 100)


def test_400_point_rule_counts_a_larger_difference_as_400():
    # 8.3.1: 2000 against 2420 is counted as a difference of 400: PD .08 (table: 392-411 -> .92)
    assert expected_score(2000, 2420) == Fraction(8, 100)
    assert expected_score(2000, 1550) == Fraction(92, 100)
    assert expected_score(2000, 1000) == expected_score(2000, 1600)


def test_from_2650_the_real_difference_is_used():
    # the amendment of 1 October 2025: a 2650+ player beating a 2250 gained 0.8 (K 10 x (1 - .92)) before;
    # now the real difference of 550 counts (table: 518-559 -> .97), 0.3 points
    win = RatedGame(2250, WIN)
    assert game_change(2649, RatedGame(2249, WIN), 10) == Fraction(8, 10)
    assert expected_score(2800, 2250) == Fraction(97, 100)
    assert game_change(2800, win, 10) == Fraction(3, 10)
    # and a loss costs more than the capped 9.2 points
    assert game_change(2800, RatedGame(2250, LOSS), 10) == Fraction(-97, 10)


def test_k_factor_by_rating_age_and_games():
    assert k_factor(rating=1800, games_rated=12) == 40  # new to the list: fewer than 30 games
    assert k_factor(rating=1800, games_rated=30) == 20
    assert k_factor(rating=2250, age_at_year_end=18) == 40  # until the end of the year of the 18th birthday
    assert k_factor(rating=2250, age_at_year_end=19) == 20
    assert k_factor(rating=2300, age_at_year_end=16) == 20  # juniors from 2300 on: 20
    assert k_factor(rating=2399) == 20
    assert k_factor(rating=2400) == 10
    assert k_factor(rating=2380, reached_2400=True) == 10  # once 2400 was published, 10 for good


def test_k_times_games_of_the_period_stays_within_700():
    assert period_k(40, 17) == 40  # 680
    assert period_k(40, 18) == 38  # 40 x 18 = 720 > 700: the largest K with K x 18 <= 700 is 38 (684)
    assert period_k(20, 36) == 19  # 720 > 700: 19 x 36 = 684
    assert period_k(20, 35) == 20  # exactly 700 is allowed
    assert period_k(10, 70) == 10


def test_event_change_is_k_times_the_sum_of_delta_r():
    # a 2000 player (K 20): win against 2100 (PD .36), draw against 2000 (.50), loss against 1900 (.64)
    games = [RatedGame(2100, WIN), RatedGame(2000, DRAW), RatedGame(1900, LOSS)]
    # delta R: +.64, 0, -.64 -> 0
    assert rating_change(2000, games, 20) == 0
    games = [RatedGame(2100, WIN), RatedGame(2100, DRAW)]
    # +.64 + .14 = .78 -> x 20 = 15.6
    assert rating_change(2000, games, 20) == Fraction(156, 10)
    assert rounded(rating_change(2000, games, 20)) == 16


def test_rounding_takes_half_away_from_zero():
    assert rounded(Fraction(5, 2)) == 3
    assert rounded(Fraction(-5, 2)) == -3
    assert rounded(Fraction(-24, 10)) == -2
    assert rounded(Fraction(0)) == 0


def test_event_rating_gives_score_expected_change_and_performance():
    games = [RatedGame(2100, WIN), RatedGame(2100, DRAW)]
    result = event_rating(2000, games, 20)
    assert result is not None
    assert (result.games, result.score, result.expected) == (2, Fraction(3, 2), Fraction(72, 100))
    assert result.change == Fraction(156, 10)
    assert result.performance == 2100 + 193  # 75 % -> dp 193 (table 8.1a), opponents' average 2100
    assert event_rating(None, games, 20) is None
    assert event_rating(2000, [], 20) is None


@pytest.mark.parametrize("rating", [1400, 1999, 2400, 2649, 2650, 2850])
def test_win_draw_loss_against_the_same_opponent_differ_by_k_over_two(rating):
    k = 10
    opponent = rating - 120
    win, draw, loss = (game_change(rating, RatedGame(opponent, s), k) for s in (WIN, DRAW, LOSS))
    assert win - draw == draw - loss == Fraction(k, 2)


def test_development_coefficient_takes_the_players_games_birth_year_and_rating():
    # B.02 8.3.3, each case with the reason the pages show
    new = development_coefficient(rating=1800, games=5, games_rated=12)
    assert (new.k, new.reason, new.limited) == (40, K_NEW_PLAYER, False)
    assert development_coefficient(rating=1800, games=5, games_rated=30).reason == K_UNDER_2400
    unknown = development_coefficient(rating=1800, games=5)  # games on the list not known: 30 or more assumed
    assert (unknown.k, unknown.reason) == (20, K_UNDER_2400_ASSUMED)
    # until the end of the year of the 18th birthday (born 2008: K 40 through 2026), below 2300
    assert development_coefficient(rating=2250, games=5, birth_year=2008, year=2026) == (
        DevelopmentCoefficient(40, K_JUNIOR)
    )
    assert development_coefficient(rating=2250, games=5, birth_year=2008, year=2027).k == 20
    assert development_coefficient(rating=2310, games=5, birth_year=2012, year=2026).k == 20
    assert development_coefficient(rating=2400, games=5, games_rated=12).reason == K_REACHED_2400
    assert development_coefficient(rating=1500, games=5, listed_k=10) == DevelopmentCoefficient(10, K_LISTED)


def test_the_700_limit_lowers_k_for_many_games_in_a_period():
    # 8.3.3: K x n above 700 -> the largest whole K with K x n <= 700: 40 x 20 games -> 35; 40 x 18 -> 38
    assert development_coefficient(rating=1800, games=20, games_rated=0) == DevelopmentCoefficient(
        35, K_NEW_PLAYER, limited=True
    )
    assert development_coefficient(rating=1800, games=18, games_rated=0).k == 38
    assert development_coefficient(rating=1800, games=17, games_rated=0) == DevelopmentCoefficient(40, K_NEW_PLAYER)
    assert development_coefficient(rating=2000, games=36, games_rated=40).k == 19  # 20 x 36 = 720


def test_a_new_players_win_counts_double_an_established_players():
    # table 8.1(b): 100 points below -> PD .36; a win is 1 - .36 = +.64: K 40 -> +25.6, K 20 -> +12.8
    win = [RatedGame(1900, WIN)]
    new = development_coefficient(rating=1800, games=1, games_rated=3)
    assert rating_change(1800, win, new.k) == Fraction(256, 10)
    assert rating_change(1800, win, development_coefficient(rating=1800, games=1, games_rated=300).k) == Fraction(
        128, 10
    )
