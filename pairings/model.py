"""The pairing engine's input and output: plain frozen dataclasses, exact numbers.

One interface for every system (:func:`pairings.pair_round`): the caller describes the event as it
stands before the round to pair (:class:`PairingState`) and gets the round back
(:class:`RoundPairing`). A player's past rounds are TRF round blocks (:class:`RoundEntry`, the
same type the tiebreak engine reads), so colour history, float history, byes already received and
points all follow from one record; :func:`points` and :func:`colours` derive the figures a
pairing screen shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from tiebreaks.engine.model import RoundEntry, Scoring
from tiebreaks.trf.codes import points_of

__all__ = [
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
    "colours",
    "points",
]


class PairingError(ValueError):
    """A round that cannot be paired; ``str()`` is one line saying why. Nothing was paired."""


class System(StrEnum):
    """The pairing systems, named as the command line's JSON names them."""

    DUTCH = "dutch-2026"  # FIDE C.04.3, approved 1 Feb 2026, through gacrux
    BERGER = "berger"  # FIDE C.05 Annex 1 round-robin tables
    TEAM_SWISS = "fide-team-2026"  # FIDE C.04.6 (Swiss team pairing, 1 Feb 2026), through gacrux


class ByeType(StrEnum):
    PAB = "PAB"  # pairing-allocated bye (TRF U), worth the event's PAB value
    HALF = "H"  # half-point bye, requested
    ZERO = "Z"  # zero-point bye / known absence, requested
    FULL = "F"  # full-point bye, requested


#: the byes a player may request before a round is paired (the PAB is the engine's to give)
REQUESTED_BYE_TYPES = frozenset({ByeType.HALF, ByeType.ZERO, ByeType.FULL})


@dataclass(frozen=True)
class Player:
    """One participant: start number (1..N, the pairing number), rating, and the rounds already
    played, one TRF round block each (index 0 = round 1; a missing round counts as absent)."""

    start_number: int
    rating: int | None = None  # None: unrated
    rounds: tuple[RoundEntry, ...] = ()
    name: str = ""


@dataclass(frozen=True)
class RequestedBye:
    """A bye asked for (or an absence announced) before the round is paired."""

    start_number: int
    type: ByeType


@dataclass(frozen=True)
class BakuAcceleration:
    """FIDE's Baku acceleration (C.04.7 Art. 1, formerly C.04.5.1).

    GA is start numbers 1..``last_ga_player``; None means the rule's 2 * ceil(N / 4) for the N
    players of the event. Give the number when players entered late: the last GA player stays the
    one of round 1.
    """

    last_ga_player: int | None = None


@dataclass(frozen=True)
class PairingState:
    """The event before ``round`` is paired.

    ``withdrawn`` players are left out of this round (and are not listed as byes);
    ``requested_byes`` are the byes of this round asked for before the pairing; ``forbidden_pairs``
    are the pairs that must not meet in this round (same club, same family: TRF-26 260);
    ``scoring.pab`` is the value of the pairing-allocated bye; ``initial_colour`` ("w" or "b") is
    the colour drawn by lot for the first player in round 1.
    """

    players: tuple[Player, ...]
    round: int
    total_rounds: int
    requested_byes: tuple[RequestedBye, ...] = ()
    withdrawn: tuple[int, ...] = ()
    forbidden_pairs: tuple[tuple[int, int], ...] = ()
    scoring: Scoring = field(default_factory=Scoring)
    initial_colour: str = "w"
    acceleration: BakuAcceleration | None = None
    double_round_robin: bool = False  # Berger only: two cycles, colours reversed in the second


@dataclass(frozen=True)
class TeamRound:
    """One round of a team in a team Swiss: a match, or a round without one.

    ``opponent`` is the other team's start number; ``colour`` the team's colour on board 1 ("w" or
    "b"; the colours alternate down the boards); ``boards`` the team's result on each board in board
    order, as TRF codes from the team's side (``1 = 0 + - W D L``). Without an opponent, ``bye`` says
    which bye the team had (PAB, H, F or Z); None is an absence."""

    opponent: int | None = None
    colour: str | None = None
    boards: tuple[str, ...] = ()
    bye: ByeType | None = None


@dataclass(frozen=True)
class SwissTeam:
    """A team of a team Swiss: start number (its pairing number, TPN), its rounds so far."""

    start_number: int
    rounds: tuple[TeamRound, ...] = ()
    name: str = ""


@dataclass(frozen=True)
class TeamPairingState:
    """A team Swiss before ``round`` is paired (FIDE C.04.6, type A colour preferences, match points
    primary and game points for colours).

    ``boards`` is the number of boards of a match; ``scoring`` the game points of a board,
    ``match_scoring`` the match points of a match won, drawn or lost. A team's pairing-allocated
    bye is worth a drawn match (``match_scoring.draw``) and a draw on every board, as at Olympiads.
    ``withdrawn``, ``requested_byes``, ``forbidden_pairs`` and ``initial_colour`` are as in
    :class:`PairingState`, with team start numbers."""

    teams: tuple[SwissTeam, ...]
    round: int
    total_rounds: int
    boards: int
    requested_byes: tuple[RequestedBye, ...] = ()
    withdrawn: tuple[int, ...] = ()
    forbidden_pairs: tuple[tuple[int, int], ...] = ()
    scoring: Scoring = field(default_factory=Scoring)
    match_scoring: Scoring = field(default_factory=lambda: Scoring(Fraction(2), Fraction(1), Fraction(0)))
    initial_colour: str = "w"


@dataclass(frozen=True)
class Board:
    number: int
    white: int
    black: int


@dataclass(frozen=True)
class Bye:
    start_number: int
    type: ByeType


@dataclass(frozen=True)
class RoundPairing:
    """A complete round: boards in FIDE order (C.04.2), then the byes (PAB first, then the
    requested byes by start number)."""

    round: int
    system: str
    boards: tuple[Board, ...]
    byes: tuple[Bye, ...]

    def to_json(self) -> dict[str, object]:
        """The command line's JSON shape (DESIGN.md, "The pairing command line")."""
        return {
            "round": self.round,
            "system": self.system,
            "pairings": [{"board": b.number, "white": b.white, "black": b.black} for b in self.boards],
            "byes": [{"start_number": b.start_number, "type": str(b.type)} for b in self.byes],
        }


def points(player: Player, scoring: Scoring) -> Fraction:
    """The player's score from the rounds played (a missing round counts as an absence)."""
    return sum((points_of(entry.code, scoring) for entry in player.rounds), Fraction(0))


def colours(player: Player) -> str:
    """The colours of the games played over the board, in round order ("wbw"): forfeits and byes
    give no colour (C.04.2)."""
    return "".join(e.colour for e in player.rounds if e.colour and e.opponent and e.code not in "+-")
