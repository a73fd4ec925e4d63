"""The engine's command line (DESIGN.md "The engine's command line"), run as a real process.

Expected values come from the spec (trf-format.md §12.3) and from the golden files (values of
FIDE's checker), never from the command's own output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import GOLDEN

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = ROOT / "tests" / "fixtures" / "trf" / "golden-mini-swiss.trf"

# spec §12.3: rank, start number, points, BH/C1, BH, SB
SPEC_TABLE = [
    (1, 2, 4.0, 10.5, 13.0, 10.25),
    (2, 1, 3.5, 12.5, 14.0, 8.50),
    (3, 5, 3.0, 12.0, 13.0, 6.00),
    (4, 3, 3.0, 12.0, 13.0, 5.75),
    (5, 4, 1.5, 11.0, 12.0, 2.00),
    (6, 7, 1.0, 4.0, 5.0, 1.00),
    (7, 6, 0.5, 8.0, 8.5, 0.75),
]


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tiebreaks", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def standings_json(*args: str | Path) -> dict:
    result = run("standings", *args, "--json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def golden(name: str) -> dict:
    return json.loads((GOLDEN / name).read_text())


def write_golden_trf(tmp_path: Path, name: str) -> Path:
    path = tmp_path / Path(name).name.replace(".json", ".trf")
    path.write_text(golden(name)["trf"])
    return path


def assert_one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode != 0
    assert result.stdout == "", "a failing command must not print a (partial) table"
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]


# --- standings ----------------------------------------------------------------------------------


def test_json_standings_of_the_spec_example_use_the_files_tiebreak_list():
    out = standings_json(EXAMPLE)
    assert out["rules"] == "fide-2026"
    assert [c for c in out["criteria"] if c != "PTS"] == ["BH/C1", "BH", "SB"]
    got = [
        (
            r["rank"],
            r["start_number"],
            r["points"],
            r["values"]["BH/C1"],
            r["values"]["BH"],
            r["values"]["SB"],
        )
        for r in out["rows"]
    ]
    assert got == SPEC_TABLE
    assert out["rows"][0]["name"] == "Bravo, Ben"
    assert set(out["rows"][0]) >= {"rank", "start_number", "name", "points", "values"}


def test_criteria_on_the_command_line_replace_the_files_list():
    out = standings_json(EXAMPLE, "--criteria", "SB, BH")
    assert [c for c in out["criteria"] if c != "PTS"] == ["SB", "BH"]
    # 5 and 3 tie on points; SB separates them (6.00 vs 5.75 in spec §12.3)
    assert [r["start_number"] for r in out["rows"]] == [2, 1, 5, 3, 4, 7, 6]
    assert set(out["rows"][0]["values"]) >= {"SB", "BH"}


def test_players_still_tied_share_the_rank_number():
    out = standings_json(EXAMPLE, "--criteria", "PTS")
    assert [r["rank"] for r in out["rows"]] == [1, 2, 3, 3, 5, 6, 7]


def test_without_a_list_in_the_file_the_recommended_swiss_list_is_used(tmp_path):
    path = tmp_path / "no-list.trf"
    path.write_text("\n".join(line for line in EXAMPLE.read_text().splitlines() if not line.startswith("202")))
    out = standings_json(path)
    # spec §13, Swiss of 5-7 rounds: BH/C1, BH, SB
    assert [c for c in out["criteria"] if c != "PTS"] == ["BH/C1", "BH", "SB"]


def test_plain_output_is_a_table_with_every_player(tmp_path):
    result = run("standings", EXAMPLE)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("Rank"))
    assert header.split() == ["Rank", "SNo", "Name", "Pts", "BH/C1", "BH", "SB"]
    rows = lines[lines.index(header) + 2 :]
    assert len(rows) == 7
    assert rows[0].split()[:2] == ["1", "2"] and "Bravo, Ben" in rows[0] and "10.25" in rows[0]
    assert rows[-1].split()[:2] == ["7", "6"] and "Foxtrot, Fay" in rows[-1]


@pytest.mark.parametrize(
    "name",
    ["swiss-p028-r08-s01018-wd.json", "swiss-p040-r09-s01027-unr.json", "swiss-p011-r05-s01016.json"],
)
def test_json_values_equal_the_golden_values_for_all_26_criteria(tmp_path, name):
    gold = golden(name)
    args = ["--criteria", ",".join(gold["criteria"])]
    if gold["checker"]["unrated_rating"] is not None:
        args += ["--unrated-rating", str(gold["checker"]["unrated_rating"])]
    out = standings_json(write_golden_trf(tmp_path, name), *args)
    assert [r["start_number"] for r in out["rows"]] == gold["rank"]
    for row in out["rows"]:
        expected = gold["expected"][str(row["start_number"])]
        assert row["points"] == expected["PTS"]
        assert row["rank"] == gold["rank_numbers"][str(row["start_number"])]
        for criterion, value in expected.items():
            if criterion in ("PTS", "DE"):
                continue
            got = row["values"][criterion]
            assert (got is None) == (value is None), (row["start_number"], criterion, got, value)
            if value is not None:
                assert got == pytest.approx(value, abs=0.005), (row["start_number"], criterion)


def test_without_an_unrated_rating_rating_criteria_are_null(tmp_path):
    # golden README: unrated players and no rating for them => no rating-based values
    path = write_golden_trf(tmp_path, "swiss-p020-r07-s01029-unr.json")
    out = standings_json(path, "--criteria", "ARO,TPR")
    assert all(r["values"]["ARO"] is None and r["values"]["TPR"] is None for r in out["rows"])
    rated = standings_json(path, "--criteria", "ARO", "--unrated-rating", "1400")
    assert all(isinstance(r["values"]["ARO"], int | float) for r in rated["rows"][:3])


def test_round_robin_switch_applies_article_15_2(tmp_path):
    name = "rr-p008-r07-s01032.json"  # forfeits count as games in a round robin
    gold = golden(name)
    out = standings_json(write_golden_trf(tmp_path, name), "--round-robin", "--criteria", "SB,WIN,KS")
    for row in out["rows"]:
        expected = gold["expected"][str(row["start_number"])]
        assert row["values"]["SB"] == pytest.approx(expected["SB"])
        assert row["values"]["KS"] == pytest.approx(expected["KS"])


def test_a_latin1_file_with_accented_names(tmp_path):
    text = EXAMPLE.read_text().replace("Alpha, Anna  ", "Ålpha, Ånnæ  ")
    path = tmp_path / "latin1.trf"
    path.write_bytes(text.encode("latin-1"))
    out = standings_json(path)
    assert any(r["name"] == "Ålpha, Ånnæ" for r in out["rows"])


# --- explain -----------------------------------------------------------------------------------


def test_explain_shows_each_criterion_of_one_player():
    result = run("explain", EXAMPLE, "--player", "7")
    assert result.returncode == 0 and result.stderr == ""
    text = result.stdout
    assert "Golf, Gil" in text
    for criterion, value in (("BH/C1", "4"), ("BH", "5"), ("SB", "1")):
        assert f"{criterion} = {value}" in text
    assert "R2" in text  # the rounds are listed


def test_explain_json_traces_agree_with_the_standings():
    result = run("explain", EXAMPLE, "--player", "2", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["row"]["start_number"] == 2 and out["row"]["rank"] == 1
    traces = out["explain"]
    traces = traces.values() if isinstance(traces, dict) else traces
    values = {t["criterion"]: t["value"] for t in traces}
    assert values["BH/C1"] == 10.5 and values["BH"] == 13 and values["SB"] == 10.25


# --- the rule edition: the file's start date decides it, as on the site (issue 30) --------------

#: spec T9 (tiebreak-rules §15, the EXAMPLE file) under fide-2023 (the checker's /V2024), players 1..7
T9_FIDE_2023 = {
    "BH": [15.0, 17.5, 13.0, 12.0, 13.0, 8.5, 5.0],
    "BH/C1": [13.5, 13.5, 12.0, 11.0, 12.0, 8.0, 4.0],
    "SB": [9.5, 14.0, 5.75, 2.0, 6.0, 0.75, 1.0],
}


def example_starting(tmp_path: Path, date: str) -> Path:
    """EXAMPLE with 042 written `date` (its end date stays 2026/04/05, its rounds 26/04/04 to 26/04/05)."""
    path = tmp_path / "dated.trf"
    lines = EXAMPLE.read_text().splitlines()
    path.write_text("\n".join(f"042 {date}" if line.startswith("042") else line for line in lines) + "\n")
    return path


def by_start_number(out: dict, criterion: str) -> list:
    return [value for _number, value in sorted((r["start_number"], r["values"][criterion]) for r in out["rows"])]


def test_a_file_that_starts_before_march_2026_is_ranked_under_the_earlier_edition_and_says_so(tmp_path):
    path = example_starting(tmp_path, "2025/09/06")
    out = standings_json(path)
    assert out["rules"] == "fide-2023"
    assert out["edition"] == {"from": "start_date", "start_date": "2025-09-06", "written": None, "readings": []}
    assert {criterion: by_start_number(out, criterion) for criterion in T9_FIDE_2023} == T9_FIDE_2023
    assert run("standings", path).stdout.startswith("Rules: fide-2023 (from the start date 2025-09-06)")
    explained = run("explain", path, "--player", "2")
    assert "Rules: fide-2023 (from the start date 2025-09-06)" in explained.stdout
    assert "BH = 17.5" in explained.stdout


def test_rules_given_on_the_command_line_replace_the_files_edition(tmp_path):
    out = standings_json(example_starting(tmp_path, "2025/09/06"), "--rules", "fide-2026")
    assert (out["rules"], out["edition"]["from"]) == ("fide-2026", "option")
    assert by_start_number(out, "BH") == [r[4] for r in sorted(SPEC_TABLE, key=lambda r: r[1])]


def test_an_ambiguous_start_date_whose_readings_give_one_edition_needs_no_choice(tmp_path):
    out = standings_json(example_starting(tmp_path, "04/03/2026"))  # 4 March or 3 April 2026: the 2026 rules
    assert out["rules"] == "fide-2026"
    assert out["edition"] == {
        "from": "start_date_readings",
        "start_date": None,
        "written": "04/03/2026",
        "readings": ["2026-03-04", "2026-04-03"],
    }


def test_an_ambiguous_start_date_the_end_date_settles(tmp_path):
    out = standings_json(example_starting(tmp_path, "05/02/2026"))  # 2026-05-02 would start after the end
    assert (out["rules"], out["edition"]["start_date"]) == ("fide-2023", "2026-02-05")
    assert by_start_number(out, "BH") == T9_FIDE_2023["BH"]


def test_a_start_date_read_on_either_side_of_march_2026_gets_the_rules_in_force_and_a_warning(tmp_path):
    result = run("standings", example_starting(tmp_path, "01/03/2026"), "--json")  # 1 March or 3 January
    assert result.returncode == 0
    out = json.loads(result.stdout)
    assert (out["rules"], out["edition"]["from"]) == ("fide-2026", "default")
    assert out["edition"]["readings"] == ["2026-03-01", "2026-01-03"]
    [warning] = result.stderr.splitlines()
    assert warning.startswith("warning: ") and "01/03/2026" in warning and "--rules" in warning


# --- bad input: non-zero exit, one line on stderr, nothing on stdout -----------------------------


def test_missing_file():
    assert_one_line_error(run("standings", "does-not-exist.trf"), "does-not-exist.trf")


def test_unreadable_file_a_directory(tmp_path):
    assert_one_line_error(run("standings", tmp_path), str(tmp_path))


def test_bad_trf_line_names_the_line(tmp_path):
    lines = EXAMPLE.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("001    1"))
    lines[n] = lines[n][:98] + "Q" + lines[n][99:]  # round 1 result code Q
    path = tmp_path / "bad.trf"
    path.write_text("\n".join(lines))
    assert_one_line_error(run("standings", path, "--json"), f"line {n + 1}", "'Q'")


def test_a_wrong_points_column_is_a_warning_with_line_and_both_values_and_the_results_decide(tmp_path):
    lines = EXAMPLE.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("001    1"))
    lines[n] = lines[n][:80] + " 4.5" + lines[n][84:]
    path = tmp_path / "wrong-points.trf"
    path.write_text("\n".join(lines))
    result = run("standings", path, "--json")
    assert result.returncode == 0
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("warning:")
    assert f"line {n + 1}" in result.stderr and "4.5" in result.stderr and "3.5" in result.stderr
    rows = {r["start_number"]: r for r in json.loads(result.stdout)["rows"]}
    assert rows[1]["points"] == 3.5 and rows[1]["values"]["BH/C1"] == 12.5  # spec §12.3


# spec §12.2 by hand, rounds 1-3 only: 1+½+0, ½+½+1, 1+½+½, 0+1+½, ½+1+½, 0+0+½, 1+0+0
POINTS_AFTER_ROUND_3 = {1: 1.5, 2: 2.0, 3: 2.0, 4: 1.5, 5: 2.0, 6: 0.5, 7: 1.0}


def test_after_round_evaluates_the_first_rounds_only():
    out = standings_json(EXAMPLE, "--after-round", "3")
    assert {r["start_number"]: r["points"] for r in out["rows"]} == POINTS_AFTER_ROUND_3
    assert standings_json(EXAMPLE, "--after-round", "5") == standings_json(EXAMPLE)


def test_after_round_beyond_the_file_is_refused():
    assert_one_line_error(run("standings", EXAMPLE, "--after-round", "9"), "--after-round 9", "1..5")
    assert_one_line_error(run("standings", EXAMPLE, "--after-round", "0"), "--after-round 0")


def test_byes_entered_before_the_pairing_of_the_next_round_do_not_count(tmp_path):
    # round 6 holds only byes entered before its pairing: the standings stay after round 5
    lines = EXAMPLE.read_text().splitlines()
    out = []
    for line in lines:
        if line.startswith("001"):
            number = int(line[4:8])
            line = line.ljust(139) + ("  0000 - H" if number == 3 else "  0000 - Z" if number == 6 else "")
            line = line.rstrip() if number not in (3, 6) else line
            if number == 3:  # the points column includes the pre-entered half-point bye
                line = line[:80] + " 3.5" + line[84:]
        out.append(line.replace("142 5", "142 7"))
    path = tmp_path / "pre-entered.trf"
    path.write_text("\n".join(out))
    assert standings_json(path)["rows"] == standings_json(EXAMPLE)["rows"]


def test_unknown_criterion():
    assert_one_line_error(run("standings", EXAMPLE, "--criteria", "BH,NOPE"), "NOPE")


def test_criterion_not_allowed_in_a_round_robin():
    assert_one_line_error(run("standings", EXAMPLE, "--round-robin", "--criteria", "BH,SB"), "BH")


def test_unknown_player():
    assert_one_line_error(run("explain", EXAMPLE, "--player", "99"), "99")


def test_unknown_rule_set():
    assert_one_line_error(run("standings", EXAMPLE, "--rules", "fide-1999"), "fide-1999")


def test_unknown_command_and_missing_arguments():
    assert_one_line_error(run("tables", EXAMPLE))
    assert_one_line_error(run("explain", EXAMPLE))  # --player is required
    assert_one_line_error(run("standings", EXAMPLE, "--unrated-rating", "abc"), "abc")


def test_a_team_file_ranks_the_teams_in_the_checkers_order(tmp_path):
    name = "team/team-swiss-t08-b4-r05-s02000.json"
    path = write_golden_trf(tmp_path, name)
    out = standings_json(path, "--criteria", ",".join(golden(name)["criteria"]))
    assert [r["team_number"] for r in out["rows"]] == golden(name)["rank"]


def test_an_empty_criteria_list():
    assert_one_line_error(run("standings", EXAMPLE, "--criteria", " , "), "criteria")


def test_the_command_line_does_not_load_django():
    # the benchmark times the whole process: startup must stay cheap
    code = (
        "import sys, io, contextlib\n"
        "from tiebreaks.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = main(['standings', {str(EXAMPLE)!r}, '--json'])\n"
        "heavy = ('django', 'leagues', 'config', 'rest_framework')\n"
        "print(status, sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "0 []", result.stderr


def test_pts_listed_first_is_shown_as_the_first_column(tmp_path: Path) -> None:
    """Like FIDE's checker and the golden files: `--criteria PTS,BH` prints PTS (the points) among the
    values; without PTS in the list the values hold only the tiebreaks."""
    name = "swiss-p008-r05-s01000.json"
    trf = write_golden_trf(tmp_path, name)
    expected = golden(name)["expected"]
    with_pts = standings_json(trf, "--criteria", "PTS,BH")
    assert with_pts["criteria"] == ["PTS", "BH"]
    for row in with_pts["rows"]:
        assert row["values"]["PTS"] == row["points"] == expected[str(row["start_number"])]["PTS"]
    without = standings_json(trf, "--criteria", "BH")
    assert without["criteria"] == ["BH"]
    assert all(set(row["values"]) == {"BH"} for row in without["rows"])
