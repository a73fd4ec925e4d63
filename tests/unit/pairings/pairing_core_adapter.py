"""Our PairingState in pairing-core's Dutch 2026 shape (test-only: the differential test).

pairing-core (MIT, an independent Dutch 2026 kernel) wants each player's pairing facts
precomputed; they are derived here from the same round blocks our engine hands to gacrux:

* score: points of the rounds played (the event's scoring);
* colors: W/B per round played over the board, ``u`` for every other round (byes, forfeits,
  absences: C.04.2 — no colour);
* opponents: opponents met over the board (a forfeit is not a game played, C.04.1);
* unplayed: rounds without a game over the board (C.04.3 C9);
* floats of the last two rounds (C.04.3 C14-C21): a game against a higher (lower) score is an
  upfloat (downfloat); points without playing (PAB, full- or half-point bye, forfeit win) count
  as a downfloat, as in gacrux;
* got_pab / forfeit_win: C.04.1, a PAB or a win-value score without playing bars the next PAB.
"""

from __future__ import annotations

from fractions import Fraction
from typing import cast

from pairing_core.fide2026 import DUTCH_2026, P26Player, P26Request, pair_2026

from pairings import PairingState, points

_PLAYED = frozenset("1=0WDL")


def _float(state: PairingState, number: int, rnd: int, scores: dict[int, list[Fraction]]) -> str:
    entry = state.players[number - 1].rounds[rnd - 1]
    if entry.opponent is not None and entry.code in _PLAYED:
        own, other = scores[number][rnd - 1], scores[entry.opponent][rnd - 1]
        return "D" if own > other else "U" if own < other else ""
    if (entry.opponent is None and entry.code in "UFH") or entry.code == "+":
        return "D"
    return ""


def pairing_core_round(
    state: PairingState,
    *,
    max_steps: int,
    gacrux_numbers: bool = False,
    played_colours: bool = False,
    topscorers_so_far: bool = False,
) -> tuple[set[tuple[int, int]], int | None]:
    """pairing-core's (white, black) pairs and PAB for the state's round.

    Two readings of the rules where the engines differ, to tell a disagreement's cause:
    ``gacrux_numbers`` numbers the players as gacrux does (a running count that skips players
    absent before their first game); ``played_colours`` gives pairing-core the colour history
    with the unplayed rounds moved to the front, so the most recent differing colours (C.04.3
    5.2.3) are looked for among games played, as gacrux does; ``topscorers_so_far`` makes the
    last round's topscorers those above half the maximum score possible when the round is
    paired (rounds - 1 wins), as gacrux does, not half of all the rounds."""
    from pairings.model import Player

    # score before each round, for the floats
    scores: dict[int, list[Fraction]] = {}
    for p in state.players:
        running = [Fraction(0)]
        for r in range(1, len(p.rounds) + 1):
            running.append(points(Player(p.start_number, rounds=p.rounds[:r]), state.scoring))
        scores[p.start_number] = running
    absent = set(state.withdrawn) | {b.start_number for b in state.requested_byes}
    rnd = state.round
    players = []
    number = 0
    for p in state.players:
        ever_paired = any(e.opponent is not None or e.code == "U" for e in p.rounds)
        if p.start_number not in absent or ever_paired:
            number += 1
        if p.start_number in absent:
            continue
        over_board = [e for e in p.rounds if e.opponent is not None and e.code in _PLAYED]
        colors = "".join(
            e.colour.upper() if e.opponent is not None and e.code in _PLAYED and e.colour else "u" for e in p.rounds
        )
        if played_colours:
            colors = "u" * colors.count("u") + colors.replace("u", "")
        players.append(
            P26Player(
                id=p.start_number,
                tpn=number if gacrux_numbers else p.start_number,
                score=float(scores[p.start_number][-1]),
                rating=p.rating,
                colors=colors,
                opponents=tuple(sorted({cast(int, e.opponent) for e in over_board if e.opponent not in absent})),
                unplayed=len(p.rounds) - len(over_board),
                last_float=_float(state, p.start_number, rnd - 1, scores) if rnd > 1 else "",
                prev_float=_float(state, p.start_number, rnd - 2, scores) if rnd > 2 else "",
                got_pab=any(e.code == "U" for e in p.rounds),
                forfeit_win=any(e.code in "+F" for e in p.rounds),
                played=len(over_board),
            )
        )
    result = pair_2026(
        P26Request(
            players=tuple(players),
            ruleset=DUTCH_2026,
            round_number=rnd,
            # pairing-core's topscorer limit is total_rounds / 2
            total_rounds=state.total_rounds - 1 if topscorers_so_far else state.total_rounds,
            is_last_round=rnd == state.total_rounds,
            initial_colour=state.initial_colour.upper(),
            max_steps=max_steps,
        )
    )
    return {(pair.white_id, pair.black_id) for pair in result.pairs}, result.bye_id
