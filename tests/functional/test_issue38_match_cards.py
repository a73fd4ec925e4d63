"""A public team match card is read from the home team's side (issue 38): its columns are the two teams, each board
shows the home team's player under the home team whatever their colour, the result with the home score first; a
match with no result yet shows no score (it showed 0–0)."""

import re

import pytest

from leagues.models import Result, TeamMatch

pytestmark = pytest.mark.django_db

TEAM = "demo-division-1"


def board_row(html, game):
    rows = re.findall(r"<tr>\s*<td class=\"num\"><bdi dir=\"ltr\">(\d+)</bdi>(.*?)</tr>", html, re.S)
    return next(cells for board, cells in rows if int(board) == game.board)


def test_match_card_columns_are_home_and_away(client, demo):
    match = TeamMatch.objects.filter(round__event__slug=TEAM, round__number=1).select_related("home", "away").first()
    assert match is not None
    game = (
        match.games.exclude(result=Result.PENDING)
        .exclude(white=match.home)
        .select_related("white_player", "black_player")
        .filter(result__in=[Result.WHITE_WINS, Result.BLACK_WINS])
        .first()
    )
    assert game is not None, "the demo has a decided board where the home team has black"
    html = client.get(f"/en/events/{TEAM}/rounds/1/").content.decode()
    card = html[html.index(f"/teams/{match.home.start_number}/") :]
    assert f'<th scope="col"><bdi>{match.home.name}</bdi></th>' in card.split("</thead>")[0]
    cells = board_row(card, game)
    assert game.black_player is not None and game.white_player is not None
    home_player, away_player = game.black_player.public_name, game.white_player.public_name
    assert cells.index(home_player) < cells.index(away_player)
    assert "home plays black" in cells
    shown = "1-0" if game.result == Result.BLACK_WINS else "0-1"  # the home player's score first
    assert f">{shown}</a>" in cells


def test_a_match_without_results_shows_no_score(client, demo):
    match = TeamMatch.objects.filter(round__event__slug=TEAM).select_related("home", "round").first()
    assert match is not None
    match.games.update(result=Result.PENDING)
    html = client.get(f"/en/events/{TEAM}/rounds/{match.round.number}/").content.decode()
    card = html[html.index(f"/teams/{match.home.start_number}/") :].split("</h3>")[0]
    assert 'class="score"' not in card


def test_standings_say_a_round_is_in_progress_until_its_last_board_has_a_result(client, demo):
    from leagues.models import Event, Game

    event = Event.objects.get(slug="demo-autumn-open")
    last = Game.objects.filter(round__event=event).exclude(result=Result.PENDING).latest("round__number").round
    total = event.rounds_count
    board = last.games.filter(black__isnull=False).order_by("board").last()
    assert board is not None
    Game.objects.filter(pk=board.pk).update(result=Result.PENDING)
    for page in ("/en/events/demo-autumn-open/", "/embed/en/events/demo-autumn-open/standings/"):
        html = client.get(page).content.decode()
        assert f"Round {last.number} of {total} in progress" in html
        assert f"After round {last.number} of {total}" not in html
