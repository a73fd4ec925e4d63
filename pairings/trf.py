"""A TRF file as the pairing engine's state (read through tiebreaks' TRF reader).

* The round to pair by default: the one after the last round with a game between two players.
* That round's column holds the byes entered before the pairing (``0000 - H``, ``- Z``, ``- F``;
  TRF-26 240 records are merged into it by the reader; ``0000 - =``, ``- +`` and ``- -`` read as
  H, F and Z), and ``XXZ`` lists players absent from it (Z).
* Total rounds: ``XXR`` or TRF-26 142; a file with neither cannot be paired.
* Initial colour: TRF-26 152; without it, the colour round 1 gave (C.04.3 5.2.5: the
  higher-ranked player of a board takes the initial colour when his pairing number is odd).
* Forbidden pairs: TRF-26 260 records whose rounds include the round to pair.
* System and acceleration: record 192 (a round-robin type pairs by Berger, ``..._BAKU`` adds the
  Baku acceleration); ``DOUBLE`` in it, or twice the rounds of one cycle, makes a double round robin.
* A TRF-26 team file (310 records, not a round robin) is a team Swiss (FIDE C.04.6): its teams' matches
  as the tiebreak engine reads them (boards, team byes 240 and 320, forfeits 330), the round's 240 byes
  (team numbers), 260 forbidden pairs of teams (:meth:`TRFEvent.team_state`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from itertools import combinations

from tiebreaks.engine import crosstable as kinds
from tiebreaks.engine.errors import EngineError
from tiebreaks.engine.model import Participant, Scoring, Tournament
from tiebreaks.engine.team_matches import TeamMatch, derive_team_event
from tiebreaks.trf import TRFError, decode_trf, read_trf

from .berger import berger_rounds
from .model import (
    BakuAcceleration,
    ByeType,
    PairingError,
    PairingState,
    Player,
    RequestedBye,
    RoundEntry,
    SwissTeam,
    System,
    TeamPairingState,
    TeamRound,
)

__all__ = ["TRFEvent", "read_event", "round_one_colour"]

#: codes of a round column without an opponent that are byes or absences entered before pairing
_PRE_ENTERED = {"H": ByeType.HALF, "=": ByeType.HALF, "F": ByeType.FULL, "+": ByeType.FULL}
_ABSENT = frozenset("Z-A")


@dataclass(frozen=True)
class TRFEvent:
    """What a TRF says about pairing: the tournament as read, and the pairing settings."""

    tournament: Tournament
    system: System
    initial_colour: str
    double_round_robin: bool
    baku: bool
    forbidden: tuple[tuple[int, int, tuple[int, ...]], ...]  # (first round, last round, players)
    absent_next: tuple[int, ...]  # XXZ

    @cached_property
    def last_round_with_games(self) -> int:
        return max(
            (r for p in self.tournament.participants for r, e in enumerate(p.rounds, 1) if e.opponent is not None),
            default=0,
        )

    def state(self, round_number: int, *, absent: dict[int, ByeType] | None = None) -> PairingState:
        """The state before ``round_number``: rounds 1..round_number-1 as played; ``absent`` are
        the round's byes (by default those entered in the file's column for it, and XXZ)."""
        for p in self.tournament.participants:
            for r, entry in enumerate(p.rounds[: round_number - 1], 1):
                if entry.code == " " and entry.opponent is not None:
                    raise PairingError(
                        f"round {r} is paired but its games have no result yet (player {p.start_number})"
                    )
        if absent is None:
            absent = self.pre_entered(round_number)
        forbidden = {
            (a, b)
            for first, last, players in self.forbidden
            if first <= round_number <= last
            for a, b in combinations(sorted(set(players)), 2)
        }
        t = self.tournament
        return PairingState(
            players=tuple(
                Player(p.start_number, p.rating, p.rounds[: round_number - 1], p.name) for p in t.participants
            ),
            round=round_number,
            total_rounds=t.total_rounds,
            requested_byes=tuple(RequestedBye(n, kind) for n, kind in sorted(absent.items())),
            forbidden_pairs=tuple(sorted(forbidden)),
            scoring=t.scoring,
            initial_colour=self.initial_colour,
            acceleration=BakuAcceleration() if self.baku and self.system is System.DUTCH else None,
            double_round_robin=self.double_round_robin,
        )

    def team_state(self, round_number: int) -> TeamPairingState:
        """A team Swiss before ``round_number``: every team's matches of the rounds before (board 1's
        colour, each board's result), its byes, and the round's 240 byes and 260 forbidden pairs."""
        t = self.tournament
        if self.baku:
            raise PairingError("a team Swiss with the Baku acceleration cannot be paired here")
        numbers = [team.number for team in t.teams]
        rounds: dict[int, list[TeamRound]] = {n: [] for n in numbers}
        boards = max((len(team.members) for team in t.teams), default=0)
        if round_number > 1:
            try:
                past = tuple(_before(line, round_number) for line in t.extra_records)
                event = derive_team_event(replace(t, rounds_computed=round_number - 1, extra_records=past))
            except EngineError as error:
                raise PairingError(f"the team file cannot be read: {error}") from None
            boards = event.boards
            for number, matches in zip(event.numbers, event.matches, strict=True):
                rounds[number] = [_team_round(m, boards) for m in matches]
        requested = {}
        for line in t.extra_records:
            if line[:3] == "240" and _number(line[6:9]) == round_number:
                kind = _TEAM_BYES.get(line[4:5].upper(), ByeType.ZERO)
                for pos in range(10, len(line), 5):
                    if _number(line[pos : pos + 4]):
                        requested[_number(line[pos : pos + 4])] = kind
        forbidden = {
            (a, b)
            for first, last, teams in self.forbidden
            if first <= round_number <= last
            for a, b in combinations(sorted(set(teams)), 2)
        }
        return TeamPairingState(
            teams=tuple(SwissTeam(n, tuple(rounds[n]), name) for n, name in zip(numbers, _names(t), strict=True)),
            round=round_number,
            total_rounds=t.total_rounds,
            boards=boards,
            requested_byes=tuple(RequestedBye(n, kind) for n, kind in sorted(requested.items())),
            forbidden_pairs=tuple(sorted(forbidden)),
            scoring=t.scoring,
            match_scoring=t.match_scoring or Scoring(Fraction(2), Fraction(1), Fraction(0)),
            initial_colour=self.initial_colour,
        )

    def pre_entered(self, round_number: int) -> dict[int, ByeType]:
        """The byes entered in the column of a round not yet paired (and XXZ, when it is the next)."""
        byes: dict[int, ByeType] = {}
        for p in self.tournament.participants:
            if len(p.rounds) < round_number:
                continue
            entry = p.rounds[round_number - 1]
            if entry.opponent is not None:
                raise PairingError(f"round {round_number} already has games (player {p.start_number})")
            if entry.code == "U":
                raise PairingError(
                    f"player {p.start_number} has a pairing-allocated bye in round {round_number}, "
                    "which is not paired yet"
                )
            if entry.code in _PRE_ENTERED:
                byes[p.start_number] = _PRE_ENTERED[entry.code]
            elif entry.code in _ABSENT:
                byes[p.start_number] = ByeType.ZERO
        if round_number == self.last_round_with_games + 1:
            for number in self.absent_next:
                byes.setdefault(number, ByeType.ZERO)
        return byes


#: a team's round without a match, by the tiebreak engine's kind
_TEAM_BYE_KINDS = {kinds.PAB: ByeType.PAB, kinds.FPB: ByeType.FULL, kinds.HPB: ByeType.HALF, kinds.ZPB: ByeType.ZERO}
_TEAM_BYES = {"F": ByeType.FULL, "H": ByeType.HALF, "Z": ByeType.ZERO}


def _number(text: str) -> int:
    return int(text) if text.strip().isdigit() else 0


def _before(line: str, round_number: int) -> str:
    """A team bye record (240, 320) with only the rounds before ``round_number``."""
    if line[:3] == "240" and _number(line[6:9]) >= round_number:
        return "###"  # a later round's byes: not read
    if line[:3] == "320":
        return line[: 14 + 4 * (round_number - 1)].rstrip()
    return line


def _names(t: Tournament) -> list[str]:
    return [team.name for team in t.teams]


def _team_round(match: TeamMatch, boards: int) -> TeamRound:
    """A team's round as the tiebreak engine reads it from the file, as the pairing sees it."""
    if match.opponent is None:
        return TeamRound(bye=_TEAM_BYE_KINDS.get(match.kind))
    codes = tuple(b.code for b in sorted(match.boards, key=lambda b: b.board))[:boards]
    return TeamRound(match.opponent, "b" if match.black else "w", codes)


