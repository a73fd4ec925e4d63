"""Differential test: our interface (FIDE Dutch 2026 through gacrux) against pairing-core, an
independent Dutch 2026 kernel (MIT, test-only), on tournaments made by gacrux's random
tournament generator (zero-point, half-point and full-point byes, forfeits, draws).

Every round of every tournament is paired by both from the same state. Each disagreement is
classified (DISAGREEMENTS.md explains the classes):

* ``numbers``: pairing-core agrees once it numbers players as gacrux does (gacrux's running
  pairing number skips a player absent before his first game; pairing-core keeps start numbers);
* ``colours``: pairing-core agrees once the most recent differing colours (C.04.3 5.2.3) are
  looked for among the games played, as gacrux does, rather than round by round;
* ``core-impossible`` / ``core-budget``: pairing-core finds no pairing (it refuses a bracket
  whose players can only float down) or exhausts its step budget, where our pairing is legal;
* the rest, worked out by hand, are listed in ``BY_HAND`` with the reason.

Our pairing is also checked independently against the absolute criteria (C.04.1): everyone
present exactly once, no rematch over the board, no second PAB or PAB after a win without
playing, colour difference within 2 and no three running of one colour (topscorers excepted in
the last round).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations
from pathlib import Path
from types import SimpleNamespace

import pytest
from pairing_core.errors import EngineTimeoutError, ImpossiblePairingError
from pairing_core.fide2026 import common

from pairings import ByeType, PairingState, RoundPairing, pair_round, points
from pairings.checker import recorded_round
from pairings.trf import absent_in, read_event

from .builders import generated_tournaments
from .pairing_core_adapter import pairing_core_round

#: (players, rounds, files): gacrux generator seeds file k with k * 10000 + 4711
SETS = [(10, 5, range(12)), (12, 5, range(12)), (14, 6, range(4)), (16, 7, range(3))]
STEP_BUDGET = 100_000

#: disagreements no reading explains, each worked out by hand: (file, round) -> why. All four are
#: one pattern: pairing-core leaves a moved-down player (MDP) unpaired in the next bracket, so he
#: floats on, where gacrux pairs him there; gacrux's pairing has the lower downfloater scores
#: (C.04.3 C7) and meets every absolute criterion (checked below).
MDP_FLOATS_ON = "pairing-core floats MDP {mdp} on to a lower bracket; gacrux pairs him in the next one"
BY_HAND = {
    ("p10_r5_0003", 4): MDP_FLOATS_ON.format(mdp="7 (2 points: 7-3 against 1 point)"),
    ("p10_r5_0005", 5): MDP_FLOATS_ON.format(mdp="3 (3 points: 7-3 against 1.5)"),
    ("p10_r5_0007", 5): MDP_FLOATS_ON.format(mdp="4 (2.5 points: 1-4 against 1.5)"),
    ("p14_r6_0001", 6): MDP_FLOATS_ON.format(mdp="12 (2.5 points: 12-11 against 1.5)"),
}


def absolute_problems(state: PairingState, result: RoundPairing) -> list[str]:
    absent = set(state.withdrawn) | {b.start_number for b in state.requested_byes}
    present = sorted(p.start_number for p in state.players if p.start_number not in absent)
    seen = sorted(
        [n for b in result.boards for n in (b.white, b.black)]
        + [b.start_number for b in result.byes if b.type is ByeType.PAB]
    )
    problems = [] if seen == present else [f"paired {seen}, present {present}"]
    by_number = {p.start_number: p for p in state.players}
    last_round = state.round == state.total_rounds
    for board in result.boards:
        white, black = by_number[board.white], by_number[board.black]
        if any(e.opponent == black.start_number and e.code in "1=0WDL" for e in white.rounds):
            problems.append(f"{board.white}-{board.black} met before")
        for player, colour in ((white, "w"), (black, "b")):
            played = "".join(e.colour for e in player.rounds if e.opponent and e.code in "1=0WDL" and e.colour) + colour
            top = last_round and points(player, state.scoring) > state.scoring.win * (state.total_rounds - 1) / 2
            if not top and (abs(played.count("w") - played.count("b")) > 2 or played[-3:] in ("www", "bbb")):
                problems.append(f"player {player.start_number} would have colours {played}")
    for bye in result.byes:
        if bye.type is ByeType.PAB and any(e.code in "UF+" for e in by_number[bye.start_number].rounds):
            problems.append(f"player {bye.start_number} gets a second PAB or one after a win without playing")
    return problems


def replay_states(path: Path):
    event = read_event(path.read_bytes())
    for rnd in range(1, event.last_round_with_games + 1):
        present = {abs(n) for pair in recorded_round(event, rnd) for n in pair if n}
        absent = {
            p.start_number: absent_in(p.rounds[rnd - 1] if len(p.rounds) >= rnd else None)
            for p in event.tournament.participants
            if p.start_number not in present
        }
        yield rnd, event.state(rnd, absent=absent)


#: readings of the rules in which gacrux and pairing-core differ (see DISAGREEMENTS.md)
READINGS = ("gacrux_numbers", "played_colours", "topscorers_so_far")


def classify(state: PairingState, ours: RoundPairing) -> str:
    pab = next((b.start_number for b in ours.byes if b.type is ByeType.PAB), None)
    mine = ({(b.white, b.black) for b in ours.boards}, pab)
    try:
        if pairing_core_round(state, max_steps=STEP_BUDGET) == mine:
            return "same"
        for size in range(1, len(READINGS) + 1):
            for readings in combinations(READINGS, size):
                if pairing_core_round(state, max_steps=STEP_BUDGET, **dict.fromkeys(readings, True)) == mine:
                    return "+".join(readings)
    except ImpossiblePairingError:
        return "core-impossible"
    except EngineTimeoutError:
        return "core-budget"
    return "by-hand"


@pytest.fixture
def colour_facts_remembered(monkeypatch):
    """pairing-core works a player's colour history and preference (C.04.3 1.7) out again at each of the
    millions of candidate pairings it weighs (half of this file's time); both depend on the history's letters
    alone (``P26Player.colors``: the player is frozen), so each history's answer is remembered instead. The same
    functions give the same answers: pairing-core's pairings are unchanged."""
    played_colors, preference = common.played_colors, common.preference

    @cache
    def played(colors: str) -> str:
        return played_colors(SimpleNamespace(colors=colors))  # type: ignore[arg-type]

    @cache
    def preferred(colors: str, dubov_zero_game: bool) -> tuple[str | None, int]:
        return preference(SimpleNamespace(colors=colors), dubov_zero_game=dubov_zero_game)  # type: ignore[arg-type]

    monkeypatch.setattr(common, "played_colors", lambda p: played(p.colors))
    monkeypatch.setattr(common, "preference", lambda p, *, dubov_zero_game=False: preferred(p.colors, dubov_zero_game))


@pytest.fixture(scope="module")
def tournaments(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("differential")
    files: list[Path] = []
    for players, rounds, numbers in SETS:
        files += generated_tournaments(
            folder, players=players, rounds=rounds, first=numbers.start, count=len(numbers), byes=(0.04, 0.1, 0.05)
        )
    return files


def test_every_disagreement_is_classified(tournaments, colour_facts_remembered):
    classes: Counter[str] = Counter()
    unexplained = set()
    for path in tournaments:
        for rnd, state in replay_states(path):
            ours = pair_round(state, timeout=None)
            assert absolute_problems(state, ours) == [], (path.name, rnd)
            kind = classify(state, ours)
            classes[kind] += 1
            if kind == "by-hand":
                unexplained.add((path.stem, rnd))
    print(dict(classes))
    assert unexplained == set(BY_HAND)
    compared = sum(classes.values()) - classes["core-impossible"] - classes["core-budget"]
    assert classes["same"] > compared / 2, classes
