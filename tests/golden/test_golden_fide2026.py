"""Golden tests: every individual file of tests/golden/data/fide2026 (FIDE checker values, with
the spec's corrections of checker defect B), every criterion, every participant, and the order.

The data lives inside the repository (copied from FIDE's checker output), so a clone alone passes.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.golden._trf_min import parse_trf
from tests.paths import GOLDEN
from tiebreaks.engine import CriterionNotAllowed, compute_standings

FILES = sorted(GOLDEN.glob("*.json"))
ROUND_ROBIN_FILES = [f for f in FILES if json.loads(f.read_text())["mode"] == "round_robin"]
CORRECTED_FILES = [f for f in FILES if "corrections" in json.loads(f.read_text())]
BUCHHOLZ_FAMILY = ("BH", "BH/C1", "BH/C2", "BH/M1", "BH/M2", "AOB", "FB")


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _standings(data: dict[str, Any], *, override: bool = True):  # type: ignore[no-untyped-def]
    tournament = parse_trf(data["trf"], round_robin=data["mode"] == "round_robin")
    return compute_standings(
        tournament,
        data["criteria"],
        rules=data["rules"],
        unrated_rating=data["checker"]["unrated_rating"],
        allow_buchholz_in_round_robin=override,
    )


def _equal(criterion: str, got: Fraction | None, expected: float | int | None) -> bool:
    if got is None or expected is None:
        return got is None and expected is None
    if criterion == "AOB":  # the checker prints AOB rounded half up to 0.01
        return round(got * 100) == round(Fraction(str(expected)) * 100)
    return got == Fraction(str(expected))


def test_the_golden_folder_is_there() -> None:
    assert len(FILES) >= 40, f"golden files not found in {GOLDEN}"
    assert ROUND_ROBIN_FILES and CORRECTED_FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_value_matches_the_golden_file(path: Path) -> None:
    data = _load(path)
    standings = _standings(data)
    mismatches = []
    for row in standings.rows:
        expected = data["expected"][str(row.start_number)]
        for criterion, value in expected.items():
            got = row.points if criterion == "PTS" else row.values[criterion]
            if not _equal(criterion, got, value):
                mismatches.append((row.start_number, criterion, value, got))
    assert mismatches == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_rank_order_and_rank_numbers_match(path: Path) -> None:
    data = _load(path)
    standings = _standings(data)
    assert [row.start_number for row in standings.rows] == data["rank"]
    assert {str(row.start_number): row.rank for row in standings.rows} == data["rank_numbers"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_json_output_prints_the_golden_numbers(path: Path) -> None:
    data = _load(path)
    out = _standings(data).to_dict()
    for row in out["rows"]:
        expected = data["expected"][str(row["start_number"])]
        assert row["points"] == expected["PTS"]
        for criterion, value in row["values"].items():
            assert value == expected[criterion], (row["start_number"], criterion)


@pytest.mark.parametrize("path", ROUND_ROBIN_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("criterion", BUCHHOLZ_FAMILY)
def test_round_robin_refuses_the_buchholz_family(path: Path, criterion: str) -> None:
    data = _load(path)
    tournament = parse_trf(data["trf"], round_robin=True)
    with pytest.raises(CriterionNotAllowed, match=criterion.split("/")[0]):
        compute_standings(tournament, ["PTS", "SB", criterion], unrated_rating=data["checker"]["unrated_rating"])


@pytest.mark.parametrize("path", ROUND_ROBIN_FILES, ids=lambda p: p.stem)
def test_round_robin_override_is_recorded_in_the_notes(path: Path) -> None:
    standings = _standings(_load(path))
    overridden = {n.criterion for n in standings.notes if n.code == "round_robin_buchholz_override"}
    assert overridden == set(BUCHHOLZ_FAMILY)


@pytest.mark.parametrize("path", CORRECTED_FILES, ids=lambda p: p.stem)
def test_checker_defect_b_corrections_give_the_spec_value_not_the_checkers(path: Path) -> None:
    data = _load(path)
    standings = _standings(data)
    for correction in data["corrections"]:
        got = standings.row(int(correction["player"])).values[correction["criterion"]]
        assert got == Fraction(str(correction["spec"]))
        assert got != Fraction(str(correction["checker"]))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_explanation_agrees_with_its_value_and_adds_up(path: Path) -> None:
    standings = _standings(_load(path))
    for row in standings.rows:
        traces = standings.explain(row.start_number)
        assert traces["PTS"].value == row.points
        for criterion, value in row.values.items():
            trace = traces[criterion]
            assert trace.value == value, (row.start_number, criterion)
            if trace.total is not None:
                assert sum(trace.terms(), Fraction(0)) == trace.total, (row.start_number, criterion)
