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
from .model import Tournament

# round kinds (small ints for speed; names match model.Kind)
PLAYED, UNKNOWN, FORFEIT_WIN, FORFEIT_LOSS, PAB, FPB, HPB, ZPB, ABSENT = range(9)
KIND_NAMES = ("played", "unknown", "forfeit_win", "forfeit_loss", "pab", "fpb", "hpb", "zpb", "absent")
GAME_KINDS = frozenset({PLAYED, UNKNOWN})  # over the board
FORFEIT_KINDS = frozenset({FORFEIT_WIN, FORFEIT_LOSS})
REQUESTED_BYE_KINDS = frozenset({HPB, ZPB, ABSENT})  # 16.1.1 (with absences, note to 16.1.1)
VUR_KINDS = frozenset({HPB, ZPB, ABSENT, FORFEIT_LOSS})  # 16.1.2

_WIN_CODES = frozenset("1W")
_DRAW_CODES = frozenset("=D")
_LOSS_CODES = frozenset("0L")


class Crosstable:
    """Integer view of a :class:`~tiebreaks.engine.model.Tournament` (see module docstring)."""

    def __init__(self, tournament: Tournament, *, fore: bool = False) -> None:
        participants = tournament.participants
        self.tournament = tournament
        self.n_players = len(participants)
        self.start_numbers = [p.start_number for p in participants]
        self.names = [p.name for p in participants]
        self.ratings = [p.rating if p.rating else None for p in participants]
        self.index: dict[int, int] = {}
        for i, sn in enumerate(self.start_numbers):
            if sn in self.index:
                raise EngineError(f"start number {sn} appears twice")
            self.index[sn] = i
        k = tournament.rounds_computed
        if k is None:
            k = max((len(p.rounds) for p in participants), default=0)
        self.k = k
        self.round_robin = bool(tournament.round_robin)
        self.fore = fore

        s = tournament.scoring
        values = [s.win, s.draw, s.loss, s.absence, s.pab_points, s.unknown_points]
        unit = 1
        for v in values:
            unit = lcm(unit, Fraction(v).denominator)
        self.unit = unit

        def scaled(v: Fraction) -> int:
            return int(Fraction(v) * unit)

        self.W, self.D, self.L = scaled(s.win), scaled(s.draw), scaled(s.loss)
        self.A, self.P, self.X = scaled(s.absence), scaled(s.pab_points), scaled(s.unknown_points)

        index = self.index
        W, D, L, A, P, X = self.W, self.D, self.L, self.A, self.P, self.X
        kinds: list[list[int]] = []
        opps: list[list[int]] = []
        pts: list[list[int]] = []
        black: list[list[bool]] = []
        halves: list[list[int]] = []  # 1/½/0 scale in halves, for games (Art. 10): 2, 1, 0
        for p in participants:
            pk: list[int] = []
            po: list[int] = []
            pp: list[int] = []
            pb: list[bool] = []
            ph: list[int] = []
            rounds = p.rounds
            for r in range(k):
                if r < len(rounds):
                    e = rounds[r]
                    code = (e.code or " ").strip().upper() or " "
                    opp_sn = e.opponent
                    colour = (e.colour or "").lower()
                else:
                    code, opp_sn, colour = " ", None, ""
                o = -1
                if opp_sn:
                    if opp_sn not in index:
                        raise EngineError(
                            f"participant {p.start_number}, round {r + 1}: opponent {opp_sn} does not exist"
                        )
                    o = index[opp_sn]
                h = 0
                if o >= 0 and code in _WIN_CODES:
                    kind, v, h = PLAYED, W, 2
                elif o >= 0 and code in _DRAW_CODES:
                    kind, v, h = PLAYED, D, 1
                elif o >= 0 and code in _LOSS_CODES:
                    kind, v, h = PLAYED, L, 0
                elif o >= 0 and code in ("X", "?"):
                    kind, v, h = UNKNOWN, X, 1
                elif o >= 0 and code == "+":
                    kind, v = FORFEIT_WIN, W
                elif o >= 0 and code == "-":
                    kind, v = FORFEIT_LOSS, A
                elif code == "U":
                    kind, v = PAB, P
                elif code in ("F", "+", "1", "W"):  # full-point bye (a win without opponent)
                    kind, v = FPB, W
                elif code in ("H", "=", "D", "X", "?"):  # half-point bye
                    kind, v = HPB, D
                elif code == "Z" or code in ("-", "0", "L"):
                    kind, v = ZPB, A
                else:  # blank, "A": not paired / absent / withdrawn
                    kind, v = ABSENT, A
                if kind not in GAME_KINDS and kind not in FORFEIT_KINDS:
                    o = -1
                if fore and r == k - 1 and o >= 0:
                    # Fore Buchholz (8.3): every game paired for the final round is a draw
                    kind, v, h = PLAYED, D, 1
                pk.append(kind)
                po.append(o)
                pp.append(v)
                pb.append(colour == "b")
                ph.append(h)
            kinds.append(pk)
            opps.append(po)
            pts.append(pp)
            black.append(pb)
            halves.append(ph)
        self.kinds = kinds
        self.opps = opps
        self.pts = pts
        self.black = black
        self.halves = halves
        self.score = [sum(pp) for pp in pts]

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
        kinds, pts, halves = list(self.kinds), list(self.pts), list(self.halves)
        for i, opps in enumerate(self.opps):
            if opps[last] >= 0:
                kinds[i] = kinds[i][:last] + [PLAYED]
                pts[i] = pts[i][:last] + [D]
                halves[i] = halves[i][:last] + [1]
        other.kinds, other.pts, other.halves = kinds, pts, halves
        other.score = [sum(pp) for pp in pts]
        return other

    def frac(self, value: int) -> Fraction:
        """A scaled score as an exact Fraction."""
        return Fraction(value, self.unit)
