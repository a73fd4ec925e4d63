"""Golden tests for team competitions: every file of tests/golden/data/fide2026/team (values of
FIDE's tie-break checker for MPTS EDE GPTS TBR BBE BC EMMSB EMGSB EGMSB EGGSB SSSC BH:MP BH:GP
BH:MP/C1 PS:MP WIN WON KS:MP AOB:MP STD FB:MP, keyed by team number), every team, the order and
the rank numbers - parsed with the project's own TRF reader.

The data lives inside the repository (copied from FIDE's checker output), so a clone alone passes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.paths import GOLDEN as GOLDEN_DIR
from tiebreaks.engine import CriterionNotAllowed
from tiebreaks.engine.team import TeamStandings, compute_team_standings
from tiebreaks.trf import read_trf

REPO = Path(__file__).resolve().parents[2]
GOLDEN = GOLDEN_DIR / "team"
FILES = sorted(GOLDEN.glob("*.json"))
ROUND_ROBIN_FILES = [f for f in FILES if json.loads(f.read_text())["mode"] == "round_robin"]
SWISS_FILES = [f for f in FILES if json.loads(f.read_text())["mode"] == "swiss"]
BUCHHOLZ_FAMILY = ("BH:MP", "BH:GP", "BH:MP/C1", "AOB:MP", "FB:MP")
ROUNDED = ("AOB:MP", "SSSC")  # the checker rounds these to 0.01 (half up) before ranking


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _standings(data: dict[str, Any], *, override: bool = True) -> TeamStandings:
    tournament = read_trf(data["trf"])
    assert tournament.round_robin == (data["mode"] == "round_robin")
    return compute_team_standings(
        tournament, data["criteria"], rules=data["rules"], allow_buchholz_in_round_robin=override
    )


def _equal(criterion: str, got: Fraction | None, expected: float | int | None) -> bool:
    if got is None or expected is None:
        return got is None and expected is None
    if criterion in ROUNDED:
        return round(got * 100) == round(Fraction(str(expected)) * 100)
    return got == Fraction(str(expected))


def test_the_team_golden_folder_is_there() -> None:
    assert len(FILES) == 10, f"team golden files not found in {GOLDEN}"
    assert ROUND_ROBIN_FILES and SWISS_FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_team_value_matches_the_golden_file(path: Path) -> None:
    data = _load(path)
    standings = _standings(data)
    assert sorted(row.team_number for row in standings.rows) == sorted(int(t) for t in data["expected"])
    mismatches = []
    for row in standings.rows:
        for criterion, value in data["expected"][str(row.team_number)].items():
            got = row.values[criterion]
            if not _equal(criterion, got, value):
                mismatches.append((row.team_number, criterion, value, got))
    assert mismatches == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_team_order_and_rank_numbers_match(path: Path) -> None:
    data = _load(path)
    standings = _standings(data)
    assert [row.team_number for row in standings.rows] == data["rank"]
    assert {str(row.team_number): row.rank for row in standings.rows} == data["rank_numbers"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_match_and_game_points_are_the_rows_scores(path: Path) -> None:
    data = _load(path)
    standings = _standings(data)
    for row in standings.rows:
        expected = data["expected"][str(row.team_number)]
        assert row.points == Fraction(str(expected["MPTS"]))  # match points decide (primary)
        team = standings.event.numbers.index(row.team_number)
        assert standings.event.gp_total(team) == Fraction(str(expected["GPTS"]))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_team_json_prints_the_golden_numbers(path: Path) -> None:
    data = _load(path)
    out = _standings(data).to_dict()
    assert out["criteria"] == data["criteria"]
    for row in out["rows"]:
        assert "start_number" not in row
        expected = data["expected"][str(row["team_number"])]
        assert row["name"] == f"Team {row['team_number']}"
        assert row["points"] == expected["MPTS"]
        for criterion, value in row["values"].items():
            assert value == expected[criterion], (row["team_number"], criterion)


@pytest.mark.parametrize("path", ROUND_ROBIN_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("criterion", BUCHHOLZ_FAMILY)
def test_team_round_robin_refuses_the_buchholz_family(path: Path, criterion: str) -> None:
    tournament = read_trf(_load(path)["trf"])
    with pytest.raises(CriterionNotAllowed, match=criterion.split(":")[0]):
        compute_team_standings(tournament, ["MPTS", "GPTS", criterion])


@pytest.mark.parametrize("path", ROUND_ROBIN_FILES, ids=lambda p: p.stem)
def test_team_round_robin_override_is_recorded_in_the_notes(path: Path) -> None:
    standings = _standings(_load(path))
    overridden = {n.criterion for n in standings.notes if n.code == "round_robin_buchholz_override"}
    assert overridden == set(BUCHHOLZ_FAMILY)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_team_explanation_agrees_with_its_value_and_adds_up(path: Path) -> None:
    standings = _standings(_load(path))
    for row in standings.rows:
        traces = standings.explain(row.team_number)
        assert traces["PTS"].value == row.points
        for criterion, value in row.values.items():
            trace = traces[criterion]
            assert trace.criterion == criterion
            assert trace.value == value, (row.team_number, criterion)
            if trace.total is not None:
                assert sum(trace.terms(), Fraction(0)) == trace.total, (row.team_number, criterion)
        json.dumps(standings.to_dict(explain=True))  # explanations are JSON-ready


@pytest.mark.parametrize("path", SWISS_FILES[:2], ids=lambda p: p.stem)
def test_cli_prints_team_rows_with_json(path: Path, tmp_path: Path) -> None:
    data = _load(path)
    trf = tmp_path / "event.trf"
    trf.write_text(data["trf"], encoding="latin-1")
    done = subprocess.run(
        [sys.executable, "-m", "tiebreaks", "standings", str(trf), "--json", "--criteria", ",".join(data["criteria"])],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["criteria"] == data["criteria"]
    assert [row["team_number"] for row in out["rows"]] == data["rank"]
    for row in out["rows"]:
        assert row["rank"] == data["rank_numbers"][str(row["team_number"])]
        assert row["values"] == data["expected"][str(row["team_number"])]
