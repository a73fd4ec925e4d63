"""Every result whose game has moves opens the game's page (issue #34): the crosstable (a Swiss wallchart and a
round-robin grid), the published pairings and a player's rounds; a result without moves stays plain text there.
(A round's boards and a match card link every game to its page already.)"""

import re

import pytest

from leagues.models import Game
from leagues.services.games import pgn_put
from tests.factories import organiser_of
from tests.helpers import played_swiss

pytestmark = pytest.mark.django_db

MOVES = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"


def game_links(html: str, slug: str) -> list[tuple[str, str, str]]:
    """Each link to a game's page: (game id, its aria-label, its text)."""
    found = re.findall(rf'<a href="/en/events/{slug}/games/(\d+)/"(?: aria-label="([^"]*)")?>(.*?)</a>', html, re.S)
    return [(pk, label, re.sub(r"<[^>]+>", "", text).strip()) for pk, label, text in found]


def with_moves(event, round_number=1, board=1) -> Game:
    game = Game.objects.get(round__event=event, round__number=round_number, board=board)
    pgn_put(game_id=game.pk, text=MOVES, user=organiser_of(event.league))
    return game


def test_the_wallchart_links_the_results_of_games_with_moves(client):
    event, _entries = played_swiss(6, rounds=2)
    game = with_moves(event, round_number=2, board=1)  # board 1: White wins
    html = client.get(f"/en/events/{event.slug}/crosstable/").content.decode()
    # both players' cells of round 2, named by what they show and the round; no other game has moves
    assert sorted(game_links(html, event.slug)) == [
        (str(game.pk), "0, the game of round 2", "0"),
        (str(game.pk), "1, the game of round 2", "1"),
    ]


def test_a_round_robin_grid_links_the_results_of_games_with_moves(client):
    from leagues.models import Event

    event, _entries = played_swiss(4, rounds=3, system=Event.System.ROUND_ROBIN)
    game = with_moves(event, round_number=3, board=2)  # board 2: a draw
    html = client.get(f"/he/events/{event.slug}/crosstable/").content.decode()
    assert 'class="crosstable grid"' in html
    links = re.findall(rf'<a href="/he/events/{event.slug}/games/(\d+)/" aria-label="([^"]*)">(.*?)</a>', html)
    assert links == [(str(game.pk), "½, המשחק של סיבוב 3", "½")] * 2  # the row of each player, in Hebrew


def test_a_players_rounds_and_the_published_pairings_link_the_game_with_moves(client):
    event, _entries = played_swiss(6, rounds=2)
    game = with_moves(event, round_number=1, board=2)  # board 2: a draw
    assert game.white is not None
    white = game.white.start_number
    player = client.get(f"/en/events/{event.slug}/players/{white}/").content.decode()
    assert game_links(player, event.slug) == [(str(game.pk), "", "½")]
    pairings = client.get(f"/en/events/{event.slug}/rounds/1/pairings/").content.decode()
    assert [(pk, label) for pk, label, _text in game_links(pairings, event.slug)] == [
        (str(game.pk), "½-½, the game of round 1")
    ]


def test_a_players_profile_links_the_game_with_moves(client):
    event, _entries = played_swiss(6, rounds=2)
    game = with_moves(event, round_number=2, board=1)  # board 1: White wins
    assert game.white is not None
    html = client.get(f"/en/players/{game.white.player_id}/").content.decode()
    assert game_links(html, event.slug) == [(str(game.pk), "1, the game of round 2", "1")]
