"""FIDE's Berger tables (Handbook C.05 Annex 1) for individual round robins, through the one interface."""

from itertools import combinations
from typing import Any

import pytest

from pairings import ByeType, PairingState, Player, System, berger_cycle, berger_round, pair_round


def _table(text: str) -> list[list[tuple[int, ...]]]:
    """One round per line, "white-black" pairings in the table's board order."""
    return [[tuple(int(x) for x in p.split("-")) for p in line.split(",")] for line in text.strip().splitlines()]


# Typed from FIDE Handbook C.05 Annex 1 ("3 or 4 players" ... "15 or 16 players")
FIDE = {
    4: """
1-4, 2-3
4-3, 1-2
2-4, 3-1""",
    6: """
1-6, 2-5, 3-4
6-4, 5-3, 1-2
2-6, 3-1, 4-5
6-5, 1-4, 2-3
3-6, 4-2, 5-1""",
    8: """
1-8, 2-7, 3-6, 4-5
8-5, 6-4, 7-3, 1-2
2-8, 3-1, 4-7, 5-6
8-6, 7-5, 1-4, 2-3
3-8, 4-2, 5-1, 6-7
8-7, 1-6, 2-5, 3-4
4-8, 5-3, 6-2, 7-1""",
    10: """
1-10, 2-9, 3-8, 4-7, 5-6
10-6, 7-5, 8-4, 9-3, 1-2
2-10, 3-1, 4-9, 5-8, 6-7
10-7, 8-6, 9-5, 1-4, 2-3
3-10, 4-2, 5-1, 6-9, 7-8
10-8, 9-7, 1-6, 2-5, 3-4
4-10, 5-3, 6-2, 7-1, 8-9
10-9, 1-8, 2-7, 3-6, 4-5
5-10, 6-4, 7-3, 8-2, 9-1""",
    12: """
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
6-12, 7-5, 8-4, 9-3, 10-2, 11-1""",
    14: """
1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8
14-8, 9-7, 10-6, 11-5, 12-4, 13-3, 1-2
2-14, 3-1, 4-13, 5-12, 6-11, 7-10, 8-9
14-9, 10-8, 11-7, 12-6, 13-5, 1-4, 2-3
3-14, 4-2, 5-1, 6-13, 7-12, 8-11, 9-10
14-10, 11-9, 12-8, 13-7, 1-6, 2-5, 3-4
4-14, 5-3, 6-2, 7-1, 8-13, 9-12, 10-11
14-11, 12-10, 13-9, 1-8, 2-7, 3-6, 4-5
5-14, 6-4, 7-3, 8-2, 9-1, 10-13, 11-12
14-12, 13-11, 1-10, 2-9, 3-8, 4-7, 5-6
6-14, 7-5, 8-4, 9-3, 10-2, 11-1, 12-13
14-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7
7-14, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1""",
    16: """
1-16, 2-15, 3-14, 4-13, 5-12, 6-11, 7-10, 8-9
16-9, 10-8, 11-7, 12-6, 13-5, 14-4, 15-3, 1-2
2-16, 3-1, 4-15, 5-14, 6-13, 7-12, 8-11, 9-10
16-10, 11-9, 12-8, 13-7, 14-6, 15-5, 1-4, 2-3
3-16, 4-2, 5-1, 6-15, 7-14, 8-13, 9-12, 10-11
16-11, 12-10, 13-9, 14-8, 15-7, 1-6, 2-5, 3-4
4-16, 5-3, 6-2, 7-1, 8-15, 9-14, 10-13, 11-12
16-12, 13-11, 14-10, 15-9, 1-8, 2-7, 3-6, 4-5
5-16, 6-4, 7-3, 8-2, 9-1, 10-15, 11-14, 12-13
16-13, 14-12, 15-11, 1-10, 2-9, 3-8, 4-7, 5-6
6-16, 7-5, 8-4, 9-3, 10-2, 11-1, 12-15, 13-14
16-14, 15-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7
7-16, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1, 14-15
16-15, 1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8
8-16, 9-7, 10-6, 11-5, 12-4, 13-3, 14-2, 15-1""",
}


def _state(players: int, rnd: int, **kwargs: Any) -> PairingState:
    return PairingState(players=tuple(Player(n) for n in range(1, players + 1)), round=rnd, total_rounds=99, **kwargs)


@pytest.mark.parametrize("players", sorted(FIDE))
def test_every_round_is_fides_table(players):
    table = _table(FIDE[players])
    assert berger_cycle(players) == table
    for rnd, expected in enumerate(table, start=1):
        result = pair_round(_state(players, rnd), System.BERGER)
        assert [(b.white, b.black) for b in result.boards] == expected
        assert [b.number for b in result.boards] == list(range(1, players // 2 + 1))
        assert result.byes == ()
        assert result.system == "berger"


@pytest.mark.parametrize("players", [3, 5, 7, 9, 11, 13, 15])
def test_odd_number_the_highest_number_is_the_bye(players):
    """FIDE: "If there is an odd number of players, the highest number counts as a bye"."""
    table = _table(FIDE[players + 1])
    byes = []
    for rnd, expected in enumerate(table, start=1):
        result = pair_round(_state(players, rnd), System.BERGER)
        games = [p for p in expected if players + 1 not in p]
        assert [(b.white, b.black) for b in result.boards] == games
        (bye,) = result.byes
        assert bye.type is ByeType.PAB
        byes.append(bye.start_number)
    assert sorted(byes) == list(range(1, players + 1))  # everyone sits out once


@pytest.mark.parametrize("players", [4, 5, 6, 9, 10])
def test_everyone_meets_everyone_once_per_cycle(players):
    rounds = players + players % 2 - 1
    met = [frozenset(p) for r in range(1, rounds + 1) for p in berger_round(players, r)]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(range(1, players + players % 2 + 1), 2)), key=sorted
    )


def test_double_round_robin_reverses_colours_and_exchanges_the_last_two_rounds():
    table = _table(FIDE[6])
    rounds = [
        [(b.white, b.black) for b in pair_round(_state(6, r, double_round_robin=True), System.BERGER).boards]
        for r in range(1, 11)
    ]
    # first cycle: rounds 4 and 5 of the table exchanged (FIDE's recommendation for double round robins)
    assert rounds[:5] == [table[0], table[1], table[2], table[4], table[3]]
    # second cycle: the table with colours reversed
    assert rounds[5:] == [[(b, w) for w, b in rnd] for rnd in table]
    # nobody gets three games running with the same colour across the change of cycle
    for player in range(1, 7):
        colours = "".join("w" if any(w == player for w, _ in r) else "b" for r in rounds)
        assert "www" not in colours and "bbb" not in colours, (player, colours)
    assert pair_round(_state(6, 1, double_round_robin=True), System.BERGER).system == "berger-double"


def test_round_after_the_last_is_refused():
    from pairings import PairingError

    with pytest.raises(PairingError, match="round 6 cannot be paired: the event has 5 rounds"):
        pair_round(_state(6, 6), System.BERGER)
