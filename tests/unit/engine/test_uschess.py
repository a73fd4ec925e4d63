"""US Chess rule 34 (rule set ``us-chess``, spec §11 and §15 T12, T9).

Expected values come from the spec's tables or from the hand arithmetic in the comments.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from tests.golden._trf_min import parse_trf
from tiebreaks.engine import CriterionNotAllowed, UnknownCriterion, compute_standings, recommended_criteria
from tiebreaks.engine.reasons import ALL_REASONS

from .builders import TournamentBuilder
from .test_spec_cases import T9_TRF

REPO = Path(__file__).resolve().parents[3]
US = ["SOLK", "MM", "MED", "CUM", "OPPCUM", "SB", "KASH", "BLK"]

# spec §15 T9, "US Chess rule set on the same file" (cumulative subtracting 1 per unplayed win
# or full bye and ½ per half-point bye)
T9_US = """\
1 3.0 10.5 10.5 7.0 9.0 33.0 5.5 11 2
2 3.5 9.0 9.0 6.0 9.0 28.5 7.5 10 1
3 3.0 12.0 11.0 7.5 9.5 34.0 5.5 13 3
4 1.0 10.5 7.5 7.5 4.5 30.0 0.75 5 3
5 3.0 12.0 11.0 7.5 10.0 33.5 5.75 13 2
6 1.5 7.0 4.0 4.0 1.5 24.0 0.5 4 1
7 2.5 0.0 0.0 0.0 4.0 0.0 0.0 0 0
"""


@pytest.fixture(scope="module")
def t9():  # type: ignore[no-untyped-def]
    return compute_standings(parse_trf(T9_TRF), US, rules="us-chess")


@pytest.mark.parametrize("line", T9_US.splitlines(), ids=lambda line: f"player{line.split()[0]}")
def test_t9_us_table(t9, line: str) -> None:  # type: ignore[no-untyped-def]
    sno, adjusted, *cells = line.split()
    row = t9.row(int(sno))
    assert {c: row.values[c] for c in US} == {c: F(v) for c, v in zip(US, cells, strict=True)}
    assert t9.explain(int(sno))["SOLK"].details["adjusted_score"] == F(adjusted)


def test_t9_cumulative_without_the_half_point_bye_reduction() -> None:
    # spec T9: P2's half-point bye no longer subtracts ½ (CUM 9.5), so Cum. of opp. changes for
    # P2's opponents met at the board: 33.5, 28.5, 34.5, 30.0, 34.0, 24.0, 0.0
    standings = compute_standings(parse_trf(T9_TRF), ["CUM", "OPPCUM"], rules="us-chess-cum-full-point")
    assert standings.row(2).values["CUM"] == F("9.5")
    assert [standings.row(s).values["OPPCUM"] for s in range(1, 8)] == [
        F(x) for x in ("33.5", "28.5", "34.5", "30", "34", "24", "0")
    ]
    assert standings.rules == "us-chess-cum-full-point"


def test_t9_default_order_separates_p3_and_p5_at_cumulative() -> None:
    criteria = recommended_criteria("swiss", 5, rules="us-chess")
    assert criteria == ["PTS", "MM", "SOLK", "CUM", "OPPCUM"]
    standings = compute_standings(parse_trf(T9_TRF), criteria, rules="us-chess")
    sep = standings.separation(3, 5)
    assert (sep.criterion, sep.value_a, sep.value_b) == ("CUM", F("9.5"), F(10))
    # points 4, 3.5, then P5 above P3 (same MM 11, SOLK 12), 1.5, 1, 0.5
    assert [r.start_number for r in standings.rows] == [2, 1, 5, 3, 4, 7, 6]
    assert [r.rank for r in standings.rows] == [1, 2, 3, 4, 5, 6, 7]


def test_every_us_trace_adds_up_and_uses_known_reason_codes() -> None:
    standings = compute_standings(parse_trf(T9_TRF), [*US, "H2H"], rules="us-chess")
    for sn in range(1, 8):
        for code, trace in standings.explain(sn).items():
            assert trace.value == trace.total == sum(trace.terms(), F(0)), (sn, code)
            for e in trace.elements:
                assert e.reason in ALL_REASONS and (e.removed is None or e.removed in ALL_REASONS)
                assert all(a.reason in ALL_REASONS for a in e.adjustments)
            if code != "PTS":  # SB too: the shared Sonneborn-Berger function cites 34E8 / 34 here
                assert all(e.article.startswith("34") for e in trace.elements), (sn, code)
                assert all(a.article == "34" for e in trace.elements for a in e.adjustments), (sn, code)


def test_sonneborn_berger_trace_cites_rule_34_under_us_chess() -> None:
    # T9 P2 (4/5): R1 vs P5 (3, drawn), R2 half-point bye, R3 beat P1 (adjusted 3: the R4 bye
    # counts ½ under 34), R4 beat P3 (3), R5 forfeit win: ½·3 + 0 + 3 + 3 + 0 = 7½
    trace = compute_standings(parse_trf(T9_TRF), ["SB"], rules="us-chess").explain(2)["SB"]
    assert trace.value == F("7.5")
    assert [(e.round, e.value, e.reason, e.article) for e in trace.elements] == [
        (1, F(3), "actual_score", "34E8"),
        (2, F(0), "dummy_zero", "34"),
        (3, F(3), "us_adjusted_score", "34E8"),
        (4, F(3), "actual_score", "34E8"),
        (5, F(0), "dummy_zero", "34"),
    ]
    assert [(a.round, a.reason, a.article) for a in trace.elements[2].adjustments] == [
        (4, "unplayed_counts_as_draw", "34")
    ]
    assert trace.elements[4].adjustments == ()
    assert trace.details["adjusted_score"] == F("3.5")


def test_sonneborn_berger_trace_under_fide_2026_keeps_the_c07_articles() -> None:
    trace = compute_standings(parse_trf(T9_TRF), ["SB"], rules="fide-2026").explain(2)["SB"]
    assert trace.value == F("10.25")  # spec T9
    assert [(e.round, e.value, e.reason, e.article) for e in trace.elements] == [
        (1, F(3), "actual_score", "8.1"),
        (2, F("2.5"), "dummy_cap_half_rounds", "16.4.2"),
        (3, F("3.5"), "actual_score", "8.1"),
        (4, F(3), "actual_score", "8.1"),
        (5, F(1), "dummy_cap_opponent_adjusted", "16.4.1"),
    ]
    assert [(a.round, a.reason, a.article) for a in trace.elements[4].adjustments] == [
        (4, "requested_bye_counts_as_draw", "16.3")
    ]
    assert trace.details == {"own_score": F(4)}


# --- T12: adjusted scores, Solkoff, Modified Median, Harkness, cumulative ---------------------
def test_t12_adjusted_score_of_a_withdrawn_player() -> None:
    # W, W, L, then withdrew before rounds 4-5: 1 + 1 + 0 + ½ + ½ = 3 (score 2)
    b = TournamentBuilder(5)
    b.game(1, "Q", "a", "1")
    b.game(2, "Q", "b", "1")
    b.game(3, "Q", "c", "0")  # rounds 4 and 5: absent
    standings = compute_standings(b.tournament(), ["SOLK"], rules="us-chess")
    trace = standings.explain(b.sn("Q"))["SOLK"]
    assert trace.details["own_score"] == F(2)
    assert trace.details["adjusted_score"] == F(3)
    assert [(a["round"], a["counted"], a["article"]) for a in trace.details["adjusted_rounds"]] == [
        (4, 0.5, "34"),
        (5, 0.5, "34"),
    ]


def _wintd() -> TournamentBuilder:
    """WinTD example: 5 rounds, A and B both on 4-1 (every game played).

    A's opponents finish on 0, 3, 3, 4, 5 (A lost to the 5); B's on 3, 2, 5, 3, 3 (lost to the 5).
    """
    b = TournamentBuilder(5)
    for label, scores in (("A", ("0", "3", "3", "4", "5")), ("B", ("3", "2", "5", "3", "3"))):
        for rnd, score in enumerate(scores, start=1):
            b.game(rnd, label, f"{label}{rnd}", "0" if score == "5" else "1")
        for rnd, score in enumerate(scores, start=1):
            b.fill(f"{label}{rnd}", score)
    return b


@pytest.mark.parametrize(
    ("criterion", "a", "b"),
    [("SOLK", "15", "16"), ("MM", "15", "14"), ("MED", "10", "9")],
)
def test_t12_wintd_solkoff_modified_median_harkness(criterion: str, a: str, b: str) -> None:
    builder = _wintd()
    standings = compute_standings(builder.tournament(), [criterion], rules="us-chess")
    assert standings.row(builder.sn("A")).values[criterion] == F(a)
    assert standings.row(builder.sn("B")).values[criterion] == F(b)


def test_t12_wintd_modified_median_explained() -> None:
    builder = _wintd()
    standings = compute_standings(builder.tournament(), ["MM"], rules="us-chess")
    trace = standings.explain(builder.sn("B"))["MM"]  # plus score (4 > 2½): the lowest, 2, dropped
    assert trace.details["score_class"] == "us_plus_score"
    assert [(e.round, e.value, e.removed, e.article) for e in trace.removed] == [
        (2, F(2), "mm_plus_lowest_dropped", "34E1")
    ]


def _results(*results: str) -> TournamentBuilder:
    b = TournamentBuilder(len(results))
    for rnd, result in enumerate(results, start=1):
        if result in ("U", "F", "H", "Z"):
            b.bye(rnd, "P", result)
        else:
            b.game(rnd, "P", f"o{rnd}", result)
    return b


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        (("U", "1", "0", "=", "1"), "10"),  # bye, W, L, D, W: 1 + 2 + 2 + 2½ + 3½ - 1
        (("1", "0", "1", "1", "="), "10.5"),  # Saint Louis CC: 1 + 1 + 2 + 3 + 3½
        (("1", "1", "1", "0", "1"), "13"),  # spec T3: the FIDE PS values, no unplayed round
        (("0", "1", "1", "1", "1"), "10"),
    ],
)
def test_t12_cumulative(results: tuple[str, ...], expected: str) -> None:
    b = _results(*results)
    standings = compute_standings(b.tournament(), ["CUM"], rules="us-chess")
    assert standings.row(b.sn("P")).values["CUM"] == F(expected)


def test_cumulative_reductions_for_each_kind_of_unplayed_round() -> None:
    # R1 forfeit win, R2 half-point bye, R3 loss, R4 full-point bye, R5 draw, R6 forfeit loss:
    # running 1, 1½, 1½, 2½, 3, 3 = 12½; minus 1 (forfeit win) + ½ (HPB) + 1 (FPB) = 10
    b = TournamentBuilder(6)
    b.game(1, "P", "x", "+")
    b.bye(2, "P", "H")
    b.game(3, "P", "o3", "0")
    b.bye(4, "P", "F")
    b.game(5, "P", "o5", "=")
    b.game(6, "P", "o6", "-")  # forfeit loss: 0 points, nothing to subtract; running 3 again
    p = b.sn("P")
    standings = compute_standings(b.tournament(), ["CUM"], rules="us-chess")
    assert standings.row(p).values["CUM"] == F("9.5") + 3 - F("2.5")
    trace = standings.explain(p)["CUM"]
    reductions = [(e.round, e.contribution, e.reason) for e in trace.elements if e.contribution < 0]
    assert reductions == [
        (1, F(-1), "cum_unplayed_win_subtracted"),
        (2, F("-0.5"), "cum_half_point_bye_subtracted"),
        (4, F(-1), "cum_unplayed_win_subtracted"),
    ]
    assert all(e.article == "34E3" for e in trace.elements)
    # the variant subtracts only the full points: 12½ - 2
    variant = compute_standings(b.tournament(), ["CUM"], rules="us-chess-cum-full-point")
    assert variant.row(p).values["CUM"] == F("10.5")


# --- Modified Median by the player's plus / even / minus score, two each side from 9 rounds -----
def _median_event(rounds: int, players: dict[str, list[tuple[str, str]]]) -> TournamentBuilder:
    """``players``: label -> [(result of the label vs that round's opponent, opponent's final score)]."""
    b = TournamentBuilder(rounds)
    for label, games in players.items():
        for rnd, (result, _) in enumerate(games, start=1):
            b.game(rnd, label, f"{label}-o{rnd}", result)
    for label, games in players.items():
        for rnd, (_, score) in enumerate(games, start=1):
            b.fill(f"{label}-o{rnd}", score)
    return b


def _games(results: str, scores: str) -> list[tuple[str, str]]:
    return list(zip(results, scores.split(), strict=True))


NINE = {
    "Plus": _games("111111000", "0 1 2 3 4 5 6 7 8"),  # 6/9, plus: opponents 0..8 (sum 36)
    "Even": _games("1111=0000", "0 1 2 3 4.5 5 6 7 8"),  # 4½/9, even: sum 36½
    "Minus": _games("111000000", "0 1 2 3 4 5 6 7 8"),  # 3/9, minus: sum 36
}


@pytest.mark.parametrize(
    ("player", "solkoff", "mm", "med"),
    [
        ("Plus", "36", "35", "20"),  # MM drops the two lowest (0, 1); MED also the two highest (7, 8)
        ("Even", "36.5", "20.5", "20.5"),  # even: two highest and two lowest: 36½ - 1 - 15
        ("Minus", "36", "21", "20"),  # minus: the two highest (7, 8) only
    ],
)
def test_nine_rounds_drop_two_on_each_applicable_side(player: str, solkoff: str, mm: str, med: str) -> None:
    b = _median_event(9, NINE)
    standings = compute_standings(b.tournament(), ["SOLK", "MM", "MED"], rules="us-chess")
    row = standings.row(b.sn(player))
    assert (row.values["SOLK"], row.values["MM"], row.values["MED"]) == (F(solkoff), F(mm), F(med))
    trace = standings.explain(b.sn(player))["MM"]
    assert trace.details["drops_per_side"] == 2
    assert len(trace.removed) == (4 if player == "Even" else 2)


FIVE = {
    # 2½/5, even: opponents 1, 2, 3, 4, 5 (sum 15): drop the 1 and the 5
    "Even": [("1", "1"), ("1", "2"), ("=", "3"), ("0", "4"), ("0", "5")],
    # 2/5, minus: opponents 1, 2, 3, 4, 5: drop the 5
    "Minus": [("1", "1"), ("1", "2"), ("0", "3"), ("0", "4"), ("0", "5")],
    # 3/5, plus: opponents 1, 2, 3, 4, 5: drop the 1
    "Plus": [("1", "1"), ("1", "2"), ("1", "3"), ("0", "4"), ("0", "5")],
}


@pytest.mark.parametrize(
    ("player", "mm", "reasons"),
    [
        ("Even", "9", ["mm_even_lowest_dropped", "mm_even_highest_dropped"]),
        ("Minus", "10", ["mm_minus_highest_dropped"]),
        ("Plus", "14", ["mm_plus_lowest_dropped"]),
    ],
)
def test_five_rounds_drop_one_by_plus_even_minus_score(player: str, mm: str, reasons: list[str]) -> None:
    b = _median_event(5, FIVE)
    standings = compute_standings(b.tournament(), ["MM", "MED"], rules="us-chess")
    assert standings.row(b.sn(player)).values["MM"] == F(mm)
    assert standings.row(b.sn(player)).values["MED"] == F(9)  # 15 - 1 - 5 for everybody
    trace = standings.explain(b.sn(player))["MM"]
    assert [e.removed for e in trace.removed] == reasons
    assert trace.details["drops_per_side"] == 1


def test_own_unplayed_zero_is_dropped_only_when_it_is_the_lowest() -> None:
    # T9 P4 (1.5, minus score): elements 3, 0 (forfeit win = opponent with 0), 1.5, 3, 3
    trace = compute_standings(parse_trf(T9_TRF), ["MM"], rules="us-chess").explain(4)["MM"]
    zero = trace.elements[1]
    assert (zero.value, zero.dummy, zero.reason, zero.article, zero.removed) == (
        F(0),
        True,
        "dummy_zero",
        "34",
        None,
    )
    assert [(e.value, e.removed) for e in trace.removed] == [(F(3), "mm_minus_highest_dropped")]
    assert trace.value == F("7.5")


# --- 34E5, 34E6, 34E7 -------------------------------------------------------------------------
def test_head_to_head_ranks_by_plus_minus_not_percentage() -> None:
    # seven players on 3/5; among them A beat C, D, E and lost to F (3-1 = +2); B beat G (1-0 = +1)
    b = TournamentBuilder(5)
    b.game(1, "A", "C", "1")
    b.game(2, "A", "D", "1")
    b.game(3, "A", "E", "1")
    b.game(4, "A", "F", "0")
    b.game(1, "B", "G", "1")
    for label in "ABCDEFG":
        b.fill(label, "3")
    standings = compute_standings(b.tournament(), ["H2H"], rules="us-chess")
    values = {label: standings.row(b.sn(label)).values["H2H"] for label in "ABCDEFG"}
    assert values == {"A": 2, "B": 1, "C": -1, "D": -1, "E": -1, "F": 1, "G": -1}
    ranks = {label: standings.row(b.sn(label)).rank for label in "ABCDEFG"}
    assert ranks == {"A": 1, "B": 2, "F": 2, "C": 4, "D": 4, "E": 4, "G": 4}
    trace = standings.explain(b.sn("A"))["H2H"]
    assert [(e.round, e.contribution, e.reason, e.article) for e in trace.elements][-1] == (
        4,
        F(-1),
        "head_to_head_result",
        "34E5",
    )
    assert sorted(trace.details["tied_with"]) == sorted(b.sn(x) for x in "BCDEFG")


def test_kashdan_prefers_a_win_and_a_loss_to_two_draws() -> None:
    b = TournamentBuilder(2)
    b.game(1, "WL", "x1", "1")
    b.game(2, "WL", "x2", "0")
    b.game(1, "DD", "y1", "=")
    b.game(2, "DD", "y2", "=")
    b.bye(1, "Bye", "F")
    b.game(2, "Bye", "z2", "0")
    standings = compute_standings(b.tournament(), ["KASH"], rules="us-chess")
    assert standings.row(b.sn("WL")).values["KASH"] == 5  # 4 + 1
    assert standings.row(b.sn("DD")).values["KASH"] == 4  # 2 + 2
    assert standings.row(b.sn("Bye")).values["KASH"] == 1  # 0 for the unplayed game + 1
    assert standings.row(b.sn("WL")).rank < standings.row(b.sn("DD")).rank


# --- the rule set refuses what it does not offer -----------------------------------------------
@pytest.mark.parametrize("code", ["BH", "BH/C1", "DE", "PS", "ARO", "STD"])
def test_fide_criteria_are_refused_under_us_chess(code: str) -> None:
    with pytest.raises(CriterionNotAllowed, match="us-chess"):
        compute_standings(parse_trf(T9_TRF), [code], rules="us-chess")


@pytest.mark.parametrize("code", ["MM/C1", "SOLK/M1", "CUM/C1", "KASH/P"])
def test_us_systems_take_no_modifiers(code: str) -> None:
    with pytest.raises(UnknownCriterion, match="not allowed"):
        compute_standings(parse_trf(T9_TRF), [code], rules="us-chess")


@pytest.mark.parametrize("code", ["SB/C1", "SB/C2", "SB/P"])
def test_shared_sonneborn_berger_takes_no_modifiers_under_us_chess(code: str) -> None:
    # SB exists under us-chess (34E8) but with its fixed definition: the rule set's modifier
    # policy (rules.check_criterion) refuses it in one line naming the rule set
    with pytest.raises(CriterionNotAllowed) as refused:
        compute_standings(parse_trf(T9_TRF), [code], rules="us-chess")
    message = str(refused.value)
    assert "\n" not in message and "us-chess" in message and code in message


# --- the command line ---------------------------------------------------------------------------
def _cli(tmp_path: Path, *args: str, trf: str = T9_TRF) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "t9.trf"
    path.write_text(trf, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "tiebreaks", "standings", str(path), *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )


def test_cli_us_chess_json(tmp_path: Path) -> None:
    done = _cli(tmp_path, "--rules", "us-chess", "--criteria", "MM,SOLK", "--json")
    assert done.returncode == 0, done.stderr
    assert '"rules": "us-chess"' in done.stdout
    result = json.loads(done.stdout)
    assert result["criteria"] == ["MM", "SOLK"]
    values = {row["start_number"]: row["values"] for row in result["rows"]}
    assert values[3] == {"MM": 11, "SOLK": 12}  # spec T9 US table
    assert values[4] == {"MM": 7.5, "SOLK": 10.5}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rules", "us-chez", "--criteria", "MM"), "us-chez"),
        (("--rules", "us-chess", "--criteria", "BH/C1"), "BH/C1"),
        (("--rules", "fide-2023", "--criteria", "STD"), "STD"),
        (("--rules", "fide-2026", "--criteria", "MM"), "MM"),
    ],
)
def test_cli_refuses_unknown_rule_sets_and_foreign_criteria(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    done = _cli(tmp_path, *args, "--json")
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr


def test_cli_us_chess_without_criteria_uses_the_us_default_order(tmp_path: Path) -> None:
    # no 202/212 record and no --criteria: the rule set's published order (34: MM, SOLK, CUM,
    # OPPCUM), not the FIDE recommendation that starts with BH/C1
    trf = "".join(line for line in T9_TRF.splitlines(keepends=True) if not line.startswith("202"))
    done = _cli(tmp_path, "--rules", "us-chess", "--json", trf=trf)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["rules"] == "us-chess"
    assert result["criteria"] == ["MM", "SOLK", "CUM", "OPPCUM"]
    # same order as test_t9_default_order_separates_p3_and_p5_at_cumulative
    assert [row["start_number"] for row in result["rows"]] == [2, 1, 5, 3, 4, 7, 6]
    values = {row["start_number"]: row["values"] for row in result["rows"]}
    assert values[3] == {"MM": 11, "SOLK": 12, "CUM": 9.5, "OPPCUM": 34}  # spec T9 US table
    # the table form too
    table = _cli(tmp_path, "--rules", "us-chess", trf=trf)
    assert table.returncode == 0, table.stderr
    assert "Tie-breaks: MM, SOLK, CUM, OPPCUM" in table.stdout
