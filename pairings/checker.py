"""FIDE's Pairing-and-Tiebreak Checker: replay every round of a TRF and compare with the engine, and check
that the file's final ranking follows its tie-break list.

Round r is paired from rounds 1..r-1 as recorded, with every player who has no game and no PAB in
round r absent (their recorded bye, else Z). The recorded round and the engine's agree when they
have the same games with the same colours (a forfeit with unknown colours matches either way)
and the same pairing-allocated bye.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from tiebreaks.engine import compute_standings
from tiebreaks.engine.errors import EngineError
from tiebreaks.engine.model import Tournament

from .engine import BY_SIZE, pair_round
from .model import ByeType, PairingError, RoundPairing
from .trf import TRFEvent, absent_in

__all__ = ["RankDifference", "RoundCheck", "StandingsCheck", "check_event", "check_standings"]


@dataclass(frozen=True)
class RoundCheck:
    round: int
    recorded: tuple[tuple[int, int], ...]  # (white, black) as in the file; black 0 = the PAB
    engine: tuple[tuple[int, int], ...]  # the engine's boards, then (PAB, 0); empty when it failed
    problem: str | None = None  # why the engine could not pair the round

    @property
    def same(self) -> bool:
        return self.problem is None and _key(self.recorded, self.unknown_colours) == _key(
            self.engine, self.unknown_colours
        )

    @property
    def unknown_colours(self) -> frozenset[frozenset[int]]:
        return frozenset(frozenset(p) for p in self.recorded if p[1] < 0)

    def to_json(self) -> dict[str, object]:
        return {
            "round": self.round,
            "same": self.same,
            "recorded": [_pair_json(p) for p in self.recorded],
            "engine": [_pair_json(p) for p in self.engine],
            "problem": self.problem,
        }


def _pair_json(pair: tuple[int, int]) -> dict[str, int]:
    white, black = pair
    if black == 0:
        return {"pab": white}
    return {"white": white, "black": abs(black)}


def _key(pairs: tuple[tuple[int, int], ...], unknown: frozenset[frozenset[int]]) -> frozenset[object]:
    return frozenset(frozenset((w, abs(b))) if frozenset((w, abs(b))) in unknown else (w, abs(b)) for w, b in pairs)


def recorded_round(event: TRFEvent, round_number: int) -> tuple[tuple[int, int], ...]:
    """The file's round: (white, black) by white's start number; a forfeit with unknown colours is
    (lower, -higher); the PAB is (player, 0)."""
    pairs: list[tuple[int, int]] = []
    for p in event.tournament.participants:
        if len(p.rounds) < round_number:
            continue
        entry = p.rounds[round_number - 1]
        if entry.code == "U":
            pairs.append((p.start_number, 0))
        elif entry.opponent is not None:
            if entry.colour == "w":
                pairs.append((p.start_number, entry.opponent))
            elif entry.colour is None and p.start_number < entry.opponent:
                pairs.append((p.start_number, -entry.opponent))
    return tuple(pairs)


def check_event(event: TRFEvent, *, timeout: float | Literal["by size"] | None = BY_SIZE) -> list[RoundCheck]:
    """Every round with games, replayed."""
    checks: list[RoundCheck] = []
    for rnd in range(1, event.last_round_with_games + 1):
        recorded = recorded_round(event, rnd)
        present = {abs(n) for pair in recorded for n in pair if n}
        absent = {
            p.start_number: absent_in(p.rounds[rnd - 1] if len(p.rounds) >= rnd else None)
            for p in event.tournament.participants
            if p.start_number not in present
        }
        try:
            result = pair_round(event.state(rnd, absent=absent), event.system, timeout=timeout)
        except PairingError as error:
            checks.append(RoundCheck(rnd, recorded, (), str(error)))
            continue
        checks.append(RoundCheck(rnd, recorded, _engine_pairs(result)))
    return checks


def _engine_pairs(result: RoundPairing) -> tuple[tuple[int, int], ...]:
    boards = tuple((b.white, b.black) for b in result.boards)
    return boards + tuple((bye.start_number, 0) for bye in result.byes if bye.type is ByeType.PAB)


@dataclass(frozen=True)
class RankDifference:
    """A participant the file ranks where the tie-break list does not put them."""

    start_number: int
    name: str
    file_rank: int
    ranks: tuple[int, int]  # the places the tie-break list allows (first, last: shared places)
    points: Fraction
    values: dict[str, Fraction | None]

    def to_json(self) -> dict[str, object]:
        return {
            "start_number": self.start_number,
            "name": self.name,
            "file_rank": self.file_rank,
            "rank": list(self.ranks),
            "points": _number(self.points),
            "values": {code: _number(value) for code, value in self.values.items()},
        }


@dataclass(frozen=True)
class StandingsCheck:
    """Whether the file's final ranking (its rank column, else the order of its player records) follows the
    tie-break list."""

    rules: str  # the rule set the list was applied under
    criteria: tuple[str, ...]
    ranked_by: str  # "rank column" or "record order"
    differences: tuple[RankDifference, ...]

    @property
    def follows(self) -> bool:
        return not self.differences

    def to_json(self) -> dict[str, object]:
        return {
            "rules": self.rules,
            "criteria": list(self.criteria),
            "ranked_by": self.ranked_by,
            "follows": self.follows,
            "differences": [d.to_json() for d in self.differences],
        }


def _number(value: Fraction | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if value.denominator == 1 else float(value)


def check_standings(
    tournament: Tournament, criteria: list[str] | None = None, rules: str = "fide-2026"
) -> StandingsCheck | None:
    """Rank the file by its tie-break list (or ``criteria``) and compare with the file's own ranking. A shared
    place (equal after every criterion) allows either order; any other inversion is a difference. None when
    there is no list to follow."""
    if criteria is None:
        criteria = [c for c in tournament.tiebreaks if c != "PTS"]
    if not criteria:
        return None
    try:
        standings = compute_standings(tournament, criteria, rules=rules, allow_buchholz_in_round_robin=True)
    except EngineError as error:
        raise PairingError(str(error)) from None
    participants = tournament.participants
    if all(p.rank for p in participants):
        ranked_by, file_rank = "rank column", {p.start_number: p.rank or 0 for p in participants}
    else:
        ranked_by, file_rank = "record order", {p.start_number: index for index, p in enumerate(participants, 1)}
    shared = Counter(row.rank for row in standings.rows)
    differences = tuple(
        RankDifference(row.start_number, row.name, file_rank[row.start_number], span, row.points, dict(row.values))
        for row in standings.rows
        if not (span := (row.rank, row.rank + shared[row.rank] - 1))[0] <= file_rank[row.start_number] <= span[1]
    )
    return StandingsCheck(rules, tuple(standings.criteria), ranked_by, differences)
