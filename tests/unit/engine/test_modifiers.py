"""Modifiers (Art. 14, MTB26): /P, /L, /Cn, /Mn, /R - each changes what a user sees."""

from __future__ import annotations

from fractions import Fraction as F

from tiebreaks.engine import compute_standings

from .builders import TournamentBuilder


def _forfeit_vs_strong_no_show() -> TournamentBuilder:
    b = TournamentBuilder(3)
    b.game(1, "P", "X", "+")  # X does not come; X wins everything else
    b.game(2, "P", "Q", "0")
    b.game(3, "P", "R", "0")
    b.fill("X", "2")
    b.fill("Q", "2")
    b.fill("R", "1")
    return b


def test_p_modifier_counts_a_forfeit_as_a_game_against_the_scheduled_opponent() -> None:
    b = _forfeit_vs_strong_no_show()
    standings = compute_standings(b.tournament(), ["BH", "BH/P"])
    row = standings.row(b.sn("P"))
    # BH: dummy min(own 1, X's adjusted 2) = 1; BH/P: X's adjusted score 2
    assert (row.values["BH"], row.values["BH/P"]) == (F(1) + 2 + 1, F(2) + 2 + 1)
    element = standings.explain(b.sn("P"))["BH/P"].elements[0]
    assert (element.dummy, element.reason) == (False, "forfeit_counted_as_game")


def test_de_counts_forfeits_only_with_p() -> None:
    b = TournamentBuilder(3)
    b.game(1, "A", "B", "+")
    b.fill("A", "2")
    b.fill("B", "2")
    t = b.tournament()
    plain = compute_standings(t, ["DE"])
    assert plain.row(b.sn("A")).rank == plain.row(b.sn("B")).rank
    with_p = compute_standings(t, ["DE/P"])
    assert (with_p.row(b.sn("A")).rank, with_p.row(b.sn("B")).rank) == (1, 2)


def test_koya_limit_offsets_move_in_half_points() -> None:
    b = TournamentBuilder(4)
    b.game(1, "P", "A", "1")
    b.game(2, "P", "B", "1")
    b.fill("A", "2")  # exactly 50 %
    b.fill("B", "2.5")
    b.fill("P", "2")
    standings = compute_standings(b.tournament(), ["KS", "KS/L+1", "KS/L-1"])
    v = standings.row(b.sn("P")).values
    assert (v["KS"], v["KS/L+1"], v["KS/L-1"]) == (F(2), F(1), F(2))


def test_aro_median_drops_the_lowest_and_the_highest_rating() -> None:
    b = TournamentBuilder(3)
    b.player("P", 2000)
    for rnd, (opp, rating) in enumerate((("A", 1800), ("B", 2100), ("C", 2400)), start=1):
        b.player(opp, rating)
        b.game(rnd, "P", opp, "=")
    for filler in [label for label in b.labels if label.startswith("filler")]:
        b.ratings[filler] = 1500
    v = compute_standings(b.tournament(), ["ARO", "ARO/C1", "ARO/M1"]).row(b.sn("P")).values
    assert (v["ARO"], v["ARO/C1"], v["ARO/M1"]) == (F(2100), F(2250), F(2100))


def test_ps_cut_drops_the_first_running_scores() -> None:
    b = TournamentBuilder(4)
    for rnd, code in enumerate("1101", start=1):
        b.game(rnd, "P", f"o{rnd}", code)
    v = compute_standings(b.tournament(), ["PS", "PS/C1", "PS/C2"]).row(b.sn("P")).values
    assert (v["PS"], v["PS/C1"], v["PS/C2"]) == (F(1 + 2 + 2 + 3), F(2 + 2 + 3), F(2 + 3))


def test_pairing_number_and_rating_orders_and_their_reverse() -> None:
    b = TournamentBuilder(1)
    b.player("A", 1800)
    b.player("B", 2000)
    t = b.tournament()
    assert [r.name for r in compute_standings(t, ["TPN"]).rows] == ["A", "B"]
    assert [r.name for r in compute_standings(t, ["TPN/R"]).rows] == ["B", "A"]
    assert [r.name for r in compute_standings(t, ["RTNG"]).rows] == ["B", "A"]
    assert [r.name for r in compute_standings(t, ["RTNG/R"]).rows] == ["A", "B"]
