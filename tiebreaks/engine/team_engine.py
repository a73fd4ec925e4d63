"""The computation shared by one team ranking: the derived matches, the individual engine run on
crosstables whose participants are the teams (MP and GP), and each criterion's column."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import floor
from typing import Any

from .context import Computed, Context
from .direct_encounter import order_group
from .errors import EngineError
from .model import Tournament
from .registry import INTEGER_CRITERIA, SCALAR_CRITERIA
from .rules import RuleSet
from .team_criteria import BOARD_COUNTS, CHAINS, ESB, PLACE_CRITERIA, TEAM_NAMES, TeamCriterion
from .team_matches import TeamCrosstable, TeamEvent, derive_team_event
from .unplayed import Article16, cut_elements


# --- contexts: the individual engine on team crosstables -------------------------------------------
class TeamContext(Context):
    """A :class:`Context` whose crosstable has the teams as participants (MP or GP scoring)."""

    def __init__(self, tournament: Tournament, rules: RuleSet, ct: TeamCrosstable) -> None:
        self.tournament = tournament
        self.rules = rules
        self.ct = ct
        self.unrated_rating = None
        self.ratings_per_round = False
        self._a16: Article16 | None = None
        self._fore: Context | None = None
        self.cache: dict[Any, Any] = {}


class TeamEngine:
    """Everything one computation shares: the event, both contexts, computed columns."""

    def __init__(self, tournament: Tournament, rules: RuleSet, primary: str) -> None:
        self.event: TeamEvent = derive_team_event(tournament)
        self.rules = rules
        self.primary = primary
        self.secondary = "GP" if primary == "MP" else "MP"
        self.ctx = {
            "MP": TeamContext(tournament, rules, TeamCrosstable(self.event, "MP")),
            "GP": TeamContext(tournament, rules, TeamCrosstable(self.event, "GP")),
        }
        n = len(self.event.numbers)
        self.n = n
        self.totals = {
            "MP": [self.event.mp_total(i) for i in range(n)],
            "GP": [self.event.gp_total(i) for i in range(n)],
        }
        self._bp: list[list[Fraction]] | None = None

    def score_of(self, crit: TeamCriterion) -> str:
        return crit.score or self.primary

    @property
    def board_points(self) -> list[list[Fraction]]:
        if self._bp is None:
            self._bp = [self.event.board_points(i) for i in range(self.n)]
        return self._bp

    # ---- scalar values ---------------------------------------------------------------------
    def values(self, crit: TeamCriterion) -> list[Fraction | None]:
        name = crit.name
        if name == "MPTS":
            return list(self.totals["MP"])
        if name == "GPTS":
            return list(self.totals["GP"])
        if name == "MPVGP":
            return list(self.totals[self.secondary])
        if name in ESB:
            return [self._esb(crit, i)[0] for i in range(self.n)]
        if name == "BC":
            return [sum((b * p for b, p in enumerate(bp, start=1)), Fraction(0)) for bp in self.board_points]
        if name == "SSSC":
            return self._sssc(crit)[0]
        if name in BOARD_COUNTS and self.score_of(crit) == "GP":
            return [sum((v for _, v, _ in self._board_flags(crit.name, i)), Fraction(0)) for i in range(self.n)]
        base = crit.base
        if base is None:
            raise RuntimeError("the criterion has a base criterion")
        ctx = self.ctx[self.score_of(crit)]
        computed: Computed = ctx.memo(("computed", base.code), lambda: SCALAR_CRITERIA[name][0](ctx, base))
        return computed.fractions()

    def _esb(self, crit: TeamCriterion, i: int) -> tuple[Fraction, list[tuple[Any, Fraction, Fraction, str | None]]]:
        """(value, [(element, Y points, contribution, removal reason)]) of an ESB criterion."""
        x_name, y_name = ESB[crit.name]
        if crit.base is None:
            raise RuntimeError("the criterion has a base criterion")
        xctx, yct = self.ctx[x_name], self.ctx[y_name].ct
        els = xctx.a16.elements(crit.base.forfeits_as_games)[i]
        xden, yden = xctx.ct.unit, yct.unit
        contributions = [e.value * yct.pts[i][e.round] for e in els]
        removals = cut_elements(
            [(e.value, c) for e, c in zip(els, contributions, strict=True)],
            contributions,
            [e.vur for e in els],
            low=crit.base.cut + crit.base.median,
            high=crit.base.median,
            vur_first=self.rules.cut_vur_first,
        )
        removed = {r.position: r.reason for r in removals}
        rows = [
            (e, Fraction(yct.pts[i][e.round], yden), Fraction(c, xden * yden), removed.get(j))
            for j, (e, c) in enumerate(zip(els, contributions, strict=True))
        ]
        value = sum((c for _, _, c, rm in rows if rm is None), Fraction(0))
        return value, rows

    def _sssc(self, crit: TeamCriterion) -> tuple[list[Fraction | None], list[Fraction], Fraction]:
        """(rounded values, exact primary Buchholz values, divisor)."""
        base = crit.base
        if base is None:
            raise RuntimeError("the criterion has a base criterion")
        ctx = self.ctx[self.primary]
        bh = ctx.memo(("computed", base.code), lambda: SCALAR_CRITERIA[base.name][0](ctx, base))
        bh_values = [v if v is not None else Fraction(0) for v in bh.fractions()]
        divisor = crit.divisor if crit.divisor is not None else self.sssc_divisor()
        out: list[Fraction | None] = []
        for i in range(self.n):
            exact = self.totals[self.secondary][i] + bh_values[i] / divisor
            out.append(Fraction(floor(exact * 100 + Fraction(1, 2)), 100))  # 0.01, half up (checker)
        return out, bh_values, divisor

    def sssc_divisor(self) -> Fraction:
        """floor(highest primary score of the event / highest secondary score of one match) (13.4)."""
        ev = self.event
        k = ev.k
        match_w, game_w = Fraction(ev.match_scoring.win), Fraction(ev.game_scoring.win)
        if self.primary == "MP":
            divisor = floor(match_w * k / (game_w * ev.boards)) if game_w and ev.boards else 0
        else:
            divisor = floor(game_w * ev.boards * k / match_w) if match_w else 0
        if divisor <= 0:
            raise EngineError(
                "SSSC: the divisor rounds down to 0 for this event (C.07 13.4 gives no value); "
                "give one with /K, e.g. SSSC/K1"
            )
        return Fraction(divisor)

    def _board_flags(self, name: str, i: int) -> list[tuple[int, Fraction, Any]]:
        """(round, count, board or None) per board for WIN/WON/BPG/BWG/STD with :GP (per board)."""
        ev = self.event
        gs = ev.game_scoring
        W, D = Fraction(gs.win), Fraction(gs.draw)
        out: list[tuple[int, Fraction, Any]] = []
        for m in ev.matches[i]:
            if m.boards:
                for b in m.boards:
                    if name == "WIN":
                        v = Fraction(int(b.points == W))
                    elif name == "WON":
                        v = Fraction(int(b.played and b.points == W))
                    elif name == "BPG":
                        v = Fraction(int(b.played and b.black))
                    elif name == "BWG":
                        v = Fraction(int(b.played and b.black and b.points == W))
                    else:  # STD: against the opposing board (or the draw value for an empty board)
                        other = b.opponent_points if b.opponent_points is not None else D
                        v = Fraction(1) if b.points > other else Fraction(1, 2) if b.points == other else Fraction(0)
                    out.append((m.round, v, b))
                continue
            per_board = m.game_points / ev.boards if ev.boards else Fraction(0)
            for _ in range(ev.boards):
                if name == "WIN":
                    v = Fraction(int(per_board == W))
                elif name == "STD":
                    v = Fraction(1) if per_board > D else Fraction(1, 2) if per_board == D else Fraction(0)
                else:
                    v = Fraction(0)
                out.append((m.round, v, None))
        return out

    # ---- group criteria (place inside the tied group) -------------------------------------
    def equal_mp_gp(self, group: list[int]) -> bool:
        mp, gp = self.totals["MP"], self.totals["GP"]
        return len({(mp[i], gp[i]) for i in group}) == 1

    def order(self, crit: TeamCriterion, group: list[int]) -> list[list[int]]:
        name = crit.name
        if name == "DE":
            if crit.base is None:
                raise RuntimeError("the criterion has a base criterion")
            return order_group(self.ctx[self.score_of(crit)], crit.base, group)
        if name in ("TBR", "BBE"):
            if not self.equal_mp_gp(group):
                return [group]
            return self._board_order(name, group)
        if crit.base is None:
            raise RuntimeError("the criterion has a base criterion")
        return self._ede(crit, group)

    def _board_key(self, name: str, i: int) -> tuple[Fraction, ...]:
        bp = self.board_points[i]
        if name == "TBR":  # GP on board 1, then board 2, ...
            return tuple(bp)
        total = sum(bp, Fraction(0))  # BBE: all boards but the last, then all but the last two, ...
        keys = []
        for j in range(len(bp) - 1, -1, -1):
            total -= bp[j]
            keys.append(total)
        return tuple(keys)

    def _board_order(self, name: str, group: list[int]) -> list[list[int]]:
        keyed: dict[tuple[Fraction, ...], list[int]] = {}
        for i in group:
            keyed.setdefault(self._board_key(name, i), []).append(i)
        return [keyed[key] for key in sorted(keyed, reverse=True)]

    def _ede(self, crit: TeamCriterion, group: list[int]) -> list[list[int]]:
        """13.3: Article 6 on the primary score, then on the secondary; every new tied subset
        starts again from the primary score; a chain's knock-out steps for exactly two teams."""
        if len(group) <= 1:
            return [group]
        if crit.base is None:
            raise RuntimeError("the criterion has a base criterion")
        for score in (self.primary, self.secondary):
            subs = order_group(self.ctx[score], crit.base, group)
            if len(subs) > 1:
                out: list[list[int]] = []
                for sub in subs:
                    out.extend(self._ede(crit, sub) if len(sub) > 1 else [sub])
                return out
        if len(group) == 2:
            for step in CHAINS[crit.name]:
                subs = self._knockout(step, group)
                if len(subs) > 1:
                    return subs
        return [group]

    def _knockout(self, step: str, group: list[int]) -> list[list[int]]:
        if step == "C":
            bc = self.values(TeamCriterion("BC", "BC"))
            a, b = group
            va, vb = bc[a], bc[b]
            if va is None or vb is None:
                raise RuntimeError("BC has a value for every team")
            if va == vb:
                return [group]
            return [[a], [b]] if va < vb else [[b], [a]]
        return self._board_order("TBR" if step == "T" else "BBE", group)


@dataclass
class Column:
    crit: TeamCriterion
    values: list[Fraction | None]
    groups: dict[int, list[int]] = field(default_factory=dict)  # place criteria: the tied group


def is_integer_column(crit: TeamCriterion, eng: TeamEngine) -> bool:
    if crit.name in PLACE_CRITERIA:
        return True
    if crit.name in BOARD_COUNTS and crit.name != "STD":
        return True
    return crit.name in INTEGER_CRITERIA and crit.name not in TEAM_NAMES
