"""US Chess rule 34 against FIDE: what must agree when every round is a game at the board, and hand-checked
cases where the books disagree (byes, forfeits, a withdrawal)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings

from tiebreaks.engine import compute_standings
from tiebreaks.engine.model import Participant, RoundEntry, Tournament

from .strategies import tournaments


def _values(tournament, criteria, rules):
    standings = compute_standings(tournament, criteria, rules=rules)
    return {row.start_number: row.values for row in standings.rows}


@settings(max_examples=150, deadline=None)
@given(tournaments(unplayed=False, max_rounds=8))
def test_without_unplayed_rounds_solkoff_is_buchholz_and_harkness_is_median_one(tournament):
    us = _values(tournament, ["SOLK", "MED"], "us-chess")
    fide = _values(tournament, ["BH", "BH/M1"], "fide-2026")
    for number in us:
        assert us[number]["SOLK"] == fide[number]["BH"]
        assert us[number]["MED"] == fide[number]["BH/M1"]


@settings(max_examples=150, deadline=None)
@given(tournaments(unplayed=False, max_rounds=8))
def test_modified_median_of_an_even_score_is_the_harkness_median(tournament):
    us = _values(tournament, ["MM", "MED"], "us-chess")
    standings = compute_standings(tournament, [], rules="us-chess")
    rounds = len(tournament.participants[0].rounds)
    for row in standings.rows:
        if row.points * 2 == rounds:  # exactly 50 %
            assert us[row.start_number]["MM"] == us[row.start_number]["MED"]


def _player(number, rounds):
    return Participant(number, f"P{number}", 1800, tuple(RoundEntry(*r) for r in rounds))


def test_the_books_disagree_on_a_withdrawal():
    """Four rounds. P1 beats P2 in round 1; P2 then withdraws (rounds 2-4 absent):
      R1 P1-P2 1-0, P3-P4 ½-½;  R2 P1-P3 1-0, P4 PAB;  R3 P1-P4 ½-½, P3 PAB;  R4 P3-P4 1-0, P1 PAB.
    Scores: P1 3½, P2 0, P3 2½, P4 2. P1's Buchholz / Solkoff:
    - P2 (withdrew): FIDE 16.3 counts the three rounds after the withdrawal as draws (followed only by
      VURs): 0 + ½ + ½ + ½ = 1½. US 34 counts every unplayed round of an opponent as ½: also 1½.
    - P3 and P4 each had a PAB: FIDE counts it at face value (1): 2½ and 2. US counts it ½: 2 and 1½.
    - P1's own PAB in round 4: FIDE 2026 16.4.2 dummy = min(3½, ½ × 4) = 2. US: an opponent with 0.
    FIDE BH = 1½ + 2½ + 2 + 2 = 8; US Solkoff = 1½ + 2 + 1½ + 0 = 5.
    """
    p1 = _player(1, [("1", 2, "w"), ("1", 3, "w"), ("=", 4, "b"), ("U",)])
    p2 = _player(2, [("0", 1, "b"), ("Z",), ("Z",), ("Z",)])
    p3 = _player(3, [("=", 4, "w"), ("0", 1, "b"), ("U",), ("1", 4, "w")])
    p4 = _player(4, [("=", 3, "b"), ("U",), ("=", 1, "w"), ("0", 3, "b")])
    tournament = Tournament([p1, p2, p3, p4], 4)
    fide = _values(tournament, ["BH"], "fide-2026")[1]["BH"]
    us = _values(tournament, ["SOLK"], "us-chess")[1]["SOLK"]
    assert fide == Fraction(8)
    assert us == Fraction(5)
