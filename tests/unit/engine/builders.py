"""Small helpers to write consistent crosstables in tests (both sides of every game)."""

from __future__ import annotations

from fractions import Fraction

from tiebreaks.engine.model import Participant, RoundEntry, Scoring, Tournament

_COMPLEMENT = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+", "--": "-"}
_POINTS = {"1": "win", "W": "win", "+": "win", "=": "draw", "D": "draw", "0": "loss", "L": "loss"}


class TournamentBuilder:
    """Build a crosstable game by game.

    >>> b = TournamentBuilder(rounds=5)
    >>> b.game(1, "P", "A", "1")        # round 1: P (white) beats A
    >>> b.bye(3, "P", "H")              # round 3: half-point bye
    >>> b.fill("A", Fraction(7, 2))     # A's other rounds: games vs fresh fillers reaching 3.5
    >>> t = b.tournament()
    """

    def __init__(self, rounds: int, scoring: Scoring | None = None, round_robin: bool = False) -> None:
        self.rounds = rounds
        self.scoring = scoring or Scoring()
        self.round_robin = round_robin
        self.labels: list[str] = []
        self.entries: dict[str, dict[int, RoundEntry]] = {}
        self.ratings: dict[str, int | None] = {}
        self._fillers = 0

    def player(self, label: str, rating: int | None = None) -> str:
        if label not in self.entries:
            self.labels.append(label)
            self.entries[label] = {}
            self.ratings[label] = rating
        elif rating is not None:
            self.ratings[label] = rating
        return label

    def sn(self, label: str) -> int:
        return self.labels.index(label) + 1

    def game(self, rnd: int, white: str, black: str, result: str) -> None:
        """``result`` from White's side: 1 = 0 W D L + - or ``--`` (double forfeit)."""
        self.player(white)
        self.player(black)
        for label in (white, black):
            if rnd in self.entries[label]:
                raise ValueError(f"{label} already has round {rnd}")
        own = "-" if result == "--" else result
        self.entries[white][rnd] = RoundEntry(own, self.sn(black), "w")
        self.entries[black][rnd] = RoundEntry(_COMPLEMENT[result], self.sn(white), "b")

    def bye(self, rnd: int, label: str, code: str) -> None:
        self.player(label)
        self.entries[label][rnd] = RoundEntry(code, None, None)

    def points(self, label: str) -> Fraction:
        s = self.scoring
        total = Fraction(0)
        for e in self.entries[label].values():
            if e.opponent is not None and e.code in _POINTS:
                total += getattr(s, _POINTS[e.code]) if e.code != "-" else s.absence
            elif e.code == "-":
                total += s.absence
            elif e.code in ("U",):
                total += s.pab_points
            elif e.code == "F":
                total += s.win
            elif e.code == "H":
                total += s.draw
        return total

    def fill(self, label: str, target: Fraction | float | str) -> None:
        """Play ``label``'s unassigned rounds against fresh fillers so that it ends on ``target``."""
        need = Fraction(str(target)) - self.points(label)
        s = self.scoring
        for rnd in range(1, self.rounds + 1):
            if rnd in self.entries[label]:
                continue
            self._fillers += 1
            filler = self.player(f"filler{self._fillers}")
            if need >= s.win:
                result, need = "1", need - s.win
            elif need >= s.draw and need > 0:
                result, need = "=", need - s.draw
            else:
                result = "0"
            self.game(rnd, label, filler, result)
        if need != 0:
            raise ValueError(f"cannot reach {target} for {label}")

    def tournament(self) -> Tournament:
        participants = []
        for label in self.labels:
            rounds = tuple(self.entries[label].get(r, RoundEntry(" ")) for r in range(1, self.rounds + 1))
            participants.append(Participant(self.sn(label), label, self.ratings[label], rounds))
        # every round of the builder counts, also one where nobody was paired (all absent)
        return Tournament(
            participants, self.rounds, scoring=self.scoring, round_robin=self.round_robin, rounds_computed=self.rounds
        )
