"""Fore Buchholz (8.3): final-round games count as draws; before that round is paired FB = BH."""

from __future__ import annotations

import dataclasses

from tiebreaks.engine import compute_standings
from tiebreaks.engine.model import RoundEntry

from .builders import TournamentBuilder


def _three_rounds(final: str) -> TournamentBuilder:
    b = TournamentBuilder(3)
    b.game(1, "A", "B", "1")
    b.game(1, "C", "D", "=")
    b.game(2, "A", "C", "1")
    b.game(2, "B", "D", "0")
    b.game(3, "A", "D", final)
    b.game(3, "B", "C", final)
    return b


def test_fore_buchholz_equals_buchholz_when_every_final_game_was_drawn() -> None:
    b = _three_rounds("=")
    standings = compute_standings(b.tournament(), ["FB", "BH"])
    assert all(row.values["FB"] == row.values["BH"] for row in standings.rows)


def test_published_final_round_pairings_without_results_count_as_draws() -> None:
    drawn = compute_standings(_three_rounds("=").tournament(), ["FB"])
    pending = _three_rounds("=").tournament()
    # the final round is paired but has no result yet: blank result code
    pending.participants = [
        dataclasses.replace(p, rounds=(*p.rounds[:2], RoundEntry(" ", p.rounds[2].opponent, p.rounds[2].colour)))
        for p in pending.participants
    ]
    assert [r.values["FB"] for r in compute_standings(pending, ["FB"]).rows] == [r.values["FB"] for r in drawn.rows]


def test_final_round_decisive_results_are_replaced_by_draws() -> None:
    decisive = compute_standings(_three_rounds("1").tournament(), ["FB"])
    drawn = compute_standings(_three_rounds("=").tournament(), ["FB"])
    by_name = {r.name: r.values["FB"] for r in drawn.rows}
    assert {r.name: r.values["FB"] for r in decisive.rows} == by_name


def test_before_the_final_round_is_paired_fore_buchholz_is_buchholz() -> None:
    t = _three_rounds("1").tournament()
    t.rounds_computed = 2  # provisional standings after round 2 of 3
    standings = compute_standings(t, ["FB", "BH"])
    assert all(row.values["FB"] == row.values["BH"] for row in standings.rows)
