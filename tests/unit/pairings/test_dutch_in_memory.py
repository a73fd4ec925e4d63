"""Issue #37: gacrux is given the event in its own in-memory form instead of TRF text for its reader.

Both ways must pair every round alike: the same boards, colours and board order, the same
pairing-allocated bye, the same refusal. The oracle is the long way (our TRF text through gacrux's
own reader, then the same engine), on tournaments made by the Random Tournament Generator and then
given what the generator does not make: forbidden pairs, a PAB worth half a point, late entries,
withdrawals, forfeits with unknown colours.
"""

from __future__ import annotations

import gc
import random
from dataclasses import replace
from fractions import Fraction

import pytest

from pairings import PairingError, PairingState, Player, RoundEntry, Scoring
from pairings.checker import recorded_round
from pairings.dutch import dutch_pairs, gacrux_pairs, gacrux_trf
from pairings.generator import TournamentPlan, generate
from pairings.trf import absent_in, read_event

PLANS = (
    TournamentPlan(players=17, rounds=6, seed=3, zpb=0.05, hpb=0.08, forfeits=0.1),
    TournamentPlan(players=24, rounds=7, seed=8, baku=True, zpb=0.05, hpb=0.05, forfeits=0.08),
    TournamentPlan(players=31, rounds=6, seed=21, hpb=0.1, forfeits=0.15),
    TournamentPlan(players=40, rounds=7, seed=5, baku=True, zpb=0.08, forfeits=0.05),
    TournamentPlan(players=12, rounds=5, seed=13, forfeits=0.3),
)


def _states(plan: TournamentPlan) -> list[PairingState]:
    """Every round of the generated tournament as it stood before its pairing."""
    event = read_event(generate(plan))
    states = []
    for rnd in range(1, event.last_round_with_games + 1):
        present = {abs(n) for pair in recorded_round(event, rnd) for n in pair if n}
        absent = {
            p.start_number: absent_in(p.rounds[rnd - 1] if len(p.rounds) >= rnd else None)
            for p in event.tournament.participants
            if p.start_number not in present
        }
        states.append(event.state(rnd, absent=absent))
    return states


def _unknown_colours(player: Player) -> Player:
    """Forfeits recorded without colours (as some files have them)."""
    rounds = tuple(replace(e, colour=None) if e.opponent and e.code in "+-" else e for e in player.rounds)
    return replace(player, rounds=rounds)


def _sorted_pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


def _harder(state: PairingState, rng: random.Random, first_board: tuple[int, int] | None) -> PairingState:
    """The state with what the generator does not make."""
    count = len(state.players)
    late = (
        Player(count + 1, 1650, ()),  # entered now: every earlier round an absence
        Player(count + 2, None, tuple(RoundEntry("H") for _ in range(min(2, state.round - 1)))),
    )
    present = [
        p.start_number for p in state.players if p.start_number not in {b.start_number for b in state.requested_byes}
    ]
    withdrawn = (rng.choice(present),) if state.round > 1 else ()
    forbidden = {_sorted_pair(*rng.sample(present, 2))}
    if first_board and not set(first_board) & set(withdrawn):
        forbidden.add(_sorted_pair(*first_board))  # the pair the engine chose first may not meet
    return replace(
        state,
        players=tuple(_unknown_colours(p) for p in state.players) + late,
        withdrawn=withdrawn,
        forbidden_pairs=tuple(sorted(forbidden)),
        scoring=Scoring(pab=Fraction(1, 2)),
    )


def _both_ways(state: PairingState) -> tuple[object, object]:
    answers: list[object] = []
    for pairing in (lambda: gacrux_pairs(gacrux_trf(state), state.round), lambda: dutch_pairs(state)):
        try:
            answers.append(pairing())
        except PairingError as error:
            answers.append(("refused", str(error)))
    return answers[0], answers[1]


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: f"{p.players}x{p.rounds}-seed{p.seed}{'-baku' if p.baku else ''}")
def test_pairing_in_memory_gives_the_same_round_as_through_trf_text(plan):
    rng = random.Random(plan.seed)
    compared = refused = 0
    for state in _states(plan):
        through_text, in_memory = _both_ways(state)
        assert in_memory == through_text, f"round {state.round}"
        first_board = through_text[0] if isinstance(through_text, list) and through_text[0][1] else None
        harder = _harder(state, rng, first_board)
        through_text, in_memory = _both_ways(harder)
        assert in_memory == through_text, f"round {state.round} with forbidden pairs, late entries, PAB ½"
        compared += 2
        refused += isinstance(through_text, tuple)
    assert compared >= 2 * (plan.rounds - 1) and refused < compared


def test_a_round_without_a_legal_pairing_is_refused_alike():
    """Two players who met already cannot meet again: both ways refuse the round, saying the same."""
    met = (Player(1, 2000, (RoundEntry("1", 2, "w"),)), Player(2, 1900, (RoundEntry("0", 1, "b"),)))
    state = PairingState(players=met, round=2, total_rounds=3)
    through_text, in_memory = _both_ways(state)
    assert isinstance(through_text, tuple) and "round 2 cannot be paired" in through_text[1]
    assert in_memory == through_text


@pytest.mark.parametrize("collecting", [True, False], ids=["collector on", "collector off"])
def test_pairing_in_this_process_leaves_the_garbage_collector_as_it_found_it(collecting):
    """gacrux pairs with Python's cyclic collector paused: a program pairing in its own process (the
    command line, the tests) finds it as it was, after a round paired and after a round refused."""
    met = (Player(1, 2000, (RoundEntry("1", 2, "w"),)), Player(2, 1900, (RoundEntry("0", 1, "b"),)))
    fresh = (Player(1, 2000), Player(2, 1900), Player(3, 1800))
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        assert len(dutch_pairs(PairingState(players=fresh, round=1, total_rounds=3))) == 2
        assert gc.isenabled() is collecting
        with pytest.raises(PairingError, match="round 2 cannot be paired"):
            dutch_pairs(PairingState(players=met, round=2, total_rounds=3))
        assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()
