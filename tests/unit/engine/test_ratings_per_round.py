"""Ratings per round (issue #31): a league with two rating lists during its season.

Four players, a round robin of three rounds; a newer rating list applies from round 3 (B: 1600 -> 1700,
D: 1400 -> 1450). A meets D (round 1), C (round 2) and B (round 3); C meets B, A and D.

Worked by hand:

* A, first ratings (C.07 2026, note to Article 10: the default): ARO = (1400 + 1500 + 1600) / 3 = 1500;
  2½ of 3 = 83 % -> dp +273, TPR = 1773.
* A, ratings per round: B is met in round 3, rated 1700 there: ARO = (1400 + 1500 + 1700) / 3 = 1533.33 -> 1533;
  TPR = 1533 + 273 = 1806.
* C, first ratings: ARO = (1600 + 1800 + 1400) / 3 = 1600; per round D is 1450 in round 3:
  (1600 + 1800 + 1450) / 3 = 1616.67 -> 1617. B, met in round 1, counts 1600 either way.
* FIDE's checker reads one rating per player (its ``opprating`` is the opponent's only rating), so on the
  TRF of the first ratings it gives the first-rating values.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from tests.golden.checker import checker_values
from tiebreaks.cli import run as cli_run
from tiebreaks.engine import compute_standings
from tiebreaks.engine import reasons as R
from tiebreaks.trf import (
    apply_round_ratings,
    ratings_per_round_chosen,
    read_trf,
    round_rating_records,
    write_trf,
)

from .builders import TournamentBuilder


def league():
    b = TournamentBuilder(rounds=3, round_robin=True)
    for label, rating in (("A", 1800), ("B", 1600), ("C", 1500), ("D", 1400)):
        b.player(label, rating)
    b.game(1, "A", "D", "1")
    b.game(1, "B", "C", "=")
    b.game(2, "C", "A", "0")
    b.game(2, "D", "B", "0")
    b.game(3, "A", "B", "=")
    b.game(3, "C", "D", "1")
    t = b.tournament()
    newer = {"B": (1600, 1600, 1700), "D": (1400, 1400, 1450)}
    t.participants = [replace(p, round_ratings=newer.get(p.name, ())) for p in t.participants]
    return t


def values(standings, code):
    return {row.name: row.values[code] for row in standings.rows}


def test_first_rating_is_the_default_and_ignores_the_newer_list():
    standings = compute_standings(league(), ["ARO", "TPR"])
    assert values(standings, "ARO")["A"] == 1500
    assert values(standings, "TPR")["A"] == 1773
    assert values(standings, "ARO")["C"] == 1600


def test_ratings_per_round_read_the_opponents_rating_in_the_round_they_met():
    standings = compute_standings(league(), ["ARO", "TPR", "ARO/C1", "APRO"], ratings_per_round=True)
    assert values(standings, "ARO")["A"] == 1533
    assert values(standings, "TPR")["A"] == 1806
    assert values(standings, "ARO")["C"] == 1617
    # B met C and D before the newer list, A (unchanged) in round 3: (1500 + 1400 + 1800) / 3 = 1566.67 either way
    assert values(standings, "ARO")["B"] == values(compute_standings(league(), ["ARO"]), "ARO")["B"] == 1567
    # A's cut drops the lowest, D 1400: (1500 + 1700) / 2 = 1600
    assert values(standings, "ARO/C1")["A"] == 1600


def test_the_explanation_shows_the_rating_of_that_round_and_adds_up():
    standings = compute_standings(league(), ["ARO", "TPR"], ratings_per_round=True, explain=True)
    a = next(row.start_number for row in standings.rows if row.name == "A")
    trace = standings.explain(a)["ARO"]
    by_round = {e.round: (e.value, e.reason) for e in trace.elements}
    assert by_round[3] == (Fraction(1700), R.OPPONENT_RATING_IN_ROUND)
    assert by_round[1] == (Fraction(1400), R.OPPONENT_RATING)
    assert trace.total == 4600 and trace.divisor == 3 and trace.value == 1533
    tpr = standings.explain(a)["TPR"]
    assert tpr.details["aro"] == 1533 and tpr.details["dp"] == 273 and tpr.value == 1806


def test_unrated_in_a_round_without_a_rating_for_unrated_players_leaves_the_criterion_undefined():
    t = league()
    t.participants = [replace(p, round_ratings=(1400, None, None)) if p.name == "D" else p for p in t.participants]
    standings = compute_standings(t, ["ARO"], ratings_per_round=True)
    assert set(values(standings, "ARO").values()) == {None}
    assert standings.notes[0].details["unrated"] == [4]
    with_fallback = compute_standings(t, ["ARO"], ratings_per_round=True, unrated_rating=1000)
    # C met D in round 3, unrated there: (1600 + 1800 + 1000) / 3 = 1466.67 -> 1467
    assert values(with_fallback, "ARO")["C"] == 1467


def test_fide_checker_agrees_with_the_first_rating(tmp_path: Path):
    t = league()
    path = tmp_path / "league.trf"
    path.write_text(write_trf(replace(t, start_date="2026-09-01")), encoding="utf-8")
    fide = checker_values(path, ["ARO", "TPR"], rounds=3, round_robin=True)
    ours = compute_standings(t, ["ARO", "TPR"])
    for row in ours.rows:
        assert fide[row.start_number] == [row.values["ARO"], row.values["TPR"]]
    per_round = compute_standings(t, ["ARO"], ratings_per_round=True)
    assert fide[1][0] != next(r.values["ARO"] for r in per_round.rows if r.start_number == 1)


def _file_with_newer_ratings(*, regulations: bool) -> str:
    """The league as the site exports it: the first ratings in the 001 records, the newer ones in ``###`` lines."""
    lines = ["### rating from round 3:    2 1700 (list of 2026-11-01)", "### rating from round 3:    4 1450"]
    if regulations:
        lines.append("### rating-based tie-breaks: rating of each round")
    return write_trf(replace(league_first_ratings(), start_date="2026-09-01", extra_records=tuple(lines)))


