"""Pairing engine: one interface for every system, pure Python (no Django, nothing from leagues).

    >>> from pairings import PairingState, Player, pair_round, System
    >>> result = pair_round(PairingState(players=(...), round=5, total_rounds=9))
    >>> result.boards[0].white, result.byes

Systems: FIDE Dutch (C.04.3, 2026) through gacrux, FIDE TEC's reference implementation (MIT,
(c) FIDE), optionally with the Baku acceleration (C.04.7 Art. 1); FIDE's Berger tables (C.05
Annex 1), single and double; FIDE's Swiss team system (C.04.6, 2026) through gacrux
(:mod:`pairings.team_swiss`). :mod:`pairings.trf` reads a TRF into a state,
:mod:`pairings.checker` replays a file's rounds, ``python -m pairings`` is the command line.
"""

from .berger import berger_cycle, berger_round, berger_rounds
from .engine import DEFAULT_TIMEOUT, pair_round, state_problem
from .model import (
    BakuAcceleration,
    Board,
    Bye,
    ByeType,
    PairingError,
    PairingState,
    Player,
    RequestedBye,
    RoundEntry,
    RoundPairing,
    Scoring,
    SwissTeam,
    System,
    TeamPairingState,
    TeamRound,
    colours,
    points,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "BakuAcceleration",
    "Board",
    "Bye",
    "ByeType",
    "PairingError",
    "PairingState",
    "Player",
    "RequestedBye",
    "RoundEntry",
    "RoundPairing",
    "Scoring",
    "SwissTeam",
    "System",
    "TeamPairingState",
    "TeamRound",
    "berger_cycle",
    "berger_round",
    "berger_rounds",
    "colours",
    "pair_round",
    "points",
    "state_problem",
]
