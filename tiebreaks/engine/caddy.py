"""Moving between rule sets: which numbers change, round by round, and why (spec §12).

The ``chess-caddy`` rule set (a :class:`~tiebreaks.engine.rules.RuleSet` value in
:mod:`.rules`) reproduces the Chess Caddy app: Buchholz, Sonneborn-Berger and cumulative (PS)
only; a forfeited or bye round contributes nothing (no dummy opponent, no element); opponents
count with their raw final score; no cuts. A club moving from that app to FIDE 2026 sees other
numbers from the same crosstable; :func:`compare_rule_sets` lists, for every participant and
criterion whose value changes, the rounds that contribute differently with the reason codes of
both rule sets (e.g. round 3: ``caddy_unplayed_omitted`` 0 -> ``dummy_cap_half_rounds`` 2.5).

Spec §12.2 (T4: 4½/5, half-point bye in round 3, opponents 3½, 3, 2½, 2): BH is 11 under
chess-caddy and 13.5 under fide-2026; the only round that changes is round 3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import reasons as R
from .criteria import parse_criterion
from .explain import Trace, TraceElement, number
from .model import Tournament
from .ranking import compute_standings
from .rules import OwnUnplayed, check_criterion, get_rule_set


@dataclass(frozen=True)
class RoundChange:
    """One round that contributes differently under the two rule sets.

    ``before`` / ``after``: what the round adds to the criterion (0 when cut or absent);
    ``*_reasons``: the reason codes of that round's elements (the cut reason for a removed one;
    ``caddy_unplayed_omitted`` when the rule set has no element for the round at all).
    """

    round: int
    before: Fraction
    after: Fraction
    before_reasons: tuple[str, ...]
    after_reasons: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "before": number(self.before),
            "after": number(self.after),
            "before_reasons": list(self.before_reasons),
            "after_reasons": list(self.after_reasons),
        }


@dataclass(frozen=True)
class ValueChange:
    """A participant's criterion value under rule set ``before`` and under ``after``."""

    start_number: int
    criterion: str
    before: Fraction | None
    after: Fraction | None
    rounds: tuple[RoundChange, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "start_number": self.start_number,
            "criterion": self.criterion,
            "before": number(self.before),
            "after": number(self.after),
            "rounds": [r.to_dict() for r in self.rounds],
        }


def _by_round(trace: Trace) -> dict[int, tuple[Fraction, tuple[str, ...]]]:
    out: dict[int, list[TraceElement]] = {}
    for e in trace.elements:
        if e.round is not None:
            out.setdefault(e.round, []).append(e)
    return {
        r: (
            sum((e.contribution for e in els if e.removed is None), Fraction(0)),
            tuple(e.removed or e.reason for e in els),
        )
        for r, els in out.items()
    }


def compare_rule_sets(
    tournament: Tournament,
    criteria: Sequence[str] | str,
    before: str = "chess-caddy",
    after: str = "fide-2026",
    **options: Any,
) -> list[ValueChange]:
    """Every value of ``criteria`` that differs between rule sets ``before`` and ``after``,
    with the rounds that explain the difference (the kept contributions of the listed rounds
    differ by exactly ``after - before``). Both rule sets must offer every criterion with its
    modifiers (:func:`~tiebreaks.engine.rules.check_criterion`), else CriterionNotAllowed."""
    codes = [c for c in (criteria.replace(";", ",").split(",") if isinstance(criteria, str) else criteria) if c.strip()]
    for name in (before, after):
        rule_set = get_rule_set(name)
        for code in codes:
            check_criterion(rule_set, parse_criterion(code))
    a = compute_standings(tournament, codes, rules=before, **options)
    b = compute_standings(tournament, codes, rules=after, **options)
    missing = {
        name: R.CADDY_UNPLAYED_OMITTED if get_rule_set(name).own_unplayed is OwnUnplayed.OMIT else R.UNPLAYED_EXCLUDED
        for name in (before, after)
    }
    changes: list[ValueChange] = []
    for row in a.rows:
        sn = row.start_number
        other = b.row(sn)
        for code in a.criteria:
            if row.values[code] == other.values[code]:
                continue
            ta, tb = a.explain(sn)[code], b.explain(sn)[code]
            ra, rb = _by_round(ta), _by_round(tb)
            rounds = []
            for r in sorted(set(ra) | set(rb)):
                va, why_a = ra.get(r, (Fraction(0), (missing[before],)))
                vb, why_b = rb.get(r, (Fraction(0), (missing[after],)))
                if va != vb:
                    rounds.append(RoundChange(r, va, vb, why_a, why_b))
            changes.append(ValueChange(sn, code, row.values[code], other.values[code], tuple(rounds)))
    return changes


__all__ = ["RoundChange", "ValueChange", "compare_rule_sets"]
