"""Spec §15 test cases T1-T11 (FIDE rules), with the spec's numbers."""

# ruff: noqa: E501  (T9 embeds TRF lines, which are longer than the line limit)

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tests.golden._trf_min import parse_trf
from tiebreaks.engine import compute_standings
from tiebreaks.engine.model import Scoring

from .builders import TournamentBuilder


def values(b: TournamentBuilder, label: str, criteria: list[str], **kw):  # type: ignore[no-untyped-def]
    standings = compute_standings(b.tournament(), criteria, **kw)
    return standings.row(b.sn(label)).values


# --- T1 ------------------------------------------------------------------------------------
T1 = {
    "Ana": ["4", "3", "3", "2", "1"],
    "Bo": ["4", "3", "2.5", "2", "2"],
    "Cai": ["3", "3", "3", "2.5", "1"],
}


def _t1() -> TournamentBuilder:
    b = TournamentBuilder(5)
    for player, scores in T1.items():
        for rnd in range(1, len(scores) + 1):
            opponent = f"{player}-opp{rnd}"
            b.game(rnd, player, opponent, "0" if rnd == 1 else "1")  # loses to the first, 4/5
        for rnd, score in enumerate(scores, start=1):
            b.fill(f"{player}-opp{rnd}", score)
    return b


@pytest.mark.parametrize(
    ("player", "bh", "cut1", "median1", "cut2"),
    [
        ("Ana", "13", "12", "8", "10"),
        ("Bo", "13.5", "11.5", "7.5", "9.5"),
        ("Cai", "12.5", "11.5", "8.5", "9"),
    ],
)
def test_t1_buchholz_variants_of_three_tied_players(player: str, bh: str, cut1: str, median1: str, cut2: str) -> None:
    b = _t1()
    v = values(b, player, ["BH", "BH/C1", "BH/M1", "BH/C2"])
    assert (v["BH"], v["BH/C1"], v["BH/M1"], v["BH/C2"]) == (F(bh), F(cut1), F(median1), F(cut2))


@pytest.mark.parametrize(("criterion", "winner"), [("BH", "Bo"), ("BH/C1", "Ana"), ("BH/M1", "Cai")])
def test_t1_same_crosstable_three_champions(criterion: str, winner: str) -> None:
    b = _t1()
    standings = compute_standings(b.tournament(), [criterion])
    order = [r.name for r in standings.rows if r.name in T1]
    assert order[0] == winner


# --- T2 ------------------------------------------------------------------------------------
NAMES = ["Ana", "Bo", "Cai", "Dev", "Eli"]


def _t2() -> TournamentBuilder:
    b = TournamentBuilder(5, round_robin=True)
    for name in NAMES:
        b.player(name)
    b.game(1, "Ana", "Bo", "=")
    b.game(1, "Cai", "Dev", "1")
    b.bye(1, "Eli", "Z")
    b.game(2, "Ana", "Cai", "1")
    b.game(2, "Dev", "Eli", "1")
    b.bye(2, "Bo", "Z")
    b.game(3, "Dev", "Ana", "=")
    b.game(3, "Eli", "Bo", "0")
    b.bye(3, "Cai", "Z")
    b.game(4, "Ana", "Eli", "1")
    b.game(4, "Cai", "Bo", "=")
    b.bye(4, "Dev", "Z")
    b.game(5, "Bo", "Dev", "1")
    b.game(5, "Eli", "Cai", "0")
    b.bye(5, "Ana", "Z")
    return b


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        ("SB", ["4.75", "4.25", "3", "1.5", "0"]),
        ("KS", ["1.5", "1", "0.5", "0.5", "0"]),
        ("WIN", ["2", "2", "2", "1", "0"]),
        ("BPG", ["1", "3", "2", "2", "2"]),
        ("PS", ["10", "7.5", "7", "5.5", "0"]),
    ],
)
def test_t2_five_player_round_robin(criterion: str, expected: list[str]) -> None:
    b = _t2()
    standings = compute_standings(b.tournament(), [criterion])
    assert [standings.row(b.sn(n)).values[criterion] for n in NAMES] == [F(x) for x in expected]


