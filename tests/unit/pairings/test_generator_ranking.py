"""The Random Tournament Generator gives start numbers in the initial ranking the site gives its entries (C.04.2:
rating, title, then name alphabetically, accents aside), so a generated tournament entered on the site keeps its
start numbers and its pairings (tests/fide_site.py)."""

from pairings.generator import TournamentPlan, generate
from tiebreaks.trf import read_trf


def test_players_of_equal_rating_and_title_are_numbered_alphabetically_accents_aside():
    # seed 26 draws two unrated players without a title: Schäfer, Liv and Öztürk, Mehmet
    players = read_trf(generate(TournamentPlan(players=9, rounds=4, seed=26))).participants
    unrated = [p.name for p in sorted(players, key=lambda p: p.start_number) if not p.rating]
    assert unrated == ["Öztürk, Mehmet", "Schäfer, Liv"]