def league_first_ratings():
    t = league()
    t.participants = [replace(p, round_ratings=()) for p in t.participants]
    return t


def test_the_trf_reader_takes_the_newer_ratings_from_the_sites_comment_lines():
    text = _file_with_newer_ratings(regulations=False)
    tournament = read_trf(text)
    assert round_rating_records(tournament) == [(2, 3, 1700, "2026-11-01"), (4, 3, 1450, "")]
    assert not ratings_per_round_chosen(tournament)
    by_round = {p.name: p.round_ratings for p in apply_round_ratings(tournament).participants}
    assert by_round == {"A": (), "B": (1600, 1600, 1700), "C": (), "D": (1400, 1400, 1450)}
    assert ratings_per_round_chosen(read_trf(_file_with_newer_ratings(regulations=True)))


def test_the_command_line_reads_the_rating_of_each_round_when_asked_or_when_the_file_says_so(tmp_path: Path):
    plain, chosen = tmp_path / "plain.trf", tmp_path / "chosen.trf"
    plain.write_text(_file_with_newer_ratings(regulations=False), encoding="utf-8")
    chosen.write_text(_file_with_newer_ratings(regulations=True), encoding="utf-8")

    def aro_of_a(*args: str) -> object:
        rows = json.loads(cli_run(["standings", *args, "--criteria", "ARO", "--json"]))["rows"]
        return next(row["values"]["ARO"] for row in rows if row["start_number"] == 1)

    assert aro_of_a(str(plain)) in (1500, "1500")  # FIDE's rule: the first rating
    assert aro_of_a(str(plain), "--ratings-per-round") in (1533, "1533")
    assert aro_of_a(str(chosen)) in (1533, "1533")