def absent_in(entry: RoundEntry | None) -> ByeType:
    """The bye a recorded round without a game stands for (for replaying a played round)."""
    if entry is None:
        return ByeType.ZERO
    return _PRE_ENTERED.get(entry.code, ByeType.ZERO)


def read_event(data: bytes | str, system: System | None = None) -> TRFEvent:
    """Read a TRF for pairing; a file that cannot be read raises :class:`PairingError` (one line)."""
    try:
        tournament = read_trf(data)
        text = decode_trf(data)
    except TRFError as error:
        raise PairingError(str(error)) from None
    if not re.search(r"^(142|XXR)", text, re.MULTILINE):
        raise PairingError("the number of rounds is not in the file (record 142 or XXR)")
    records: dict[str, list[str]] = {}
    for line in tournament.extra_records:
        records.setdefault(line[:3].upper(), []).append(line)
    count = len(tournament.participants)
    forbidden: list[tuple[int, int, tuple[int, ...]]] = []
    for line in records.get("260", []):
        numbers = [int(x) for x in re.findall(r"\d+", line[3:])]
        if len(numbers) < 4:
            raise PairingError(f"prohibited pairing record {line.strip()!r} needs two rounds and two players")
        first, last, *players = numbers
        unknown = [n for n in players if not 1 <= n <= count]
        if unknown:
            raise PairingError(f"prohibited pairing {line.strip()!r} names player {unknown[0]}, who is not in the file")
        forbidden.append((first, last or first, tuple(players)))
    absent_next = tuple(
        int(x) for line in records.get("XXZ", []) for x in re.split(r"[\s,/]+", line[3:].strip()) if x.isdigit()
    )
    event_type = tournament.event_type
    if system is None and tournament.teams and not tournament.round_robin:
        system = System.TEAM_SWISS
    if system is None:
        system = System.BERGER if tournament.round_robin else System.DUTCH
    slots = berger_rounds(count)
    double = "DOUBLE" in event_type or tournament.total_rounds == 2 * slots
    return TRFEvent(
        tournament=tournament,
        system=system,
        initial_colour=_initial_colour(records, tournament),
        double_round_robin=double,
        baku="BAKU" in event_type,
        forbidden=tuple(forbidden),
        absent_next=absent_next,
    )


def _initial_colour(records: dict[str, list[str]], tournament: Tournament) -> str:
    for line in records.get("152", []):
        colour = line[4:].strip()[:1].lower()
        if colour in ("w", "b"):
            return colour
    return round_one_colour(tournament.participants)


def round_one_colour(players: Iterable[Participant | Player]) -> str:
    """The initial colour that round 1 gave (C.04.3 5.2.5), "w" when round 1 has no board."""
    for p in sorted(players, key=lambda p: p.start_number):  # start-number order: the first board of round 1 found
        entry = p.rounds[0] if p.rounds else None
        if entry and entry.opponent and entry.opponent > p.start_number and entry.colour in ("w", "b"):
            odd = p.start_number % 2 == 1
            return entry.colour if odd else ("b" if entry.colour == "w" else "w")
    return "w"
