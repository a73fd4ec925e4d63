"""Decisions beyond the computed criteria (FIDE 2026 checklist Q205/207, C.07 2026): a manual order of players
still tied after the whole list (MAN), and play-off games deciding places before the tie-breaks (PO)."""

from fractions import Fraction

from tiebreaks.engine import compute_standings
from tiebreaks.engine.model import ManualOrder, Playoff, PlayoffGame

from .builders import TournamentBuilder


def _a_and_b_tied(**decisions):
    """Hand-worked: A (1) beats D, draws B and C: 2 points, SB 0.5 + 1 + 0.75 = 2.25; B (2) draws C and A, beats D:
    2 points, SB 0.75 + 1 + 0.5 = 2.25; their own game was drawn (DE tied). C 1.5, D 0.5."""
    b = TournamentBuilder(rounds=3, round_robin=True)
    for label in "ABCD":
        b.player(label)
    b.game(1, "A", "D", "1")
    b.game(1, "B", "C", "=")
    b.game(2, "D", "C", "=")
    b.game(2, "A", "B", "=")
    b.game(3, "B", "D", "1")
    b.game(3, "C", "A", "=")
    t = b.tournament()
    t.manual_orders = decisions.get("manual_orders", ())
    t.playoffs = decisions.get("playoffs", ())
    return t


def test_without_a_decision_a_and_b_share_first_place():
    rows = compute_standings(_a_and_b_tied(), ["PTS", "SB", "DE"]).rows
    assert [(r.rank, r.start_number) for r in rows] == [(1, 1), (1, 2), (3, 3), (4, 4)]
    assert rows[0].values["SB"] == rows[1].values["SB"] == Fraction(9, 4)


def test_the_chief_arbiters_order_ranks_players_still_tied_after_the_whole_list():
    decision = ManualOrder((2, 1), "B won the blitz final", "chief_arbiter", "2026-12-06", "arbiter")
    standings = compute_standings(_a_and_b_tied(manual_orders=(decision,)), ["PTS", "SB", "DE", "MAN"])
    assert [(r.rank, r.start_number) for r in standings.rows] == [(1, 2), (2, 1), (3, 3), (4, 4)]
    assert [r.values["MAN"] for r in standings.rows] == [1, 2, None, None]
    trace = standings.explain(2)["MAN"].to_dict()
    assert trace["details"] == {
        "reason": "B won the blitz final",
        "by": "chief_arbiter",
        "on": "2026-12-06",
        "who": "arbiter",
    }
    assert [(e["reason"], e["opponent"], e["contribution"]) for e in trace["elements"]] == [
        ("manual_place", None, 1),
        ("manual_above", 1, 0),  # placed above A
    ]
    assert trace["value"] == 1
    assert standings.explain(3)["MAN"].to_dict()["value"] is None  # nobody decided about C


def test_a_manual_order_does_not_move_players_the_list_already_separated():
    decision = ManualOrder((4, 1), "a mistaken decision", "organiser")
    rows = compute_standings(_a_and_b_tied(manual_orders=(decision,)), ["PTS", "SB", "MAN"]).rows
    assert [r.start_number for r in rows] == [1, 2, 3, 4]  # D (0.5 points) stays last; B after A, undecided


def test_a_play_off_decides_first_place_before_the_tie_breaks():
    """A and B draw a play-off game, then an Armageddon game B (White) - A (Black) is drawn: A scores 1.5, B 0.5."""
    playoff = Playoff(1, (PlayoffGame(1, 2, "1/2"), PlayoffGame(2, 1, "1/2", armageddon=True)))
    standings = compute_standings(_a_and_b_tied(playoffs=(playoff,)), ["PTS", "PO", "SB", "DE"])
    assert [(r.rank, r.start_number) for r in standings.rows] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert [r.values["PO"] for r in standings.rows] == [Fraction(3, 2), Fraction(1, 2), None, None]
    trace = standings.explain(1)["PO"].to_dict()
    assert [(e["round"], e["opponent"], e["reason"], e["contribution"]) for e in trace["elements"]] == [
        (1, 2, "playoff_game", 0.5),
        (2, 2, "playoff_armageddon_draw", 1),
    ]
    assert trace["details"] == {"place": 1}


def test_the_same_draw_outside_armageddon_leaves_the_play_off_level():
    """Two drawn games: 1-1, the play-off does not separate them and they stay tied."""
    playoff = Playoff(1, (PlayoffGame(1, 2, "1/2"), PlayoffGame(2, 1, "1/2")))
    rows = compute_standings(_a_and_b_tied(playoffs=(playoff,)), ["PTS", "PO", "SB", "DE"]).rows
    assert [(r.rank, r.start_number) for r in rows][:2] == [(1, 1), (1, 2)]


def test_a_play_off_win_by_black_ranks_black_first():
    playoff = Playoff(1, (PlayoffGame(1, 2, "0-1"),))
    rows = compute_standings(_a_and_b_tied(playoffs=(playoff,)), ["PTS", "PO", "SB"]).rows
    assert [r.start_number for r in rows][:2] == [2, 1]


def test_decisions_rank_under_every_rule_set_and_after_undrawn_lots():
    decision = ManualOrder((2, 1), "decided", "chief arbiter")
    rows = compute_standings(_a_and_b_tied(manual_orders=(decision,)), ["SB", "LOT", "MAN"]).rows
    assert [r.start_number for r in rows][:2] == [2, 1]
    rows = compute_standings(_a_and_b_tied(manual_orders=(decision,)), ["SB", "MAN"], rules="fide-2023").rows
    assert [r.start_number for r in rows][:2] == [2, 1]


def test_an_external_value_replaces_the_computed_one_with_its_reason():
    """A's SB set from outside to 2 (hand-worked SB of both is 2.25): B, still on 2.25, now ranks above A."""
    from tiebreaks.engine.compact import expand
    from tiebreaks.engine.model import ExternalValue

    t = _a_and_b_tied()
    t.external_values = (
        ExternalValue(1, "SB", Fraction(2), "value of the qualifying stage", "organiser", "2026-12-06"),
    )
    standings = compute_standings(t, ["PTS", "SB"])
    assert [(r.rank, r.start_number) for r in standings.rows][:2] == [(1, 2), (2, 1)]
    assert standings.row(1).values["SB"] == 2 and standings.row(2).values["SB"] == Fraction(9, 4)
    trace = standings.explain(1)["SB"].to_dict()
    assert trace["value"] == 2 and trace["details"]["reason"] == "value of the qualifying stage"
    assert [e["reason"] for e in trace["elements"]] == ["external_value"]
    stored = dict(standings.compact_explanations())["1"]
    assert stored is not None and expand(stored)["SB"] == trace  # the stored explanation says the same