def test_t2_sb_cut1_removes_elis_zero() -> None:
    b = _t2()
    standings = compute_standings(b.tournament(), ["SB/C1"])
    assert standings.row(b.sn("Ana")).values["SB/C1"] == F("4.75")
    assert standings.row(b.sn("Bo")).values["SB/C1"] == F("4.25")


def test_t2_direct_encounter_does_not_separate_ana_and_bo_but_sb_does() -> None:
    b = _t2()
    standings = compute_standings(b.tournament(), ["DE"])
    ana, bo = standings.row(b.sn("Ana")), standings.row(b.sn("Bo"))
    assert ana.rank == bo.rank == 1
    assert not standings.separation(b.sn("Ana"), b.sn("Bo")).separated
    standings = compute_standings(b.tournament(), ["DE", "SB"])
    sep = standings.separation(b.sn("Ana"), b.sn("Bo"))
    assert (sep.criterion, sep.value_a, sep.value_b) == ("SB", F("4.75"), F("4.25"))
    assert standings.rows[0].name == "Ana"


def test_t2_buchholz_only_with_the_override_and_then_equal_for_the_tied_pair() -> None:
    b = _t2()
    standings = compute_standings(b.tournament(), ["BH"], allow_buchholz_in_round_robin=True)
    assert [standings.row(b.sn(n)).values["BH"] for n in NAMES] == [F(7), F(7), F("7.5"), F("8.5"), F(10)]


# --- T3 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("results", "expected"),
    [("1 1 1 0 1", 13), ("0 1 1 1 1", 10), ("1 1 1 0", 9), ("0 1 1 1", 6)],
)
def test_t3_progressive_scores(results: str, expected: int) -> None:
    codes = results.split()
    b = TournamentBuilder(len(codes))
    for rnd, code in enumerate(codes, start=1):
        b.game(rnd, "P", f"opp{rnd}", code)
    assert values(b, "P", ["PS"])["PS"] == expected


# --- T4 ------------------------------------------------------------------------------------
def _t4() -> TournamentBuilder:
    b = TournamentBuilder(5)
    for rnd, opp in ((1, "O1"), (2, "O2"), (4, "O3"), (5, "O4")):
        b.game(rnd, "P", opp, "1")
    b.bye(3, "P", "H")
    for opp, score in (("O1", "3.5"), ("O2", "3"), ("O3", "2.5"), ("O4", "2")):
        b.fill(opp, score)
    return b


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [("BH", "13.5"), ("BH/C1", "11"), ("BH/C2", "9"), ("BH/M1", "7.5"), ("SB", "12.25"), ("SB/C1", "10.25")],
)
def test_t4_bye_cap_and_cut1_exception(criterion: str, expected: str) -> None:
    assert values(_t4(), "P", [criterion])[criterion] == F(expected)


def test_t4_explanation_shows_the_capped_dummy_cut_first() -> None:
    b = _t4()
    standings = compute_standings(b.tournament(), ["BH/C1"])
    trace = standings.explain(b.sn("P"))["BH/C1"]
    dummy = next(e for e in trace.elements if e.round == 3)
    assert dummy.dummy and dummy.vur
    assert (dummy.value, dummy.reason, dummy.article) == (F("2.5"), "dummy_cap_half_rounds", "16.4.2")
    assert dummy.removed == "cut_vur_first"
    assert [e.round for e in trace.removed] == [3]
    assert sum(trace.terms()) == trace.value == F(11)


# --- T5 / T6 -------------------------------------------------------------------------------
def _t5(x_withdraws: bool) -> TournamentBuilder:
    b = TournamentBuilder(5)
    b.game(1, "P", "X", "+")
    b.game(2, "P", "O1", "1")
    b.game(3, "P", "O2", "1")
    b.game(4, "P", "O3", "0")
    b.game(5, "P", "O4", "1")
    if x_withdraws:
        for rnd in range(2, 6):
            b.bye(rnd, "X", "Z")
    else:
        for rnd, result in ((2, "="), (3, "="), (4, "="), (5, "0")):
            b.game(rnd, "X", f"x-opp{rnd}", result)
    for opp, score in (("O1", "3.5"), ("O2", "3"), ("O3", "4"), ("O4", "2.5")):
        b.fill(opp, score)
    return b


