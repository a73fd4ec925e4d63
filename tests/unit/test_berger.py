"""FIDE's Berger tables (Handbook C.05 Annex 1): pure checks, no database."""

from collections import Counter
from itertools import combinations

import pytest

from leagues.services.schedule import berger_schedule


def _table(text: str) -> list[list[tuple[int, ...]]]:
    """FIDE's printed table: one round per line, pairings "white-black" (home-away)."""
    return [
        [tuple(int(x) for x in pairing.split("-")) for pairing in line.split(",")] for line in text.strip().splitlines()
    ]


# Typed from FIDE Handbook C.05 Annex 1 ("3 or 4 players", "5 or 6 players", "7 or 8 players",
# "11 or 12 players")
FIDE_4 = _table("""
1-4, 2-3
4-3, 1-2
2-4, 3-1
""")
FIDE_6 = _table("""
1-6, 2-5, 3-4
6-4, 5-3, 1-2
2-6, 3-1, 4-5
6-5, 1-4, 2-3
3-6, 4-2, 5-1
""")
FIDE_8 = _table("""
1-8, 2-7, 3-6, 4-5
8-5, 6-4, 7-3, 1-2
2-8, 3-1, 4-7, 5-6
8-6, 7-5, 1-4, 2-3
3-8, 4-2, 5-1, 6-7
8-7, 1-6, 2-5, 3-4
4-8, 5-3, 6-2, 7-1
""")
FIDE_12 = _table("""
1-12, 2-11, 3-10, 4-9, 5-8, 6-7
12-7, 8-6, 9-5, 10-4, 11-3, 1-2
2-12, 3-1, 4-11, 5-10, 6-9, 7-8
12-8, 9-7, 10-6, 11-5, 1-4, 2-3
3-12, 4-2, 5-1, 6-11, 7-10, 8-9
12-9, 10-8, 11-7, 1-6, 2-5, 3-4
4-12, 5-3, 6-2, 7-1, 8-11, 9-10
12-10, 11-9, 1-8, 2-7, 3-6, 4-5
5-12, 6-4, 7-3, 8-2, 9-1, 10-11
12-11, 1-10, 2-9, 3-8, 4-7, 5-6
6-12, 7-5, 8-4, 9-3, 10-2, 11-1
""")


@pytest.mark.parametrize(("n", "table"), [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8), (12, FIDE_12)])
def test_fide_table_reproduced_exactly(n, table):
    assert berger_schedule(n) == table


@pytest.mark.parametrize(("n", "table"), [(3, FIDE_4), (5, FIDE_6), (7, FIDE_8), (11, FIDE_12)])
def test_odd_count_uses_the_next_table_with_the_highest_number_as_bye(n, table):
    expected = [[pair for pair in rnd if n + 1 not in pair] for rnd in table]
    assert berger_schedule(n) == expected


def test_five_teams_by_hand():
    # FIDE's 6-player table, 6 = bye: round 1 team 1 is free, round 2 team 4, round 3 team 2 ...
    assert berger_schedule(5) == [
        [(2, 5), (3, 4)],
        [(5, 3), (1, 2)],
        [(3, 1), (4, 5)],
        [(1, 4), (2, 3)],
        [(4, 2), (5, 1)],
    ]


def _home_away(schedule, team):
    return ["H" if team == h else "A" for rnd in schedule for h, a in rnd if team in (h, a)]


@pytest.mark.parametrize("n", range(3, 17))
def test_every_pair_meets_once_and_everybody_plays_once_a_round(n):
    schedule = berger_schedule(n)
    slots = n + n % 2
    assert len(schedule) == slots - 1
    met = Counter(frozenset(pair) for rnd in schedule for pair in rnd)
    assert set(met) == {frozenset(p) for p in combinations(range(1, n + 1), 2)}
    assert set(met.values()) == {1}
    byes: Counter[int] = Counter()
    for rnd in schedule:
        playing = [t for pair in rnd for t in pair]
        assert len(playing) == len(set(playing))
        free = set(range(1, n + 1)) - set(playing)
        assert len(free) == n % 2
        byes.update(free)
    if n % 2:
        assert byes == Counter(range(1, n + 1))  # one bye each


@pytest.mark.parametrize("n", range(3, 17))
def test_home_and_away_balanced_within_one(n):
    schedule = berger_schedule(n)
    for team in range(1, n + 1):
        sides = Counter(_home_away(schedule, team))
        assert abs(sides["H"] - sides["A"]) <= 1, (team, sides)


@pytest.mark.parametrize("n", range(3, 17))
def test_double_round_robin_swaps_home_and_away(n):
    single = berger_schedule(n)
    double = berger_schedule(n, double=True)
    rounds = len(single)
    assert len(double) == 2 * rounds
    # second cycle: the table's rounds in order, home and away swapped
    assert double[rounds:] == [[(a, h) for h, a in rnd] for rnd in single]
    # first cycle: the table with its last two rounds exchanged (FIDE's advice for double round robins)
    assert double[: rounds - 2] == single[: rounds - 2]
    assert double[rounds - 2 : rounds] == [single[-1], single[-2]]
    # every ordered pairing once: each team is at home once against each opponent
    ordered = Counter(pair for rnd in double for pair in rnd)
    assert set(ordered.values()) == {1}
    assert len(ordered) == n * (n - 1)
    for team in range(1, n + 1):
        sides = Counter(_home_away(double, team))
        assert sides["H"] == sides["A"] == n - 1


@pytest.mark.parametrize("n", range(3, 17))
def test_double_round_robin_never_three_in_a_row_at_home_or_away(n):
    double = berger_schedule(n, double=True)
    for team in range(1, n + 1):
        sequence = "".join(_home_away(double, team))
        assert "HHH" not in sequence and "AAA" not in sequence, (team, sequence)


def test_four_teams_double_by_hand():
    assert berger_schedule(4, double=True) == [
        [(1, 4), (2, 3)],
        [(2, 4), (3, 1)],
        [(4, 3), (1, 2)],
        [(4, 1), (3, 2)],
        [(3, 4), (2, 1)],
        [(4, 2), (1, 3)],
    ]


def test_two_teams_and_fewer():
    assert berger_schedule(2) == [[(1, 2)]]
    assert berger_schedule(2, double=True) == [[(1, 2)], [(2, 1)]]
    with pytest.raises(ValueError):
        berger_schedule(1)
