"""The tie-break engine: pure Python, exact, no Django.

>>> from tiebreaks.engine import compute_standings
>>> standings = compute_standings(tournament, ["BH/C1", "BH", "SB"])   # doctest: +SKIP
>>> standings.rows[0].values["BH/C1"]                                   # doctest: +SKIP
Fraction(25, 2)

Public API: :func:`compute_standings`, :class:`Standings` (rows, notes, explain, separation,
to_dict), :func:`recommended_criteria`, :func:`parse_criterion`, :data:`RULE_SETS` and the
exceptions :class:`EngineError`, :class:`UnknownCriterion`, :class:`CriterionNotAllowed`.
"""

from __future__ import annotations

from .criteria import Criterion, parse_criterion
from .errors import CriterionNotAllowed, EngineError, UnknownCriterion
from .explain import Trace, TraceElement
from .ranking import Note, Row, Separation, Standings, compute_standings
from .rules import (
    FIDE_EDITIONS,
    RULE_SETS,
    RuleSet,
    check_criterion,
    fide_edition_for,
    get_rule_set,
    recommended_criteria,
)

__all__ = [
    "FIDE_EDITIONS",
    "RULE_SETS",
    "Criterion",
    "CriterionNotAllowed",
    "EngineError",
    "Note",
    "Row",
    "RuleSet",
    "Separation",
    "Standings",
    "Trace",
    "TraceElement",
    "UnknownCriterion",
    "check_criterion",
    "compute_standings",
    "fide_edition_for",
    "get_rule_set",
    "parse_criterion",
    "recommended_criteria",
]
