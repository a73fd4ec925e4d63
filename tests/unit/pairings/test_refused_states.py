"""A state that cannot be paired is refused with the one line naming its first problem, nothing paired:
the team Swiss's checks, and the individual checks tests/unit/pairings/test_bad_input.py does not reach."""

from __future__ import annotations

import dataclasses

import pytest

from pairings import (
    BakuAcceleration,
    ByeType,
    PairingError,
    Player,
    RequestedBye,
    SwissTeam,
    System,
    TeamPairingState,
    TeamRound,
    pair_round,
)

from .builders import state


def refusal(state_: object, system: System = System.DUTCH) -> str:
    with pytest.raises(PairingError) as caught:
        pair_round(state_, system, timeout=None)  # type: ignore[arg-type]
    return str(caught.value)


def test_a_round_before_the_first_and_a_field_of_one_are_refused():
    assert refusal(dataclasses.replace(state(4, []), round=0)) == "round 0 does not exist"
    assert refusal(dataclasses.replace(state(4, []), players=(Player(1),))) == "a round needs at least two players"


def test_a_round_robin_has_the_rounds_of_its_table_whatever_the_total_says():
    six = dataclasses.replace(state(6, []), round=6, total_rounds=9)
    assert refusal(six, System.BERGER) == "round 6 cannot be paired: the event has 5 rounds"


def test_the_last_player_of_the_accelerated_group_is_one_of_the_event():
    accelerated = dataclasses.replace(state(8, []), acceleration=BakuAcceleration(last_ga_player=9))
    assert refusal(accelerated) == "the last player of the accelerated group, 9, is not in the event"


def match(opponent: int, colour: str, *boards: str) -> TeamRound:
    return TeamRound(opponent=opponent, colour=colour, boards=boards)


def teams_after_round_1() -> TeamPairingState:
    """Four teams of two boards after round 1: 1 beat 3 (1½-½), 4 and 2 drew 1-1."""
    teams = (
        SwissTeam(1, (match(3, "w", "1", "="),)),
        SwissTeam(2, (match(4, "b", "1", "0"),)),
        SwissTeam(3, (match(1, "b", "0", "="),)),
        SwissTeam(4, (match(2, "w", "0", "1"),)),
    )
    return TeamPairingState(teams=teams, round=2, total_rounds=5, boards=2)


def with_team(good: TeamPairingState, number: int, *rounds: TeamRound) -> TeamPairingState:
    teams = tuple(SwissTeam(number, rounds) if t.start_number == number else t for t in good.teams)
    return dataclasses.replace(good, teams=teams)


def test_a_consistent_team_state_is_paired():
    paired = pair_round(teams_after_round_1(), System.TEAM_SWISS, timeout=None)
    assert sorted(n for board in paired.boards for n in (board.white, board.black)) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"teams": (SwissTeam(1), SwissTeam(3))}, "team start numbers must run 1..2 without gaps"),
        ({"teams": (SwissTeam(1),)}, "a round needs at least two teams"),
        ({"boards": 0}, "a match needs at least one board"),
        ({"round": 0}, "round 0 cannot be paired: the event has 5 rounds"),
        ({"round": 6}, "round 6 cannot be paired: the event has 5 rounds"),
        ({"initial_colour": "B"}, "initial colour 'B' is not w or b"),
        ({"withdrawn": (5,)}, "team 5 is not in the event"),
        ({"requested_byes": (RequestedBye(7, ByeType.HALF),)}, "team 7 is not in the event"),
        (
            {"withdrawn": (2,), "requested_byes": (RequestedBye(2, ByeType.ZERO),)},
            "team 2 is withdrawn or has a bye twice in round 2",
        ),
        ({"withdrawn": (3, 3)}, "team 3 is withdrawn or has a bye twice in round 2"),
        ({"requested_byes": (RequestedBye(4, ByeType.PAB),)}, "team 4 cannot ask for a PAB bye (only H, Z or F)"),
        ({"forbidden_pairs": ((1, 1),)}, "forbidden pair 1-1 does not name two teams of the event"),
        ({"forbidden_pairs": ((2, 9),)}, "forbidden pair 2-9 does not name two teams of the event"),
        ({"withdrawn": (1, 2, 3, 4)}, "no team is left to pair in round 2"),
    ],
)
def test_an_inconsistent_team_state_is_named(changes, message):
    good = teams_after_round_1()
    assert refusal(dataclasses.replace(good, **changes), System.TEAM_SWISS) == message


@pytest.mark.parametrize(
    ("number", "rounds", "message"),
    [
        (
            2,
            (match(4, "b", "1", "0"), match(1, "w", "1", "1")),
            "team 2 has a result in round 2; round 2 is to be paired",
        ),
        # team 3 names team 2 in round 1; team 1, which comes first, names team 3, who does not name it back
        (3, (match(2, "b", "0", "="),), "round 1: team 1 and team 3 do not name each other"),
        (1, (match(3, "w", "1"),), "round 1: team 1 needs a result on each of its 2 boards"),
        (1, (match(3, "w", "1", "x"),), "round 1: team 1 needs a result on each of its 2 boards"),
        (1, (match(3, "w", "1", "1"),), "round 1: the match of team 1 and team 3 reads two ways"),
        (1, (match(3, "b", "1", "="),), "round 1: the match of team 1 and team 3 reads two ways"),
    ],
)
def test_an_inconsistent_team_history_is_named(number, rounds, message):
    refused = with_team(teams_after_round_1(), number, *rounds)
    assert refusal(refused, System.TEAM_SWISS) == message


def test_the_first_problem_of_a_team_state_is_the_one_named():
    """A history that does not add up is named before a withdrawn team who is not in the event."""
    refused = dataclasses.replace(with_team(teams_after_round_1(), 1, match(3, "w", "1")), withdrawn=(5,))
    assert refusal(refused, System.TEAM_SWISS) == "round 1: team 1 needs a result on each of its 2 boards"
