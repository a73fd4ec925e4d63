"""The engine's public API as other code (CLI, website) uses it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from tests.golden._trf_min import parse_trf
from tests.paths import GOLDEN
from tiebreaks.engine import (
    RULE_SETS,
    CriterionNotAllowed,
    EngineError,
    UnknownCriterion,
    compute_standings,
    parse_criterion,
    reasons,
    recommended_criteria,
)
from tiebreaks.engine.model import Participant, RoundEntry, Tournament

from .builders import TournamentBuilder
from .test_spec_cases import T9_TRF

REPO = Path(__file__).resolve().parents[3]


# --- criteria -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("bh/c1", "BH/C1"),
        ("BH/M1", "BH/M1"),
        ("KS/L-1", "KS/L-1"),
        ("KS/L+2", "KS/L+2"),
        ("BH/F", "FB"),
        ("AOB/F", "AOB/F"),
        ("TPN/R", "TPN/R"),
        ("RTNG/R", "RTNG/R"),
        ("DE/P", "DE/P"),
        ("BH!C1", "BH/C1"),
        ("GE", "REP"),
        ("ARO/U1400", "ARO/U1400"),
    ],
)
def test_criteria_are_normalised(text: str, code: str) -> None:
    assert parse_criterion(text).code == code


def test_an_unsigned_koya_limit_is_read_as_half_points_and_noted() -> None:
    crit = parse_criterion("KS/L1")
    assert (crit.code, crit.limit_half_points) == ("KS/L+1", 1)
    b = TournamentBuilder(1)
    b.game(1, "A", "B", "1")
    standings = compute_standings(b.tournament(), ["KS/L1"])
    assert [n.code for n in standings.notes] == [reasons.KOYA_LIMIT_UNSIGNED]


@pytest.mark.parametrize("text", ["XYZ", "BH/Q", "SB/M1", "PS/P", "", "MPTS", "BH:MP"])
def test_unknown_criteria_are_refused_with_a_one_line_message(text: str) -> None:
    with pytest.raises(UnknownCriterion) as info:
        parse_criterion(text)
    assert isinstance(info.value, EngineError)
    assert "\n" not in str(info.value)


def test_pts_first_is_accepted_as_a_no_op() -> None:
    standings = compute_standings(parse_trf(T9_TRF), ["PTS", "BH/C1", "BH", "SB"])
    assert standings.criteria == ["BH/C1", "BH", "SB"]
    assert standings.rules == "fide-2026"


def test_buchholz_in_a_round_robin_is_refused_naming_the_rule() -> None:
    b = TournamentBuilder(1, round_robin=True)
    b.game(1, "A", "B", "1")
    with pytest.raises(CriterionNotAllowed) as info:
        compute_standings(b.tournament(), ["SB", "AOB"])
    message = str(info.value)
    assert "AOB" in message and "Article 8" in message and "round robin" in message
    assert "\n" not in message


def test_unknown_rule_set_and_unknown_opponent_are_engine_errors() -> None:
    b = TournamentBuilder(1)
    b.game(1, "A", "B", "1")
    with pytest.raises(EngineError, match="rule set"):
        compute_standings(b.tournament(), ["BH"], rules="fide-1999")
    t = Tournament([Participant(1, "A", None, (RoundEntry("1", 9, "w"),))], 1)
    with pytest.raises(EngineError, match="opponent 9"):
        compute_standings(t, ["BH"])


# --- rule sets and recommendations ----------------------------------------------------------
def test_rule_sets_are_frozen_data() -> None:
    fide = RULE_SETS["fide-2026"]
    assert fide.dummy_bye_cap and fide.dummy_forfeit_cap and fide.cut_vur_first
    assert not fide.buchholz_in_round_robin
    with pytest.raises(AttributeError):
        fide.dummy_bye_cap = False  # type: ignore[misc]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        ("swiss", ["PTS", "BH/C1", "BH", "SB"]),
        ("round_robin", ["PTS", "SB", "DE", "KS"]),
        ("team_swiss", ["MPTS", "GPTS"]),
        ("team_round_robin", ["MPTS", "GPTS"]),
    ],
)
def test_recommended_orders_follow_spec_13(event: str, expected: list[str]) -> None:
    assert recommended_criteria(event) == expected


def test_recommended_swiss_order_depends_on_the_number_of_rounds() -> None:
    assert recommended_criteria("swiss", rounds=4) == ["PTS", "PS", "BH"]
    assert recommended_criteria("swiss", rounds=9) == ["PTS", "BH/C1", "BH/C2", "SB"]
    with pytest.raises(EngineError):
        recommended_criteria("blitz")


# --- ratings (Article 10) -------------------------------------------------------------------
def _unrated() -> TournamentBuilder:
    b = TournamentBuilder(2)
    b.player("A", 2000)
    b.player("B", 1800)
    b.player("C", None)
    b.player("D", 1600)
    b.game(1, "A", "B", "1")
    b.game(1, "C", "D", "=")
    b.game(2, "A", "C", "1")
    b.game(2, "B", "D", "0")
    return b


def test_rating_criteria_are_undefined_with_unrated_players_and_no_rule() -> None:
    standings = compute_standings(_unrated().tournament(), ["ARO", "TPR", "RTNG"])
    assert all(v is None for row in standings.rows for v in row.values.values())
    skipped = {n.criterion for n in standings.notes if n.code == reasons.CRITERION_SKIPPED_UNRATED}
    assert skipped == {"ARO", "TPR", "RTNG"}
    assert all(n.article == "10" for n in standings.notes)
    assert standings.explain(1)["ARO"].reason == reasons.UNDEFINED_UNRATED_PLAYERS


def test_an_announced_unrated_rating_is_used_for_opponents_and_own_performance() -> None:
    b = _unrated()
    standings = compute_standings(b.tournament(), ["ARO", "RTNG"], unrated_rating=1400)
    assert standings.row(b.sn("A")).values["ARO"] == F(1600)  # (1800 + 1400) / 2
    assert standings.row(b.sn("C")).values["RTNG"] == F(1400)
    per_criterion = compute_standings(b.tournament(), ["ARO/U1400"])
    assert per_criterion.row(b.sn("A")).values["ARO/U1400"] == F(1600)


def test_aro_cut_with_one_rated_game_is_undefined() -> None:
    b = TournamentBuilder(1)
    b.player("A", 2000)
    b.player("B", 1900)
    b.game(1, "A", "B", "1")
    standings = compute_standings(b.tournament(), ["ARO", "ARO/C1"])
    assert standings.row(1).values == {"ARO": F(1900), "ARO/C1": None}


# --- output ----------------------------------------------------------------------------------
def test_json_output_has_the_cli_contract_shape_and_fide_precision() -> None:
    standings = compute_standings(parse_trf(T9_TRF), ["BH/C1", "SB", "AOB", "ARO", "TPR", "DE"])
    out = standings.to_dict()
    assert set(out) == {"rules", "criteria", "rows", "notes"}
    first = out["rows"][0]
    assert set(first) == {"rank", "start_number", "name", "points", "values"}
    assert (first["rank"], first["start_number"], first["name"], first["points"]) == (1, 2, "Bravo, Ben", 4.0)
    assert first["values"] == {"BH/C1": 10.5, "SB": 10.25, "AOB": 13.33, "ARO": 2000, "TPR": 2273, "DE": 0}
    last = next(r for r in out["rows"] if r["start_number"] == 7)
    assert last["values"]["ARO"] is None
    json.dumps(standings.to_dict(explain=True))


def test_json_explanations_are_keyed_by_start_number_and_criterion() -> None:
    out = compute_standings(parse_trf(T9_TRF), ["BH/C1"]).to_dict(explain=True)
    trace = out["explanations"]["2"]["BH/C1"]
    assert trace["value"] == 10.5 and trace["total"] == 10.5
    assert [e["removed"] for e in trace["elements"]] == [None, "cut_vur_first", None, None, None]
    assert trace["elements"][1]["reason"] == "dummy_cap_half_rounds"  # min(own 4, 0.5 x 5)
    assert out["explanations"]["2"]["PTS"]["value"] == 4


def test_separation_reports_points_when_points_differ() -> None:
    standings = compute_standings(parse_trf(T9_TRF), ["BH/C1", "BH", "SB"])
    sep = standings.separation(1, 2)
    assert (sep.criterion, sep.value_a, sep.value_b) == ("PTS", F("3.5"), F(4))


# --- reason codes ----------------------------------------------------------------------------
def test_every_reason_code_has_a_one_line_english_comment() -> None:
    source = (REPO / "tiebreaks" / "engine" / "reasons.py").read_text().splitlines()
    tree = ast.parse("\n".join(source))
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            line = source[node.lineno - 1]
            above = source[node.lineno - 2] if node.lineno > 1 else ""
            assert "  # " in line or above.startswith("# "), line


def test_traces_use_only_reason_codes_from_the_reasons_module() -> None:
    standings = compute_standings(
        parse_trf(T9_TRF),
        ["DE", "BH/C1", "SB/C1", "FB", "AOB", "PS", "WIN", "REP", "STD", "KS", "ARO", "APPO"],
    )
    for row in standings.rows:
        for trace in standings.explain(row.start_number).values():
            if trace.reason is not None:
                assert trace.reason in reasons.ALL_REASONS
            for element in trace.elements:
                assert element.reason in reasons.ALL_REASONS
                assert element.removed is None or element.removed in reasons.ALL_REASONS
    for note in standings.notes:
        assert note.code in reasons.ALL_REASONS


# --- independence from Django ------------------------------------------------------------------
def test_the_engine_imports_without_django_or_leagues() -> None:
    code = (
        "import sys, tiebreaks.engine\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'leagues', 'rest_framework'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )
    assert result.stdout.strip() == ""


def test_a_comma_separated_list_is_accepted_like_trf_record_212() -> None:
    standings = compute_standings(parse_trf(T9_TRF), "PTS,BH/C1,BH,SB")
    assert standings.criteria == ["BH/C1", "BH", "SB"]


def test_fide_tables_match_the_published_anchor_values() -> None:
    from tiebreaks.engine.fide_tables import DP_BY_PERCENT, EXPECTED_BY_DIFF

    def expected_hundredths(own: int, opponent: int) -> int:  # the table is indexed from -800
        return EXPECTED_BY_DIFF[max(-800, min(800, own - opponent)) + 800]

    # B.02 8.1(a): 0 % -> -800, 50 % -> 0, 63 % -> +95, 99 % -> +677, 100 % -> +800
    assert [DP_BY_PERCENT[p] for p in (0, 1, 37, 50, 63, 99, 100)] == [-800, -677, -95, 0, 95, 677, 800]
    # B.02 8.1(b): range ends, seen from the higher-rated and the lower-rated player
    assert [expected_hundredths(1600 + d, 1600) for d in (0, 3, 4, 100, 411, 412, 619, 620, 735, 736)] == [
        50,
        50,
        51,
        64,
        92,
        93,
        98,
        99,
        99,
        100,
    ]
    assert expected_hundredths(1600, 2000) == 8  # 400 below: 1 - .92
    assert expected_hundredths(1000, 2600) == 0  # clipped at 800


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json"))[::3], ids=lambda path: path.stem)
def test_ranks_are_the_rows_ranks_tied_players_sharing_theirs(path: Path) -> None:
    """The places by start number (a player's page plots them after each round) without the rows' exact values."""
    data = json.loads(path.read_text())
    tournament = parse_trf(data["trf"], round_robin=data["mode"] == "round_robin")
    codes = ["DE", "WIN"] if data["mode"] == "round_robin" else ["BH/C1", "SB", "WIN"]
    ranks = compute_standings(tournament, codes).ranks()
    rows = compute_standings(tournament, codes).rows
    assert ranks == {row.start_number: row.rank for row in rows}
