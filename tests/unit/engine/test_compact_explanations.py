"""The compact explanations (issue #37) read back exactly as the traces: for every golden tournament (byes,
forfeits, withdrawals, unrated players, round robins), every criterion of every rule set, and every participant,
the compact form - stored as JSON and read back - expands to the same dict as Trace.to_dict, so the pages and the
API explain every value as they did."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.golden._trf_min import parse_trf
from tests.paths import GOLDEN
from tiebreaks.engine import compute_standings
from tiebreaks.engine.compact import expand, is_compact
from tiebreaks.engine.criteria import parse_criterion
from tiebreaks.engine.rules import RULE_SETS

FILES = sorted(GOLDEN.glob("*.json"))

EXTRA = ["BH/C2", "BH/M2", "BH/P", "BH/C1/P", "FB/C1", "FB/P", "SB/P", "SB/C2", "PS/C2", "AOB/F", "KS/L-1"]
EXTRA += ["TPN", "RTNG", "ARO/M1", "DE/P", "TPN/R", "ARO/U1400"]
US = ["MM", "SOLK", "CUM", "OPPCUM", "MED", "H2H", "BLK", "KASH", "SB", "BH/C1", "WIN", "PS", "BH", "FB"]


def _criteria(rules: str, codes: list[str]) -> list[str]:
    rule_set = RULE_SETS[rules]
    return [c for c in codes if c != "PTS" and rule_set.refusal(parse_criterion(c)) is None]


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


# every golden file under FIDE 2026; every third under each other rule set (their own dummies, cuts and US Chess)
CASES = [(path, "fide-2026") for path in FILES] + [
    (path, rules) for rules in sorted(RULE_SETS) if rules != "fide-2026" for path in FILES[::3]
]


@pytest.mark.parametrize(("path", "rules"), CASES, ids=lambda case: getattr(case, "stem", case))
def test_compact_traces_expand_to_the_traces(path: Path, rules: str) -> None:
    data = json.loads(path.read_text())
    tournament = parse_trf(data["trf"], round_robin=data["mode"] == "round_robin")
    codes = _criteria(rules, list(dict.fromkeys(data["criteria"] + EXTRA + US)))
    standings = compute_standings(
        tournament,
        codes,
        rules=rules,
        unrated_rating=data["checker"]["unrated_rating"],
        allow_buchholz_in_round_robin=True,
    )
    expected = dict(standings.explanations())
    compact = dict(standings.compact_explanations())
    assert list(compact) == list(expected)
    for number, stored in compact.items():
        stored = _json(stored)  # as the snapshot stores it
        assert is_compact(stored)
        # compared as JSON text: 3 and 3.0, or 1 and true, read differently on a page and in the API
        assert _text(expand(stored)) == _text(expected[number]), number
