"""The drawing of lots the tie-break list ends with (C.07 Article 4.2), seeded and repeatable: LOT/S<seed>."""

import hashlib

import pytest

from tiebreaks.engine import compute_standings
from tiebreaks.engine.criteria import parse_criterion
from tiebreaks.engine.errors import CriterionNotAllowed, UnknownCriterion

from .builders import TournamentBuilder


def _all_draws():
    """Four players, a round robin of draws: everyone on 1.5 points, every tie-break equal."""
    b = TournamentBuilder(rounds=3, round_robin=True)
    b.game(1, "A", "D", "=")
    b.game(1, "B", "C", "=")
    b.game(2, "D", "C", "=")
    b.game(2, "A", "B", "=")
    b.game(3, "B", "D", "=")
    b.game(3, "C", "A", "=")
    return b.tournament()


def _drawn_order(seed, numbers):
    """What anyone can repeat with a SHA-256 tool: order the pairing numbers by sha256("<seed>-<number>")."""
    return sorted(numbers, key=lambda n: hashlib.sha256(f"{seed}-{n}".encode()).hexdigest())


def test_the_lots_break_every_tie_left_and_anyone_can_repeat_them_from_the_seed():
    standings = compute_standings(_all_draws(), ["PTS", "SB", "LOT/S2026"])
    assert [row.start_number for row in standings.rows] == _drawn_order(2026, [1, 2, 3, 4])
    assert [row.rank for row in standings.rows] == [1, 2, 3, 4]  # no shared place left
    assert [row.values["LOT/S2026"] for row in standings.rows] == [1, 2, 3, 4]
    again = compute_standings(_all_draws(), ["PTS", "SB", "LOT/S2026"])
    assert [r.start_number for r in again.rows] == [r.start_number for r in standings.rows]


def test_another_seed_is_another_drawing():
    orders = {
        tuple(r.start_number for r in compute_standings(_all_draws(), ["PTS", f"LOT/S{seed}"]).rows)
        for seed in range(1, 40)
    }
    assert len(orders) > 10  # 24 orders are possible; different seeds reach many of them


def test_lots_only_separate_players_the_list_left_tied():
    b = TournamentBuilder(rounds=1)
    b.game(1, "A", "B", "1")
    b.game(1, "C", "D", "1")
    rows = compute_standings(b.tournament(), ["PTS", "LOT/S7"]).rows
    assert {rows[0].start_number, rows[1].start_number} == {1, 3}  # the winners first whatever their lots
    assert {rows[2].start_number, rows[3].start_number} == {2, 4}


def test_the_explanation_names_the_seed_and_the_hash_to_check():
    standings = compute_standings(_all_draws(), ["PTS", "LOT/S2026"], explain=True)
    trace = standings.explain(1)["LOT/S2026"]
    assert trace.details["seed"] == 2026
    assert trace.details["hash"] == hashlib.sha256(b"2026-1").hexdigest()
    assert trace.value == _drawn_order(2026, [1, 2, 3, 4]).index(1) + 1


def test_lots_without_a_seed_are_not_drawn_and_the_place_stays_shared():
    rows = compute_standings(_all_draws(), ["PTS", "LOT"]).rows
    assert [r.rank for r in rows] == [1, 1, 1, 1]
    assert all(r.values["LOT"] is None for r in rows)


def test_lots_end_the_list_and_take_only_a_seed():
    with pytest.raises(CriterionNotAllowed, match="ends the tie-break list"):
        compute_standings(_all_draws(), ["PTS", "LOT/S1", "SB"])
    with pytest.raises(UnknownCriterion):
        parse_criterion("LOT/C1")
    assert parse_criterion("lot/s0042").code == "LOT/S42"
