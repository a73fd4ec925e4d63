"""The crosstable prepared once per computation and shared by every criterion.

Everything is an integer: points are scaled by ``unit`` (the least common multiple of the
scoring system's denominators), so 1/½/0 scoring gives win 2, draw 1, loss 0. Criteria sum
integers and convert to :class:`~fractions.Fraction` only at the end.

Per participant (by index ``0..N-1``) and round (``0..k-1``): the kind of round, the scheduled
opponent's index (-1 for none), the colour, the scaled points, and - via :mod:`.unplayed` - the
Article 16 category, the adjusted score and the dummy opponents.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from .errors import EngineError
from .model import Tournament, last_paired_round

# round kinds (small ints for speed; names match model.Kind)
PLAYED, UNKNOWN, FORFEIT_WIN, FORFEIT_LOSS, PAB, FPB, HPB, ZPB, ABSENT = range(9)
GAME_KINDS = frozenset({PLAYED, UNKNOWN})  # over the board
FORFEIT_KINDS = frozenset({FORFEIT_WIN, FORFEIT_LOSS})
REQUESTED_BYE_KINDS = frozenset({HPB, ZPB, ABSENT})  # 16.1.1 (with absences, note to 16.1.1)
VUR_KINDS = frozenset({HPB, ZPB, ABSENT, FORFEIT_LOSS})  # 16.1.2
_BYES = frozenset({PAB, FPB, HPB, ZPB})  # codes that mean "not paired" even with an opponent number


class Crosstable:
    """Integer view of a :class:`~tiebreaks.engine.model.Tournament` (see module docstring)."""

    def __init__(self, tournament: Tournament) -> None:
        participants = tournament.participants
        self.tournament = tournament
        self.n_players = len(participants)
        self.start_numbers = [p.start_number for p in participants]
        self.names = [p.name for p in participants]
        self.ratings = [p.rating if p.rating else None for p in participants]
        self.round_ratings = [p.round_ratings for p in participants]
        self.index: dict[int, int] = {}
        for i, sn in enumerate(self.start_numbers):
            if sn in self.index:
                raise EngineError(f"start number {sn} appears twice")
            self.index[sn] = i
        k = tournament.rounds_computed
        if k is None:
            k = last_paired_round(p.rounds for p in participants)
        self.k = k
        self.round_robin = bool(tournament.round_robin)
        self.fore = False

        s = tournament.scoring
        values = [s.win, s.draw, s.loss, s.absence, s.pab_points, s.unknown_points]
        unit = 1
        for value in values:
            unit = lcm(unit, Fraction(value).denominator)
        self.unit = unit

        def scaled(v: Fraction) -> int:
            return int(Fraction(v) * unit)

        self.W, self.D, self.L = scaled(s.win), scaled(s.draw), scaled(s.loss)
        self.A, self.P, self.X = scaled(s.absence), scaled(s.pab_points), scaled(s.unknown_points)

        index = self.index
        classify = self._classification()
        kinds: list[list[int]] = []
        opps: list[list[int]] = []
        pts: list[list[int]] = []
        black: list[list[bool]] = []
        halves: list[list[int]] = []  # 1/½/0 scale in halves, for games (Art. 10): 2, 1, 0
        absent = classify[(" ", False)]
        paired_last: list[int] = []
        get_class = classify.get
        for p in participants:
            entries = p.rounds[:k]
            try:
                raw = [index[e.opponent] if e.opponent else -1 for e in entries]
            except KeyError:
                bad = next(r for r, e in enumerate(entries) if e.opponent and e.opponent not in index)
                raise EngineError(
                    f"participant {p.start_number}, round {bad + 1}: opponent {entries[bad].opponent} does not exist"
                ) from None
            classes = [get_class((e.code, o >= 0)) for e, o in zip(entries, raw, strict=True)]
            if None in classes:  # unusual spelling: normalise; unknown codes read as blank
                classes = [
                    c if c is not None else get_class(((e.code or " ").strip().upper() or " ", o >= 0), absent)
                    for c, e, o in zip(classes, entries, raw, strict=True)
                ]
            if len(entries) < k:  # a right-trimmed line: the missing rounds are absences
                classes += [absent] * (k - len(entries))
                raw += [-1] * (k - len(entries))
            kinds.append([c[0] for c in classes])  # type: ignore[index]
            pts.append([c[1] for c in classes])  # type: ignore[index]
            halves.append([c[2] for c in classes])  # type: ignore[index]
            opps.append([o if c[3] else -1 for o, c in zip(raw, classes, strict=True)])  # type: ignore[index]
            colours = [e.colour == "b" or e.colour == "B" for e in entries]
            if len(colours) < k:
                colours += [False] * (k - len(colours))
            black.append(colours)
            if k:
                # paired for the final round, whatever the result (also a game not played yet)
                last_class = classes[k - 1]
                paired_last.append(raw[k - 1] if last_class[0] not in _BYES else -1)  # type: ignore[index]
        self.kinds = kinds
        #: scheduled opponent in the last computed round (-1: none), even if no result is known yet
        self.paired_last = paired_last
        self.opps = opps
        self.pts = pts
        self.black = black
        self.halves = halves
        self.score = [sum(pp) for pp in pts]

    def _classification(self) -> dict[tuple[str, bool], tuple[int, int, int, bool]]:
        """(TRF result code, has opponent) -> (kind, scaled points, halves, keeps opponent).

        Codes as in trf-format.md §4; a forfeit or game code without an opponent is read as the
        corresponding bye (FIDE's checker does the same); unknown codes as blank (absent).
        """
        W, D, L, A, P, X = self.W, self.D, self.L, self.A, self.P, self.X
        with_opponent = {
            "1": (PLAYED, W, 2), "W": (PLAYED, W, 2),
            "=": (PLAYED, D, 1), "D": (PLAYED, D, 1),
            "0": (PLAYED, L, 0), "L": (PLAYED, L, 0),
            "X": (UNKNOWN, X, 1), "?": (UNKNOWN, X, 1),
            "+": (FORFEIT_WIN, W, 0), "-": (FORFEIT_LOSS, A, 0),
        }  # fmt: skip
        without_opponent = {
            "U": (PAB, P, 0),
            "F": (FPB, W, 0), "+": (FPB, W, 0), "1": (FPB, W, 0), "W": (FPB, W, 0),
            "H": (HPB, D, 0), "=": (HPB, D, 0), "D": (HPB, D, 0), "X": (HPB, D, 0), "?": (HPB, D, 0),
            "Z": (ZPB, A, 0), "-": (ZPB, A, 0), "0": (ZPB, A, 0), "L": (ZPB, A, 0),
            " ": (ABSENT, A, 0), "A": (ABSENT, A, 0),
        }  # fmt: skip
        table: dict[tuple[str, bool], tuple[int, int, int, bool]] = {}
        for code, (kind, v, h) in with_opponent.items():
            for variant in {code, code.lower()}:
                table[(variant, True)] = (kind, v, h, True)
        for code, (kind, v, h) in without_opponent.items():
            for variant in {code, code.lower()}:
                table[(variant, False)] = (kind, v, h, False)
                table.setdefault((variant, True), (kind, v, h, False))  # bye code with an opponent
        table[("", False)] = table[("", True)] = table[(" ", False)]
        return table

    # ------------------------------------------------------------------------------------
    def fore_view(self) -> Crosstable:
        """A copy in which every game paired for the final round is a draw (FB, 8.3)."""
        other = Crosstable.__new__(Crosstable)
        other.__dict__.update(self.__dict__)
        other.fore = True
        last = self.k - 1
        if last < 0:
            return other
        D = self.D
        kinds, opps, pts = list(self.kinds), list(self.opps), list(self.pts)
        halves = list(self.halves)
        for i, o in enumerate(self.paired_last):
            if o >= 0:
                kinds[i] = [*kinds[i][:last], PLAYED]
                opps[i] = [*opps[i][:last], o]
                pts[i] = [*pts[i][:last], D]
                halves[i] = [*halves[i][:last], 1]
        other.kinds, other.opps, other.pts, other.halves = kinds, opps, pts, halves
        other.score = [sum(pp) for pp in pts]
        return other

    def frac(self, value: int) -> Fraction:
        """A scaled score as an exact Fraction."""
        return Fraction(value, self.unit)