@pytest.mark.parametrize(("criterion", "expected"), [("BH", "14.5"), ("BH/C1", "13"), ("SB", "10.5")])
def test_t5_forfeit_dummy_capped_at_the_no_shows_adjusted_score(criterion: str, expected: str) -> None:
    assert values(_t5(False), "P", [criterion])[criterion] == F(expected)


def test_t5_forfeit_win_dummy_explained_and_forfeit_loss_dummy_cut_first() -> None:
    b = _t5(False)
    standings = compute_standings(b.tournament(), ["BH/C1"])
    p_trace = standings.explain(b.sn("P"))["BH/C1"]
    first = p_trace.elements[0]
    assert (first.dummy, first.value, first.reason, first.article, first.vur) == (
        True,
        F("1.5"),
        "dummy_cap_opponent_adjusted",
        "16.4.1",
        False,
    )
    assert first.removed == "cut_lowest"  # not a VUR: cut only because it is the lowest
    x_trace = standings.explain(b.sn("X"))["BH/C1"]
    x_first = x_trace.elements[0]
    assert (x_first.value, x_first.vur, x_first.removed) == (F("1.5"), True, "cut_vur_first")


@pytest.mark.parametrize(("criterion", "expected"), [("BH", "15"), ("BH/C1", "13"), ("SB", "11")])
def test_t6_no_show_who_withdraws(criterion: str, expected: str) -> None:
    assert values(_t5(True), "P", [criterion])[criterion] == F(expected)


def test_t6_withdrawn_no_show_has_adjusted_score_two() -> None:
    b = _t5(True)
    trace = compute_standings(b.tournament(), ["BH"]).explain(b.sn("X"))["BH"]
    assert trace.details["adjusted_score"] == F(2)
    assert trace.details["own_score"] == F(0)


# --- T7 ------------------------------------------------------------------------------------
def _t7() -> TournamentBuilder:
    b = TournamentBuilder(10)
    results = ["1", "1", "0", None, "1", "=", "1", "=", "1", "1"]
    scores = ["5", "5", "6.5", None, "4.5", "6", "5", "6.5", "5.5", "6"]
    for rnd, result in enumerate(results, start=1):
        if result is None:
            b.bye(rnd, "Laxman", "Z")
        else:
            b.game(rnd, "Laxman", f"opp{rnd}", result)
    for rnd, score in enumerate(scores, start=1):
        if score is not None:
            b.fill(f"opp{rnd}", score)
    return b


@pytest.mark.parametrize(("criterion", "expected"), [("BH", "55"), ("BH/C1", "50"), ("SB", "37.25")])
def test_t7_arbiters_manual_laxman(criterion: str, expected: str) -> None:
    assert values(_t7(), "Laxman", [criterion])[criterion] == F(expected)


# --- T8 ------------------------------------------------------------------------------------
def _t8() -> TournamentBuilder:
    b = TournamentBuilder(5)
    b.bye(1, "P", "H")
    b.game(2, "P", "X", "-")
    b.game(3, "P", "L", "=")
    b.game(4, "P", "A", "1")
    b.game(5, "P", "B", "1")
    for opp, score in (("X", "3"), ("L", "1"), ("A", "2.5"), ("B", "2")):
        b.fill(opp, score)
    return b


@pytest.mark.parametrize(("criterion", "expected"), [("BH", "11"), ("BH/C1", "8.5"), ("SB", "6.25"), ("SB/C1", "5.75")])
def test_t8_two_vurs(criterion: str, expected: str) -> None:
    assert values(_t8(), "P", [criterion])[criterion] == F(expected)


