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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import reasons as R
from .criteria import BUCHHOLZ_FAMILY
from .direct_encounter import places
from .errors import CriterionNotAllowed, EngineError
from .explain import Trace
from .model import Tournament
from .ranking import Note, Separation, _group_ids, _json_number, competition_order, score_groups
from .rules import RuleSet, get_rule_set
from .team_criteria import PLACE_CRITERIA, TEAM_NAMES, TeamCriterion, parse_team_criterion, primary_from_event_type
from .team_engine import Column, TeamEngine, is_integer_column
from .team_explain import TEAM_PAB_DEFAULT, TEAM_REASONS, explain_column, explain_score
from .team_matches import TeamEvent


@dataclass(frozen=True)
class TeamRow:
    rank: int
    team_number: int
    name: str
    points: Fraction  # the primary score
    values: dict[str, Fraction | None]


class TeamStandings:
    """Team standings: rows (rank, team_number, name, points = primary score, values), notes,
    explain(team_number), separation(a, b), to_dict() - the shape of :class:`Standings`."""

    def __init__(
        self,
        *,
        rules: str,
        primary: str,
        columns: list[Column],
        rows: list[TeamRow],
        notes: list[Note],
        engine: TeamEngine,
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
        out: dict[str, Trace] = {"PTS": explain_score(eng, eng.primary, i, "PTS")}
        for col in self._columns:
            out[col.crit.code] = explain_column(eng, col, i, self._by_number[team_number].values[col.crit.code])
        self._explained[team_number] = out
        return out

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        integer = {c.crit.code for c in self._columns if is_integer_column(c.crit, self._engine)}
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
            out["explanations"] = dict(self.explanations())
        return out

    def explanations(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """Each team's traces as ``to_dict(explain=True)`` lists them, one team at a time."""
        for row in self.rows:
            yield str(row.team_number), {code: t.to_dict() for code, t in self.explain(row.team_number).items()}


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
    crits = _team_tiebreak_list(tournament, criteria, rule_set, primary, allow_buchholz_in_round_robin, notes)

    eng = TeamEngine(tournament, rule_set, primary)
    if eng.event.pab_default:
        notes.append(Note(TEAM_PAB_DEFAULT, None, "16", {}))
    n = eng.n
    event = eng.event
    points = eng.totals[primary]
    groups = score_groups(sorted(range(n), key=lambda i: (-points[i], event.numbers[i])), points)
    stage_groups = [_group_ids(groups, n)]
    columns: list[Column] = []
    for crit in crits:
        if crit.name in PLACE_CRITERIA:
            col, groups = _place_column(eng, crit, groups)
        else:
            col, groups = _value_column(eng, crit, groups)
        columns.append(col)
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


def _team_tiebreak_list(
    tournament: Tournament,
    criteria: Sequence[str | TeamCriterion],
    rule_set: RuleSet,
    primary: str,
    allow_buchholz_in_round_robin: bool,
    notes: list[Note],
) -> list[TeamCriterion]:
    """The team tie-break list as the rules allow it (PTS read as the primary score), each criterion
    once (the place criteria re-applied)."""
    crits: list[TeamCriterion] = []
    seen: set[str] = set()
    for item in criteria:
        if isinstance(item, str) and item.strip().upper() == "PTS":  # TRF 202 implies PTS: the primary score
            item = f"{primary}TS"
        crit = item if isinstance(item, TeamCriterion) else parse_team_criterion(item)
        if crit.base is not None and crit.name not in TEAM_NAMES and crit.name not in rule_set.criteria:
            raise CriterionNotAllowed(f"criterion {crit.code} is not part of the rule set {rule_set.name}")
        if tournament.round_robin and crit.name in BUCHHOLZ_FAMILY and not rule_set.buchholz_in_round_robin:
            if not allow_buchholz_in_round_robin:
                raise CriterionNotAllowed(
                    f"criterion {crit.code} is not allowed in a round robin (FIDE C.07, note to Article 8: "
                    "the Buchholz family must not be used with pre-determined pairings)"
                )
            notes.append(Note(R.ROUND_ROBIN_BUCHHOLZ_OVERRIDE, crit.code, "8"))
        if crit.code in seen and crit.name not in PLACE_CRITERIA:
            continue
        seen.add(crit.code)
        crits.append(crit)
    return crits


def _place_column(eng: TeamEngine, crit: TeamCriterion, groups: list[list[int]]) -> tuple[Column, list[list[int]]]:
    """A place criterion (direct encounter, EDE chains, TBR, BBE) on each tied group: each team's
    place in its group, and the groups after it."""
    col = Column(crit, [Fraction(0)] * eng.n)
    new_groups: list[list[int]] = []
    for g in groups:
        if len(g) == 1:
            new_groups.append(g)
            continue
        subs = eng.order(crit, g)
        for p, place in places(subs).items():
            col.values[p] = Fraction(place)
            col.groups[p] = g
        new_groups.extend(subs)
    return col, new_groups


def _value_column(eng: TeamEngine, crit: TeamCriterion, groups: list[list[int]]) -> tuple[Column, list[list[int]]]:
    """A criterion with a value per team, and the tied groups split by it (undefined values last,
    then by team number; BC splits only teams equal on match and game points)."""
    col = Column(crit, eng.values(crit))
    values = col.values
    numbers = eng.event.numbers
    higher_is_better = crit.name != "BC" and (crit.base is None or crit.base.higher_is_better)
    sign = -1 if higher_is_better else 1
    new_groups: list[list[int]] = []
    for g in groups:
        if len(g) == 1 or (crit.name == "BC" and not eng.equal_mp_gp(g)):
            new_groups.append(g)
            continue
        keyed = sorted(g, key=lambda i: (values[i] is None, sign * (values[i] or 0), numbers[i]))
        new_groups.extend(score_groups(keyed, values))
    return col, new_groups


__all__ = [
    "TEAM_REASONS",
    "TeamCriterion",
    "TeamRow",
    "TeamStandings",
    "compute_team_standings",
    "parse_team_criterion",
    "primary_from_event_type",
]
