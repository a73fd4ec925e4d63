"""Bad input: a clear one-line PairingError, and nothing paired (no result at all)."""

import os

import pytest

from pairings import ByeType, PairingError, PairingState, Player, RequestedBye, RoundEntry, pair_round

from .builders import state

ALL_HAD_THE_PAB = ["1-4 =, 2-5 =, 3 U", "3-4 =, 1-5 =, 2 U", "2-4 =, 3-5 =, 1 U"]


def test_odd_number_and_nobody_may_have_the_bye():
    # 4 and 5 withdraw: 1, 2, 3 are left, have never met, and have all had the PAB (C.04.1: no
    # second PAB), so one of them cannot be paired
    with pytest.raises(PairingError, match=r"^round 4 cannot be paired: ") as caught:
        pair_round(state(5, ALL_HAD_THE_PAB, withdrawn=(4, 5)))
    assert "\n" not in str(caught.value)
    # the same players with a PAB still to give are paired
    assert len(pair_round(state(5, ALL_HAD_THE_PAB[:2], withdrawn=(4, 5))).byes) == 1


def test_a_forbidden_pair_that_leaves_no_pairing():
    with pytest.raises(PairingError, match=r"^round 1 cannot be paired: "):
        pair_round(state(2, [], forbidden_pairs=((1, 2),)))
    with pytest.raises(PairingError, match=r"^round 1 cannot be paired: "):
        pair_round(state(4, [], forbidden_pairs=((1, 2), (1, 3), (1, 4))))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"withdrawn": (7, 7)}, "player 7 is withdrawn twice"),
        ({"withdrawn": (12,)}, "withdrawn player 12 is not in the event"),
        ({"requested_byes": (RequestedBye(3, ByeType.HALF),) * 2}, "player 3 has two byes in round 2"),
        ({"requested_byes": (RequestedBye(9, ByeType.HALF),)}, "bye for player 9, who is not in the event"),
        ({"requested_byes": (RequestedBye(3, ByeType.PAB),)}, "player 3 cannot ask for a PAB bye (only H, Z or F)"),
        (
            {"withdrawn": (4,), "requested_byes": (RequestedBye(4, ByeType.ZERO),)},
            "player 4 is withdrawn and has a bye in round 2",
        ),
        ({"forbidden_pairs": ((1, 1),)}, "forbidden pair 1-1 names one player twice"),
        ({"forbidden_pairs": ((1, 10),)}, "forbidden pair 1-10 names a player who is not in the event"),
        ({"total_rounds": 1}, "round 2 cannot be paired: the event has 1 rounds"),
        ({"initial_colour": "white"}, "initial colour 'white' is not w or b"),
        ({"withdrawn": (1, 2, 3, 4, 5, 6, 7, 8)}, "nobody is left to pair in round 2"),
    ],
)
def test_inconsistent_state_is_named(changes, message):
    good = state(8, ["1-5 1, 6-2 0, 3-7 =, 8-4 1"])
    with pytest.raises(PairingError) as caught:
        pair_round(PairingState(**{**good.__dict__, **changes}))
    assert str(caught.value) == message


def test_inconsistent_history_is_named():
    players = (
        Player(1, rounds=(RoundEntry("1", 2, "w"),)),
        Player(2, rounds=(RoundEntry("0", 3, "b"),)),
        Player(3, rounds=(RoundEntry("Z"),)),
    )
    with pytest.raises(PairingError, match=r"^round 1: player 1 and player 2 do not name each other$"):
        pair_round(PairingState(players, round=2, total_rounds=5))


def test_start_numbers_must_run_from_one():
    with pytest.raises(PairingError, match=r"^start numbers must run 1\.\.2 without gaps$"):
        pair_round(PairingState((Player(1), Player(3)), round=1, total_rounds=5))
    with pytest.raises(PairingError, match=r"^start number 1 is used twice$"):
        pair_round(PairingState((Player(1), Player(1)), round=1, total_rounds=5))


def test_a_result_in_the_round_to_pair_is_refused():
    with pytest.raises(PairingError, match=r"^player 1 has a result in round 2; round 2 is to be paired$"):
        pair_round(PairingState((Player(1, rounds=(RoundEntry("F"), RoundEntry("F"))), Player(2)), 2, 5))


def test_the_engine_out_of_time_is_an_error_not_half_a_round():
    players = tuple(Player(n, 2500 - n) for n in range(1, 201))
    with pytest.raises(PairingError, match=r"^pairing round 1 took over 0.001 s; nothing was paired$"):
        pair_round(PairingState(players, round=1, total_rounds=9), timeout=0.001)


def test_a_failing_or_dying_engine_is_an_error_not_half_a_round():
    from pairings.engine import _in_child

    def crash(text: str, round_number: int) -> int:
        raise KeyError("missing")

    def die(text: str, round_number: int) -> int:
        os._exit(3)

    with pytest.raises(PairingError, match=r"^the pairing engine failed on round 4: KeyError\('missing'\)$"):
        _in_child(crash, "", 4, 30)
    with pytest.raises(PairingError, match=r"^the pairing engine stopped without an answer on round 4$"):
        _in_child(die, "", 4, 30)
