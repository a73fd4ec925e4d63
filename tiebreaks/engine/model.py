"""The engine's input model: a crosstable in the shape of TRF round blocks.

Pure Python; imports nothing from Django. Every number is exact (Fraction).
The Django side (leagues) and the TRF reader (tiebreaks.trf) both build these objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction


class Kind(StrEnum):
    """What happened to one participant in one round (spec tiebreak-rules §2)."""

    PLAYED = "played"  # 1 = 0 W D L
    UNKNOWN = "unknown"  # X / ? : played, result not known yet
    FORFEIT_WIN = "forfeit_win"  # +
    FORFEIT_LOSS = "forfeit_loss"  # -  (double forfeit: both sides)
    PAB = "pab"  # U  pairing-allocated bye
    FPB = "fpb"  # F  full-point bye
    HPB = "hpb"  # H  half-point bye
    ZPB = "zpb"  # Z  zero-point bye
    ABSENT = "absent"  # blank / A : not paired, withdrawn, not yet entered


@dataclass(frozen=True)
class Scoring:
    """Points of the game scoring system (TRF record 162)."""

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    absence: Fraction = Fraction(0)
    pab: Fraction | None = None  # None: same as win
    unknown: Fraction | None = None  # None: same as draw

    @property
    def pab_points(self) -> Fraction:
        return self.win if self.pab is None else self.pab

    @property
    def unknown_points(self) -> Fraction:
        return self.draw if self.unknown is None else self.unknown


@dataclass(frozen=True)
class RoundEntry:
    """One round of one participant, as in a TRF round block.

    `code` is the TRF result code (1 = 0 W D L + - U F H Z X ? A or " "), from which the
    kind and the awarded points follow; `opponent` is the scheduled opponent's start number
    (None for byes and absences); `colour` is "w", "b" or None.
    """

    code: str
    opponent: int | None = None
    colour: str | None = None


@dataclass(frozen=True)
class Participant:
    start_number: int
    name: str
    rating: int | None = None  # None: unrated; the rating at the start of the event (the first rating)
    rounds: tuple[RoundEntry, ...] = ()  # index 0 = round 1
    #: the rating in each round when a newer rating list applied during the event (index 0 = round 1; a
    #: round beyond its end keeps its last value; None or 0: unrated in that round); () = ``rating`` throughout.
    #: Read only when the computation is asked for ratings per round (``compute_standings(ratings_per_round=)``)
    round_ratings: tuple[int | None, ...] = ()
    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    rank: int | None = None  # rank stated in the source (TRF cols 86-89); never used to rank


@dataclass(frozen=True)
class Team:
    """A team of a team event (TRF 013/310): members' start numbers in board order."""

    number: int
    name: str
    members: tuple[int, ...]


@dataclass(frozen=True)
class ManualOrder:
    """A decision (the chief arbiter's, the organiser's) ordering players still tied after the whole tie-break
    list: their start numbers first to last, the reason, who decided and when (ISO date); read by ``MAN``."""

    start_numbers: tuple[int, ...]
    reason: str
    decided_by: str = ""  # who decided: "chief_arbiter" or "organiser"
    decided_on: str = ""
    recorded_by: str = ""  # who recorded it (a user name)


@dataclass(frozen=True)
class ExternalValue:
    """A participant's value of one criterion set from outside the computation (a decision with its reason: a
    value from another stage, a correction the arbiter ruled), used in place of the computed one."""

    start_number: int
    criterion: str  # the criterion's code as listed (e.g. "BH/C1")
    value: Fraction
    reason: str
    decided_by: str = ""  # "chief_arbiter" or "organiser"
    decided_on: str = ""
    recorded_by: str = ""


@dataclass(frozen=True)
class PlayoffGame:
    """One play-off game (not a round of the event: it counts for no points and no tie-break). ``result``:
    ``1-0``, ``0-1`` or ``1/2``; in an ``armageddon`` game a draw counts as a win for Black."""

    white: int
    black: int
    result: str
    armageddon: bool = False


@dataclass(frozen=True)
class Playoff:
    """Play-off games between tied players deciding ``place`` (1 = first); read by ``PO``."""

    place: int
    games: tuple[PlayoffGame, ...]


@dataclass
class Tournament:
    participants: list[Participant]
    total_rounds: int  # rounds announced (n)
    scoring: Scoring = field(default_factory=Scoring)
    name: str = ""
    #: k: the last round to compute; None = the last round with a pairing (:func:`last_paired_round`)
    rounds_computed: int | None = None
    round_robin: bool = False  # pre-determined pairings (Art. 15.2)
    tiebreaks: list[str] = field(default_factory=list)  # list published in the file (202/212), if any
    teams: list[Team] = field(default_factory=list)
    match_scoring: Scoring | None = None  # team match points (TRF 362), team events only
    start_date: str = ""  # ISO date (TRF 042), "" = unknown
    end_date: str = ""  # ISO date (TRF 052)
    event_type: str = ""  # encoded tournament type (TRF 192), e.g. "FIDE_DUTCH_2025"
    extra_records: tuple[str, ...] = ()  # other TRF lines (022, 102, 132, 172, NRS, ...) kept for export
    manual_orders: tuple[ManualOrder, ...] = ()  # decisions among players still tied (criterion MAN)
    playoffs: tuple[Playoff, ...] = ()  # play-offs deciding places before the tie-breaks (criterion PO)
    external_values: tuple[ExternalValue, ...] = ()  # values set from outside, each with its reason


def last_paired_round(rounds_of: Iterable[Sequence[RoundEntry]]) -> int:
    """The last round in which two participants were paired, by a game or a forfeit (``rounds_of``:
    each participant's rounds): the round standings are computed after by default. A later round
    holding only byes entered before its pairing (``0000 - H``, ``0000 - Z``) is not counted.
    (FIDE's checker counts played games only; the two differ only for a round whose every pairing
    was forfeited.) Without any pairing, every round in the data."""
    last = longest = 0
    for rounds in rounds_of:
        longest = max(longest, len(rounds))
        for r in range(len(rounds), last, -1):
            if rounds[r - 1].opponent is not None:
                last = r
                break
    return last or longest
