"""FIDE Dutch (C.04.3, 2026) through the interface: each expectation worked out by hand from the
rule it cites (C.04.1 basic rules, C.04.2 handling rules, C.04.3 Dutch, C.04.7 Baku)."""

from fractions import Fraction

from pairings import (
    BakuAcceleration,
    ByeType,
    PairingState,
    Player,
    RequestedBye,
    Scoring,
    colours,
    pair_round,
    points,
)
from pairings.dutch import gacrux_trf

from .builders import players_after, state


def boards(result):
    return [(b.white, b.black) for b in result.boards]


def test_round_one_top_half_meets_bottom_half_and_odd_numbers_take_the_initial_colour():
    # C.04.3 round 1: one bracket, S1 = 1..4, S2 = 5..8, S1[i] meets S2[i]; Art. 5.2.5: with no
    # preferences, the higher-ranked player takes the initial colour when his number is odd
    assert boards(pair_round(state(8, []))) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert boards(pair_round(state(8, [], initial_colour="b"))) == [(5, 1), (2, 6), (7, 3), (4, 8)]


def test_odd_number_the_lowest_player_gets_the_pab():
    # C.04.1: one player unpaired gets the pairing-allocated bye; C.04.3: the bye goes to the
    # lowest-ranked player of the lowest score group (7), the rest pairs 1-4, 5-2, 3-6
    result = pair_round(state(7, []))
    assert boards(result) == [(1, 4), (5, 2), (3, 6)]
    assert [(b.start_number, b.type) for b in result.byes] == [(7, ByeType.PAB)]
    assert result.to_json()["byes"] == [{"start_number": 7, "type": "PAB"}]


def test_no_second_pab():
    # Round 1: 1-3 1-0, 4-2 0-1, 5 PAB worth 0 here (the event's PAB value). Round 2: 1 and 2 on
    # 1 point meet; 3, 4, 5 on 0. The PAB would go to 5, lowest ranked, but C.04.1 forbids a second
    # PAB: it goes to 4, and 3 meets 5. Colours: 2 had black, 1 white -> 2-1; 3 had black, 5 has
    # no colour yet -> 3-5.
    result = pair_round(state(5, ["1-3 1, 4-2 0, 5 U"], scoring=Scoring(pab=Fraction(0))))
    assert boards(result) == [(2, 1), (3, 5)]
    assert [b.start_number for b in result.byes] == [4]


def test_colour_preferences_outweigh_the_first_transposition():
    # Round 1: 1-3 and 4-2 drawn: all four on 1/2. S1 = 1,2 / S2 = 3,4; 1-3 met, so the first
    # legal candidate is 1-4, 2-3, in which both pairs share a preference (1 and 4 had white,
    # 2 and 3 black). Exchanging 2 and 3 gives 1-2, 3-4: every preference granted, which the
    # colour criteria put before the order of generation.
    assert boards(pair_round(state(4, ["1-3 =, 4-2 ="]))) == [(2, 1), (3, 4)]


def test_no_rematch():
    # C.04.1: two players do not meet twice. Round 1 1-3 1-0, 4-2 1-0: 1 and 4 lead, 2 and 3 trail
    # and have not met; round 2 pairs leaders and trailers within their groups.
    result = pair_round(state(4, ["1-3 1, 4-2 1"]))
    assert sorted(frozenset(p) for p in boards(result)) == sorted([frozenset({1, 4}), frozenset({2, 3})])


def test_requested_byes_and_withdrawn_players_are_left_out():
    s = state(8, [], requested_byes=(RequestedBye(3, ByeType.HALF), RequestedBye(8, ByeType.ZERO)), withdrawn=(6,))
    result = pair_round(s)
    # five present: 1, 2, 4, 5, 7 -> S1 = 1, 2; S2 = 4, 5; 7 gets the PAB
    assert boards(result) == [(1, 4), (5, 2)]
    assert [(b.start_number, b.type) for b in result.byes] == [
        (7, ByeType.PAB),
        (3, ByeType.HALF),
        (8, ByeType.ZERO),
    ]


def test_forbidden_pair_is_avoided():
    # 1-5 would be board 1 of round 1; forbidden (same club), the next candidate is 1-6, 5-2
    result = pair_round(state(8, [], forbidden_pairs=((1, 5),)))
    assert (1, 5) not in boards(result) and (5, 1) not in boards(result)
    assert boards(result)[0] == (1, 6)


def test_points_and_colours_for_the_pairing_screen():
    (p1, _p2, p3, *_rest) = players_after(5, ["1-3 1, 4-2 0, 5 U", "2-1 =, 3-5 +"])
    assert points(p1, Scoring()) == Fraction(3, 2)
    assert points(p3, Scoring()) == 1  # the forfeit win counts, not as a game
    assert colours(p1) == "wb" and colours(p3) == "b"  # a forfeit gives no colour


def test_baku_fides_own_numbers():
    # C.04.7 Art. 1 (C.04.5.1) note: 161 players -> GA is 2 * ceil(161/4) = 82 players, and "in a
    # nine-round tournament the accelerated rounds are five: one virtual point in the first three
    # rounds, half a virtual point in the fourth and fifth"
    players = tuple(Player(n, 2600 - n) for n in range(1, 162))
    text = gacrux_trf(PairingState(players, round=1, total_rounds=9, acceleration=BakuAcceleration()))
    records = [line for line in text.splitlines() if line.startswith("250")]
    assert [r.split()[1:] for r in records] == [["1.0", "1", "3", "1", "82"], ["0.5", "4", "5", "1", "82"]]


def test_baku_round_one_pairs_each_group_within_itself():
    # round 1 with 161 players: GA (1..82, one virtual point) is its own bracket: S1 = 1..41,
    # S2 = 42..82; GB (83..161, 79 players) gives the PAB to 161 and pairs 83..121 with 122..160
    players = tuple(Player(n, 2600 - n) for n in range(1, 162))
    result = pair_round(PairingState(players, round=1, total_rounds=9, acceleration=BakuAcceleration()))
    pairs = boards(result)
    assert pairs[0] == (1, 42) and pairs[1] == (43, 2) and (41, 82) in pairs
    assert (83, 122) in pairs and (123, 84) in pairs
    assert [b.start_number for b in result.byes] == [161]
    assert result.system == "dutch-2026-baku"
    plain = boards(pair_round(PairingState(players, round=1, total_rounds=9)))
    assert plain[0] == (1, 81)  # without acceleration: S1 = 1..80, S2 = 81..160
