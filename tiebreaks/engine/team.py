"""Team competitions (C.07 Articles 11-13 and 16, spec tiebreak-rules §10): ranking teams.

>>> standings = compute_team_standings(tournament, ["MPTS", "EDE", "GPTS", "BH:MP"])  # doctest: +SKIP
>>> standings.rows[0].team_number, standings.rows[0].values["GPTS"]                   # doctest: +SKIP
(3, Fraction(33, 2))

The matches come from the board games (:mod:`.team_matches`); teams are ranked by the primary
score (match points unless ``primary="GP"``), then by each criterion of the list:

* ``MPTS`` / ``GPTS`` match / game points; ``MPVGP`` the secondary score (13.1);
* ``EMMSB EMGSB EGMSB EGGSB`` (``ESB:MM`` ...): extended Sonneborn-Berger (13.2), opponent's
  total in the first score x points scored against them in the second, Article 16 dummies for
  unplayed matches; ``/C1`` removes the opponent with the lowest total (16.5 applies);
* ``EDE`` extended direct encounter (13.3): Article 6 on the primary score, then - if that
  separates nobody - on the secondary score, restarting with every new tied subset; the chains
  ``EDEBT EDEBB EDET EDEB`` then break a remaining tie of exactly two teams with BC + TBR,
  BC + BBE, TBR, BBE (counted over the whole event, as C.07 Article 12 says);
* ``BC`` board count (lower is better), ``TBR`` top board results, ``BBE`` bottom board
  elimination (Article 12): applied only among teams equal on MP and GP;
* ``SSSC`` (13.4): secondary score + Buchholz of the primary score / divisor, rounded to 0.01;
* every individual criterion with ``:MP`` or ``:GP`` (none = primary): ``BH:MP/C1``, ``SB:GP``,
  ``PS:MP``, ``KS:MP``, ``AOB:MP``, ``FB:MP``, ``DE:MP``, ``WIN``, ``WON``, ``STD`` ... computed
  by the individual engine on a crosstable whose participants are the teams.

``EDE``, ``DE``, ``TBR``, ``BBE`` and the chains report, like FIDE's checker, the place inside
the group of teams tied when the criterion is reached (1, 2, ...), 0 when it separated nobody.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import floor
from typing import Any

from . import reasons as R
from .context import Computed, Context
from .criteria import BUCHHOLZ_FAMILY, RATING_CRITERIA, Criterion, parse_criterion
from .crosstable import PLAYED
from .direct_encounter import explain_direct_encounter, mutual_scores, order_group, places
from .errors import CriterionNotAllowed, EngineError, UnknownCriterion
from .explain import Trace, TraceElement
from .model import Tournament
from .ranking import Note, Separation, _group_ids, _json_number, competition_order
from .registry import INTEGER_CRITERIA, SCALAR_CRITERIA
from .rules import RuleSet, get_rule_set
from .team_matches import TeamCrosstable, TeamEvent, TeamMatch, derive_team_event
from .unplayed import Article16, cut_elements

# --- Team reason codes (same style as .reasons: stable values, one-line meaning) ------------------
# match points from the match result: more game points wins, equal (both above 0) is a draw
TEAM_MATCH_POINTS = "team_match_points"
TEAM_GAME_POINTS = "team_game_points"  # game points: the sum of the team's board points in the match
# a match in which no board was played over the board: a team forfeit, an unplayed round (Art. 16)
TEAM_MATCH_FORFEITED = "team_match_forfeited"
TEAM_BYE = "team_bye"  # the team had no opponent that round (PAB, bye or absence)
TEAM_SECONDARY_SCORE = "team_secondary_score"  # the score that does not decide the standings (13.1)
# ESB: opponent's total in one score x points scored against them in the other (13.2)
TEAM_ESB_ELEMENT = "team_esb_element"
TEAM_BOARD_POINTS = "team_board_points"  # game points the team scored on one board over the event (Art. 12)
TEAM_BOARD_COUNT = "team_board_count"  # BC: board number x game points on that board; lower is better (12.1)
# BC / TBR / BBE apply only among teams equal on match and game points (Art. 12): not applied here
TEAM_KNOCKOUT_NOT_APPLICABLE = "team_knockout_not_applicable"
# SSSC: Buchholz of the primary score divided by the divisor, added to the secondary score (13.4)
TEAM_SSSC_SCHEDULE_SHARE = "team_sssc_schedule_share"
# EDE: points scored against the other tied teams in the primary, then the secondary score (13.3)
TEAM_EDE_MUTUAL_SCORE = "team_ede_mutual_score"
# EDE chain: a tie of exactly two teams broken by board count / top board / bottom board (13.3.2)
TEAM_EDE_KNOCKOUT_STEP = "team_ede_knockout_step"
TEAM_BOARD_RESULT = "team_board_result"  # one board of one match (counting criteria with :GP)
# a team PAB with no match points given (TRF 362 P): a drawn match's MP, a win on every board
TEAM_PAB_DEFAULT = "team_pab_default"
TEAM_REASONS: frozenset[str] = frozenset(
    value for name, value in dict(globals()).items() if name.startswith("TEAM_") and isinstance(value, str)
)

_TEAM_NAMES = frozenset(
    {"MPTS", "GPTS", "MPVGP", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "EDE", "EDEBT", "EDEBB", "EDET", "EDEB"}
    | {"BC", "TBR", "BBE", "SSSC"}
)
_ESB = {"EMMSB": ("MP", "MP"), "EMGSB": ("MP", "GP"), "EGMSB": ("GP", "MP"), "EGGSB": ("GP", "GP")}
_CHAINS = {"EDE": "", "EDEBT": "CT", "EDEBB": "CB", "EDET": "T", "EDEB": "B"}
_PLACE_CRITERIA = frozenset({"DE", "EDE", "EDEBT", "EDEBB", "EDET", "EDEB", "TBR", "BBE"})
_BOARD_COUNTS = frozenset({"WIN", "WON", "BPG", "BWG", "STD"})
_K_RE = re.compile(r"^K(\d+(?:\.\d+)?)$")


@dataclass(frozen=True)
class TeamCriterion:
    """A parsed team descriptor (``NAME[:MP|:GP][/MOD]...``).

    ``score``: the reference score given with ``:MP`` / ``:GP`` (None: the primary score);
    ``base``: the individual criterion behind it (individual names, ESB cuts, EDE ``/P``, SSSC
    ``/P`` ``/F``); ``divisor``: SSSC ``/K``.
    """

    code: str
    name: str
    score: str | None = None
    base: Criterion | None = None
    divisor: Fraction | None = None

    def __str__(self) -> str:
        return self.code


def parse_team_criterion(code: str) -> TeamCriterion:
    """Parse one team descriptor; raise UnknownCriterion with a one-line message if invalid."""
    if not isinstance(code, str) or not code.strip():
        raise UnknownCriterion(f"empty tie-break criterion: {code!r}")
    text = code.strip().upper().replace("!", "/").replace("#", "/")
    head, *mods = text.split("/")
    head = head.split("@", 1)[0]
    name, _, score = head.partition(":")
    score = score.strip()
    if name == "ESB":  # checker spelling ESB:MG = EMGSB
        if score not in ("MM", "MG", "GM", "GG"):
            raise UnknownCriterion(f"unknown criterion {code!r}: ESB needs :MM, :MG, :GM or :GG")
        name, score = f"E{score}SB", ""
    if score and score not in ("MP", "GP"):
        raise UnknownCriterion(f"unknown reference score :{score} in {code!r} (use :MP or :GP)")
    suffix = f":{score}" if score else ""
    if name in ("MPTS", "GPTS", "MPVGP", "BC", "TBR", "BBE"):
        if mods or score:
            raise UnknownCriterion(f"{name} takes no reference score or modifier ({code!r})")
        return TeamCriterion(name, name)
    if name in _ESB:
        if score:
            raise UnknownCriterion(f"{name} takes no reference score ({code!r})")
        base = parse_criterion("/".join(["SB", *mods]))
        return TeamCriterion("/".join([name, *base.code.split("/")[1:]]), name, base=base)
    if name in _CHAINS:
        if score:
            raise UnknownCriterion(f"{name} takes no reference score ({code!r})")
        base = parse_criterion("/".join(["DE", *mods]))
        return TeamCriterion("/".join([name, *base.code.split("/")[1:]]), name, base=base)
    if name == "SSSC":
        if score:
            raise UnknownCriterion(f"SSSC takes no reference score ({code!r})")
        divisor: Fraction | None = None
        flags: list[str] = []
        for mod in mods:
            m = _K_RE.match(mod)
            if m:
                divisor = Fraction(m.group(1))
                if divisor <= 0:
                    raise UnknownCriterion(f"SSSC divisor must be positive ({code!r})")
            elif mod in ("P", "F"):
                flags.append(mod)
            else:
                raise UnknownCriterion(f"unknown modifier /{mod} in tie-break criterion {code!r}")
        base = parse_criterion("/".join(["FB" if "F" in flags else "BH", *(["P"] if "P" in flags else [])]))
        parts = ["SSSC", *sorted(flags)]
        if divisor is not None:
            parts.append(f"K{divisor}")
        return TeamCriterion("/".join(parts), "SSSC", base=base, divisor=divisor)
    if name in ("PTS",):
        raise UnknownCriterion(f"{code!r}: a team event's score is MPTS or GPTS")
    try:
        base = parse_criterion("/".join([name, *mods]))
    except UnknownCriterion as exc:
        raise UnknownCriterion(f"unknown team tie-break criterion {code!r}: {exc}") from None
    if base.name in RATING_CRITERIA:
        raise CriterionNotAllowed(f"criterion {code!r}: rating-based criteria are not available for teams")
    head_code, *rest = base.code.split("/")
    return TeamCriterion("/".join([head_code + suffix, *rest]), base.name, score=score or None, base=base)


# --- contexts: the individual engine on team crosstables -------------------------------------------
class TeamContext(Context):
    """A :class:`Context` whose crosstable has the teams as participants (MP or GP scoring)."""

    def __init__(self, tournament: Tournament, rules: RuleSet, ct: TeamCrosstable) -> None:
        self.tournament = tournament
        self.rules = rules
        self.ct = ct
        self.unrated_rating = None
        self._a16: Article16 | None = None
        self._fore: Context | None = None
        self.cache: dict[Any, Any] = {}


@dataclass(frozen=True)
class TeamRow:
    rank: int
    team_number: int
    name: str
    points: Fraction  # the primary score
    values: dict[str, Fraction | None]


class _Engine:
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
        if name in _ESB:
            return [self._esb(crit, i)[0] for i in range(self.n)]
        if name == "BC":
            return [sum((b * p for b, p in enumerate(bp, start=1)), Fraction(0)) for bp in self.board_points]
        if name == "SSSC":
            return self._sssc(crit)[0]
        if name in _BOARD_COUNTS and self.score_of(crit) == "GP":
            return [sum(v for _, v, _ in self._board_flags(crit.name, i)) for i in range(self.n)]
        assert crit.base is not None
        ctx = self.ctx[self.score_of(crit)]
        computed: Computed = ctx.memo(("computed", crit.base.code), lambda: SCALAR_CRITERIA[name][0](ctx, crit.base))
        return computed.fractions()

    def _esb(self, crit: TeamCriterion, i: int) -> tuple[Fraction, list[tuple[Any, Fraction, Fraction, str | None]]]:
        """(value, [(element, Y points, contribution, removal reason)]) of an ESB criterion."""
        x_name, y_name = _ESB[crit.name]
        assert crit.base is not None
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
        assert crit.base is not None
        ctx = self.ctx[self.primary]
        bh = ctx.memo(("computed", crit.base.code), lambda: SCALAR_CRITERIA[crit.base.name][0](ctx, crit.base))
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
            assert crit.base is not None
            return order_group(self.ctx[self.score_of(crit)], crit.base, group)
        if name in ("TBR", "BBE"):
            if not self.equal_mp_gp(group):
                return [group]
            return self._board_order(name, group)
        assert crit.base is not None
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
        assert crit.base is not None
        for score in (self.primary, self.secondary):
            subs = order_group(self.ctx[score], crit.base, group)
            if len(subs) > 1:
                out: list[list[int]] = []
                for sub in subs:
                    out.extend(self._ede(crit, sub) if len(sub) > 1 else [sub])
                return out
        if len(group) == 2:
            for step in _CHAINS[crit.name]:
                subs = self._knockout(step, group)
                if len(subs) > 1:
                    return subs
        return [group]

    def _knockout(self, step: str, group: list[int]) -> list[list[int]]:
        if step == "C":
            bc = self.values(TeamCriterion("BC", "BC"))
            a, b = group
            va, vb = bc[a], bc[b]
            assert va is not None and vb is not None
            if va == vb:
                return [group]
            return [[a], [b]] if va < vb else [[b], [a]]
        return self._board_order("TBR" if step == "T" else "BBE", group)


@dataclass
class _Column:
    crit: TeamCriterion
    values: list[Fraction | None]
    groups: dict[int, list[int]] = field(default_factory=dict)  # place criteria: the tied group


class TeamStandings:
    """Team standings: rows (rank, team_number, name, points = primary score, values), notes,
    explain(team_number), separation(a, b), to_dict() - the shape of :class:`Standings`."""

    def __init__(
        self,
        *,
        rules: str,
        primary: str,
        columns: list[_Column],
        rows: list[TeamRow],
        notes: list[Note],
        engine: _Engine,
        stage_groups: list[list[int]],
    ) -> None:
        self.rules = rules
        self.primary = primary
        self._columns = columns
        self.criteria = [c.crit.code for c in columns]
        self.rows = rows
        self.notes = notes
        self._engine = engine
        self._stage_groups = stage_groups
        self._by_number = {row.team_number: row for row in rows}
        self._explained: dict[int, dict[str, Trace]] = {}
        self.explain_requested = False

    @property
    def event(self) -> TeamEvent:
        """The derived team matches (who met whom, MP, GP, boards) - e.g. for a crosstable page."""
        return self._engine.event

    def row(self, team_number: int) -> TeamRow:
        return self._by_number[team_number]

    def separation(self, a: int, b: int) -> Separation:
        """The first criterion that separated teams ``a`` and ``b`` (team numbers)."""
        index = self._engine.event.index
        ia, ib = index[a], index[b]
        ra, rb = self._by_number[a], self._by_number[b]
        if self._stage_groups[0][ia] != self._stage_groups[0][ib]:
            return Separation(self.primary + "TS", ra.points, rb.points)
        for stage, code in enumerate(self.criteria, start=1):
            if self._stage_groups[stage][ia] != self._stage_groups[stage][ib]:
                return Separation(code, ra.values[code], rb.values[code])
        return Separation(None, None, None)

    def explain(self, team_number: int) -> dict[str, Trace]:
        cached = self._explained.get(team_number)
        if cached is not None:
            return cached
        eng = self._engine
        i = eng.event.index[team_number]
        out: dict[str, Trace] = {"PTS": _explain_score(eng, eng.primary, i, "PTS")}
        for col in self._columns:
            out[col.crit.code] = _explain(eng, col, i, self._by_number[team_number].values[col.crit.code])
        self._explained[team_number] = out
        return out

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        integer = {c.crit.code for c in self._columns if _is_integer(c.crit, self._engine)}
        out: dict[str, Any] = {
            "rules": self.rules,
            "primary": self.primary,
            "criteria": list(self.criteria),
            "rows": [
                {
                    "rank": row.rank,
                    "team_number": row.team_number,
                    "name": row.name,
                    "points": _json_number(row.points, False),
                    "values": {code: _json_number(v, code in integer) for code, v in row.values.items()},
                }
                for row in self.rows
            ],
            "notes": [n.to_dict() for n in self.notes],
        }
        if explain:
            out["explanations"] = {
                str(row.team_number): {code: t.to_dict() for code, t in self.explain(row.team_number).items()}
                for row in self.rows
            }
        return out


def _is_integer(crit: TeamCriterion, eng: _Engine) -> bool:
    if crit.name in _PLACE_CRITERIA:
        return True
    if crit.name in _BOARD_COUNTS and crit.name != "STD":
        return True
    return crit.name in INTEGER_CRITERIA and crit.name not in _TEAM_NAMES


def primary_from_event_type(event_type: str) -> str:
    """The primary score from a TRF 192 code suffix (``_GP_MP`` / ``_GP`` ⇒ GP), else MP."""
    code = (event_type or "").strip().upper().removesuffix("_BAKU")
    if code.endswith("_GP_MP") or (code.endswith("_GP") and not code.endswith("_MP_GP")):
        return "GP"
    return "MP"


def compute_team_standings(
    tournament: Tournament,
    criteria: Sequence[str | TeamCriterion],
    *,
    rules: str = "fide-2026",
    explain: bool = False,
    primary: str = "MP",
    allow_buchholz_in_round_robin: bool = False,
) -> TeamStandings:
    """Rank the teams of ``tournament`` by the ``primary`` score (``"MP"`` or ``"GP"``) and the
    team tie-break ``criteria``.

    Raises :class:`UnknownCriterion` for an unknown code, :class:`CriterionNotAllowed` for a
    criterion the rules forbid (BH/AOB/FB with pre-determined pairings unless
    ``allow_buchholz_in_round_robin``, which is then recorded in ``notes``), and
    :class:`EngineError` for inconsistent team data.
    """
    primary = (primary or "MP").upper()
    if primary not in ("MP", "GP"):
        raise EngineError(f"primary score must be MP or GP, not {primary!r}")
    rule_set = get_rule_set(rules)
    notes: list[Note] = []
    crits: list[TeamCriterion] = []
    seen: set[str] = set()
    for item in criteria:
        if isinstance(item, str) and item.strip().upper() == "PTS":  # TRF 202 implies PTS: the primary score
            item = f"{primary}TS"
        crit = item if isinstance(item, TeamCriterion) else parse_team_criterion(item)
        if crit.base is not None and crit.name not in _TEAM_NAMES and crit.name not in rule_set.criteria:
            raise CriterionNotAllowed(f"criterion {crit.code} is not part of the rule set {rule_set.name}")
        if tournament.round_robin and crit.name in BUCHHOLZ_FAMILY and not rule_set.buchholz_in_round_robin:
            if not allow_buchholz_in_round_robin:
                raise CriterionNotAllowed(
                    f"criterion {crit.code} is not allowed in a round robin (FIDE C.07, note to Article 8: "
                    "the Buchholz family must not be used with pre-determined pairings)"
                )
            notes.append(Note(R.ROUND_ROBIN_BUCHHOLZ_OVERRIDE, crit.code, "8"))
        if crit.code in seen and crit.name not in _PLACE_CRITERIA:
            continue
        seen.add(crit.code)
        crits.append(crit)

    eng = _Engine(tournament, rule_set, primary)
    if eng.event.pab_default:
        notes.append(Note(TEAM_PAB_DEFAULT, None, "16", {}))
    n = eng.n
    event = eng.event
    points = eng.totals[primary]
    order = sorted(range(n), key=lambda i: (-points[i], event.numbers[i]))
    groups: list[list[int]] = []
    for i in order:
        if groups and points[groups[-1][0]] == points[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    stage_groups = [_group_ids(groups, n)]
    columns: list[_Column] = []
    for crit in crits:
        new_groups: list[list[int]] = []
        if crit.name in _PLACE_CRITERIA:
            col = _Column(crit, [Fraction(0)] * n)
            for g in groups:
                if len(g) == 1:
                    new_groups.append(g)
                    continue
                subs = eng.order(crit, g)
                for p, place in places(subs).items():
                    col.values[p] = Fraction(place)
                    col.groups[p] = g
                new_groups.extend(subs)
        else:
            col = _Column(crit, eng.values(crit))
            values = col.values
            higher_is_better = crit.name != "BC" and (crit.base is None or crit.base.higher_is_better)
            sign = -1 if higher_is_better else 1
            for g in groups:
                if len(g) == 1 or (crit.name == "BC" and not eng.equal_mp_gp(g)):
                    new_groups.append(g)
                    continue
                keyed = sorted(g, key=lambda i: (values[i] is None, sign * (values[i] or 0), event.numbers[i]))
                current = [keyed[0]]
                for i in keyed[1:]:
                    if values[i] == values[current[0]]:
                        current.append(i)
                    else:
                        new_groups.append(current)
                        current = [i]
                new_groups.append(current)
        columns.append(col)
        groups = new_groups
        stage_groups.append(_group_ids(groups, n))

    primary_points = eng.totals[primary]
    rows = [
        TeamRow(
            place,
            event.numbers[i],
            event.names[i],
            primary_points[i],
            {col.crit.code: col.values[i] for col in columns},
        )
        for place, i in competition_order(groups, event.numbers.__getitem__)
    ]
    standings = TeamStandings(
        rules=rule_set.name,
        primary=primary,
        columns=columns,
        rows=rows,
        notes=notes,
        engine=eng,
        stage_groups=stage_groups,
    )
    standings.explain_requested = explain
    return standings


# --- explanations ---------------------------------------------------------------------------------
def _match_reason(m: TeamMatch) -> str:
    if m.opponent is None:
        return TEAM_BYE
    return TEAM_MATCH_POINTS if m.kind == PLAYED else TEAM_MATCH_FORFEITED


def _explain_score(eng: _Engine, score: str, i: int, code: str, article: str = "11") -> Trace:
    event = eng.event
    elements = []
    for m in event.matches[i]:
        pts = m.match_points if score == "MP" else m.game_points
        reason = _match_reason(m)
        if score == "GP" and reason == TEAM_MATCH_POINTS:
            reason = TEAM_GAME_POINTS
        elements.append(TraceElement(m.round, m.opponent, False, pts, pts, reason, article, points=pts))
    total = sum((e.contribution for e in elements), Fraction(0))
    return Trace(event.numbers[i], code, total, tuple(elements), total, details={"score": score})


def _rename(trace: Trace, code: str) -> Trace:
    return replace(trace, criterion=code)


def _explain(eng: _Engine, col: _Column, i: int, value: Fraction | None) -> Trace:
    crit = col.crit
    name = crit.name
    event = eng.event
    number = event.numbers[i]
    if name == "MPTS":
        return _explain_score(eng, "MP", i, crit.code)
    if name == "GPTS":
        return _explain_score(eng, "GP", i, crit.code)
    if name == "MPVGP":
        return _explain_score(eng, eng.secondary, i, crit.code, "13.1")
    if name in _ESB:
        return _explain_esb(eng, crit, i)
    if name == "BC":
        return _explain_bc(eng, col, i, value)
    if name == "SSSC":
        return _explain_sssc(eng, crit, i)
    if name in _PLACE_CRITERIA:
        return _explain_place(eng, col, i, value)
    if name in _BOARD_COUNTS and eng.score_of(crit) == "GP":
        elements = tuple(
            TraceElement(rnd, b.opponent if b else None, False, b.points if b else None, v, TEAM_BOARD_RESULT, "7")
            for rnd, v, b in eng._board_flags(name, i)
        )
        total = sum((e.contribution for e in elements), Fraction(0))
        return Trace(number, crit.code, total, elements, total, details={"score": "GP", "per_board": True})
    assert crit.base is not None
    ctx = eng.ctx[eng.score_of(crit)]
    trace = SCALAR_CRITERIA[name][1](ctx, crit.base, i)
    return replace(trace, criterion=crit.code, details={**trace.details, "score": eng.score_of(crit)})


def _explain_esb(eng: _Engine, crit: TeamCriterion, i: int) -> Trace:
    x_name, y_name = _ESB[crit.name]
    xct = eng.ctx[x_name].ct
    value, rows = eng._esb(crit, i)
    elements = []
    for e, y_points, contribution, removed in rows:
        elements.append(
            TraceElement(
                round=e.round + 1,
                opponent=xct.start_numbers[e.opponent] if e.opponent >= 0 else None,
                dummy=e.dummy,
                value=xct.frac(e.value),
                contribution=contribution,
                reason=e.reason if e.dummy else TEAM_ESB_ELEMENT,
                article=e.article if e.dummy else "13.2",
                points=y_points,
                vur=e.vur,
                removed=removed,
            )
        )
    return Trace(
        eng.event.numbers[i],
        crit.code,
        value,
        tuple(elements),
        value,
        details={"opponent_score": x_name, "points_scored": y_name},
    )


def _explain_bc(eng: _Engine, col: _Column, i: int, value: Fraction | None) -> Trace:
    bp = eng.board_points[i]
    elements = tuple(
        TraceElement(None, None, False, p, b * p, TEAM_BOARD_COUNT, "12.1", points=p) for b, p in enumerate(bp, start=1)
    )
    total = sum((e.contribution for e in elements), Fraction(0))
    details: dict[str, Any] = {"boards": [{"board": b, "game_points": p} for b, p in enumerate(bp, start=1)]}
    return Trace(eng.event.numbers[i], col.crit.code, value, elements, total, details=details)


def _explain_sssc(eng: _Engine, crit: TeamCriterion, i: int) -> Trace:
    values, bh, divisor = eng._sssc(crit)
    secondary = eng.totals[eng.secondary][i]
    elements = (
        TraceElement(None, None, False, secondary, secondary, TEAM_SECONDARY_SCORE, "13.4"),
        TraceElement(None, None, False, bh[i], bh[i] / divisor, TEAM_SSSC_SCHEDULE_SHARE, "13.4"),
    )
    total = secondary + bh[i] / divisor
    return Trace(
        eng.event.numbers[i],
        crit.code,
        values[i],
        elements,
        total,
        rounding="half_up_0.01",
        details={"divisor": divisor, "buchholz": bh[i], "primary": eng.primary, "secondary": eng.secondary},
    )


def _explain_place(eng: _Engine, col: _Column, i: int, value: Fraction | None) -> Trace:
    crit = col.crit
    event = eng.event
    number = event.numbers[i]
    group = col.groups.get(i)
    place = int(value or 0)
    if not group or len(group) <= 1:
        return Trace(
            number, crit.code, Fraction(place), reason=R.DIRECT_ENCOUNTER_NOT_TIED, details={"group": [number]}
        )
    if crit.name == "DE":
        assert crit.base is not None
        ctx = eng.ctx[eng.score_of(crit)]
        return _rename(explain_direct_encounter(ctx, crit.base, i, group, place), crit.code)
    numbers = sorted(event.numbers[p] for p in group)
    if crit.name in ("TBR", "BBE"):
        applicable = eng.equal_mp_gp(group)
        bp = eng.board_points[i]
        elements = tuple(
            TraceElement(None, None, False, p, p, TEAM_BOARD_POINTS, "12.2" if crit.name == "TBR" else "12.3")
            for p in bp
        )
        return Trace(
            number,
            crit.code,
            Fraction(place),
            elements,
            None,
            reason=None
            if applicable and place
            else (TEAM_KNOCKOUT_NOT_APPLICABLE if not applicable else R.DIRECT_ENCOUNTER_SEPARATED_NONE),
            details={"group": numbers, "place": place, "key": list(eng._board_key(crit.name, i))},
        )
    # EDE and chains: mutual scores inside the group where the criterion began - the primary
    # score's games are the elements (they add up to the mutual primary score), the secondary
    # score's games are listed in the details
    assert crit.base is not None
    details: dict[str, Any] = {"group": numbers, "place": place}
    traces = {score: explain_direct_encounter(eng.ctx[score], crit.base, i, group, place) for score in ("MP", "GP")}
    elements = tuple(replace(e, reason=TEAM_EDE_MUTUAL_SCORE, article="13.3.1") for e in traces[eng.primary].elements)
    total = sum((e.contribution for e in elements), Fraction(0))
    details[f"mutual_{eng.primary.lower()}"] = total
    details[f"mutual_{eng.secondary.lower()}"] = mutual_scores(eng.ctx[eng.secondary], crit.base, group)[i]
    details["secondary_games"] = [
        {"round": e.round, "opponent": e.opponent, "points": e.value, "counts": e.contribution}
        for e in traces[eng.secondary].elements
    ]
    if _CHAINS[crit.name] and len(group) == 2:
        details["knockout"] = {
            "BC": eng.values(TeamCriterion("BC", "BC"))[i],
            "TBR": list(eng._board_key("TBR", i)),
            "BBE": list(eng._board_key("BBE", i)),
        }
        details["knockout_reason"] = TEAM_EDE_KNOCKOUT_STEP
    return Trace(
        number,
        crit.code,
        Fraction(place),
        elements,
        total,
        reason=None if place else R.DIRECT_ENCOUNTER_SEPARATED_NONE,
        details=details,
    )


__all__ = [
    "TEAM_REASONS",
    "TeamCriterion",
    "TeamRow",
    "TeamStandings",
    "compute_team_standings",
    "parse_team_criterion",
    "primary_from_event_type",
]