def test_t8_sb_cut1_compares_vur_contributions_not_dummy_scores_unlike_the_checker() -> None:
    b = _t8()
    standings = compute_standings(b.tournament(), ["SB/C1"])
    trace = standings.explain(b.sn("P"))["SB/C1"]
    # C.07 16.5: the VUR with the lowest contribution is the forfeit loss (0.00); it is below the
    # least significant value (the draw vs L, 0.50), so the draw's 0.50 is cut: 6.25 - 0.50.
    assert [(e.round, e.contribution, e.removed) for e in trace.removed] == [(3, F("0.5"), "cut_lowest")]
    assert trace.value == F("5.75")
    checker_value = F("6.25") - F("1.25")  # the checker cuts the HPB (lowest dummy *score*)
    assert trace.value != checker_value


# --- T9 ------------------------------------------------------------------------------------
T9_TRF = """\
012 Golden Club Swiss 2026
042 2026/04/04
142 5
162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0    X 0.5
202 BH/C1,BH,SB
001    1 w    Alpha, Anna                       2100 NOR                         3.5    2     4 w 1     3 b =     2 w 0  0000 - F     5 b 1
001    2 m    Bravo, Ben                        2050 NOR                         4.0    1     5 w =  0000 - H     1 b 1     3 w 1     6 w +
001    3 m    Charlie, Cem                      2000 NOR                         3.0    4     6 b 1     1 w =     5 b D     2 b 0     4 w 1
001    4 w    Delta, Dina                       1950 NOR                         1.5    5     1 b 0     7 w +     6 b =     5 w 0     3 b 0
001    5 m    Echo, Eirik                       1900 NOR                         3.0    3     2 b =     6 w 1     3 w D     4 b 1     1 w 0
001    6 w    Foxtrot, Fay                      1850 NOR                         0.5    7     3 w 0     5 b 0     4 w =  0000 - Z     2 b -
001    7 m    Golf, Gil                         1800 NOR                         1.0    6  0000 - U     4 b -  0000 - Z
"""
T9_COLUMNS = (
    "PTS BH BH/C1 BH/C2 BH/M1 SB SB/C1 FB PS PS/C1 WIN WON BPG BWG REP STD KS AOB ARO ARO/C1 TPR PTP APRO APPO"
).split()
T9_TABLE = """\
1 3.5 14.0 12.5 10.0 8.5 8.50 7.00 14.0 10.0 9.0 3 2 2 1 5 3.5 1.5 12.75 1975 2000 2070 2068 2005 2004
2 4.0 13.0 10.5 9.5 7.0 10.25 9.00 12.5 10.5 10.0 3 2 1 1 4 4.0 2.5 13.33 2000 2050 2273 2289 2058 2060
3 3.0 13.0 12.0 10.5 8.0 5.75 4.75 13.0 9.5 8.5 2 2 3 1 5 3.0 1.0 12.10 1970 2000 2042 2047 1945 1942
4 1.5 12.0 11.0 9.5 7.5 2.00 1.50 12.0 5.5 5.5 1 0 3 0 5 1.5 0.0 12.13 1963 2000 1641 1615 1963 1963
5 3.0 13.0 12.0 10.5 8.0 6.00 5.00 12.0 10.0 9.5 2 2 2 1 5 3.0 1.0 12.10 1990 2025 2062 2066 1941 1938
6 0.5 8.5 8.0 7.5 5.0 0.75 0.75 12.5 1.5 1.5 0 0 1 0 3 0.5 0.0 12.67 1950 1975 1677 1672 1915 1909
7 1.0 5.0 4.0 3.0 3.0 1.00 1.00 5.0 5.0 4.0 1 0 0 0 1 1.0 0.0 undef. undef. undef. undef. undef. undef. undef.
"""
T9_RANK = {1: 2, 2: 1, 3: 4, 4: 5, 5: 3, 6: 7, 7: 6}


@pytest.fixture(scope="module")
def t9():  # type: ignore[no-untyped-def]
    return compute_standings(parse_trf(T9_TRF), T9_COLUMNS)


@pytest.mark.parametrize("line", T9_TABLE.splitlines(), ids=lambda line: f"player{line.split()[0]}")
def test_t9_golden_mini_swiss_every_criterion(t9, line: str) -> None:  # type: ignore[no-untyped-def]
    sno, *cells = line.split()
    row = t9.row(int(sno))
    for criterion, cell in zip(T9_COLUMNS, cells, strict=True):
        got = row.points if criterion == "PTS" else row.values[criterion]
        if cell == "undef.":
            assert got is None, criterion
        elif criterion == "AOB":
            assert round(got * 100) == round(F(cell) * 100), criterion
        else:
            assert got == F(cell), criterion


def test_t9_rank_with_the_published_list() -> None:
    standings = compute_standings(parse_trf(T9_TRF), ["BH/C1", "BH", "SB"])
    assert {r.start_number: r.rank for r in standings.rows} == T9_RANK
    sep = standings.separation(3, 5)
    assert (sep.criterion, sep.value_a, sep.value_b) == ("SB", F("5.75"), F(6))


def test_t9_fore_buchholz_cut1_and_aob_of_fore_buchholz() -> None:
    standings = compute_standings(parse_trf(T9_TRF), ["FB/C1", "AOB/F"])
    assert [standings.row(s).values["FB/C1"] for s in range(1, 8)] == [
        F(x) for x in ("12", "10", "12", "11", "11", "11.5", "4")
    ]
    aob_f = [standings.row(s).values["AOB/F"] for s in range(1, 8)]
    assert aob_f[:6] == [F(x) for x in ("12.38", "13.00", "12.60", "12.88", "12.80", "12.33")]
    assert aob_f[6] is None


def test_t9_adjusted_scores() -> None:
    standings = compute_standings(parse_trf(T9_TRF), ["BH"])
    adjusted = [standings.explain(s)["BH"].details["adjusted_score"] for s in range(1, 8)]
    assert adjusted == [F(x) for x in ("3.5", "4", "3", "1.5", "3", "1", "2.5")]


def test_t9_hand_check_of_player_2() -> None:
    trace = compute_standings(parse_trf(T9_TRF), ["BH/C1"]).explain(2)["BH/C1"]
    assert [e.value for e in trace.elements] == [F(3), F("2.5"), F("3.5"), F(3), F(1)]
    assert trace.elements[4].reason == "dummy_cap_opponent_adjusted"
    assert [e.round for e in trace.removed] == [2]  # the VUR 2.5, although 1.0 is lower
    assert trace.value == F("10.5")


# --- T10 -----------------------------------------------------------------------------------
def _de(case: str) -> TournamentBuilder:
    b = TournamentBuilder(5)
    if case == "a":
        b.game(1, "A", "B", "1")
        b.game(2, "A", "C", "1")
        target = "3"
        players = "ABC"
    elif case == "b":
        b.game(1, "A", "B", "1")
        b.player("C")
        target = "3"
        players = "ABC"
    else:
        b.game(1, "A", "B", "1")
        b.game(1, "C", "D", "1")
        b.game(2, "A", "C", "=")
        b.game(2, "B", "D", "=")
        b.game(3, "A", "D", "1")
        b.game(3, "B", "C", "1")
        target = "2.5"
        players = "ABCD"
    for p in players:
        b.fill(p, target)
    return b


@pytest.mark.parametrize(
    ("case", "ranks", "de_values"),
    [
        ("a", {"A": 1, "B": 2, "C": 2}, {"A": 1, "B": 2, "C": 2}),
        ("b", {"A": 1, "B": 1, "C": 1}, {"A": 0, "B": 0, "C": 0}),
        ("c", {"A": 1, "B": 2, "C": 3, "D": 4}, {"A": 1, "B": 2, "C": 3, "D": 4}),
    ],
)
def test_t10_direct_encounter(case: str, ranks: dict[str, int], de_values: dict[str, int]) -> None:
    b = _de(case)
    standings = compute_standings(b.tournament(), ["DE"])
    rows = {p: standings.row(b.sn(p)) for p in ranks}
    assert {p: r.rank for p, r in rows.items()} == ranks
    assert {p: r.values["DE"] for p, r in rows.items()} == de_values


def test_t10c_de_explanation_shows_mutual_score() -> None:
    b = _de("c")
    standings = compute_standings(b.tournament(), ["DE"])
    assert standings.explain(b.sn("A"))["DE"].total == F("2.5")
    assert standings.explain(b.sn("D"))["DE"].total == F("0.5")


# --- T11 -----------------------------------------------------------------------------------
def test_t11_standard_points_under_three_one_zero() -> None:
    b = TournamentBuilder(4, scoring=Scoring(win=F(3), draw=F(1), loss=F(0)))
    for rnd, code in enumerate(["1", "=", "0", "1"], start=1):
        b.game(rnd, "P", f"opp{rnd}", code)
    standings = compute_standings(b.tournament(), ["STD"])
    row = standings.row(b.sn("P"))
    assert row.points == 7
    assert row.values["STD"] == F("2.5")


def test_t11_double_forfeit_gives_half_a_standard_point_each_by_the_text() -> None:
    b = TournamentBuilder(1)
    b.game(1, "X", "Y", "--")
    standings = compute_standings(b.tournament(), ["STD"])
    assert standings.row(b.sn("X")).points == 0
    assert standings.row(b.sn("X")).values["STD"] == F(1, 2)  # the FIDE checker gives 0
    assert standings.row(b.sn("Y")).values["STD"] == F(1, 2)


def test_t9_opponent_adjusted_score_is_explained_round_by_round() -> None:
    trace = compute_standings(parse_trf(T9_TRF), ["BH"]).explain(3)["BH"]
    vs_six = trace.elements[0]  # round 1: Charlie beat Foxtrot (0.5 points, adjusted 1.0)
    assert (vs_six.opponent, vs_six.value, vs_six.reason) == (6, F(1), "adjusted_score")
    assert [(a.round, a.reason, a.article, a.awarded, a.counted) for a in vs_six.adjustments] == [
        (4, "requested_bye_counts_as_draw", "16.3", F(0), F(1, 2))
    ]


def test_de_second_place_is_tested_with_the_groups_mutual_scores() -> None:
    """Spec §4.2 rule 3: after the first place, "the same test for second place among the rest";
    only when the test fails is Article 6 applied again to the remaining participants."""
    b = TournamentBuilder(5)
    b.game(1, "A", "C", "1")
    b.game(1, "B", "D", "1")
    b.game(2, "A", "D", "1")
    b.game(2, "B", "C", "=")
    b.game(3, "A", "B", "=")  # C and D never meet
    for p in "ABCD":
        b.fill(p, "3")
    standings = compute_standings(b.tournament(), ["DE"])
    # mutual scores A 2.5, B 2, C 0.5, D 0; C and D each miss one game (against each other)
    assert {p: standings.row(b.sn(p)).values["DE"] for p in "ABCD"} == {"A": 1, "B": 2, "C": 3, "D": 3}
    assert {p: standings.row(b.sn(p)).rank for p in "ABCD"} == {"A": 1, "B": 2, "C": 3, "D": 3}


def test_de_repeated_meetings_count_as_their_average_not_their_sum() -> None:
    """6.1.2 (spec §4.2; FIDE's checker mishandles this, defect C): A and B met twice and won
    one each, so each gets ½ (not 1) against the other; C beat A and lost to B."""
    b = TournamentBuilder(5)
    b.game(1, "A", "B", "1")
    b.game(2, "B", "A", "1")
    b.game(3, "C", "A", "1")
    b.game(4, "B", "C", "1")
    for p in "ABC":
        b.fill(p, "3")
    standings = compute_standings(b.tournament(), ["DE"])
    # mutual scores: B ½ + 1 = 1.5, C 1 + 0 = 1, A ½ + 0 = 0.5 (with sums A and C would tie on 1)
    assert {p: standings.row(b.sn(p)).values["DE"] for p in "ABC"} == {"B": 1, "C": 2, "A": 3}
    assert standings.explain(b.sn("A"))["DE"].total == F(1, 2)
