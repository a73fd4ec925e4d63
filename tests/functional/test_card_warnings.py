"""Eligibility warnings on the match card: live while the secretary chooses each board's player (an endpoint
through the eligibility service; nothing saved), and the same warnings after submitting without the script."""

import pytest

from leagues.models import Game
from tests.workspace import card_post, division

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _lineup_query(match, home_players):
    """The card form's player fields as the script sends them: home players by board, away as stored."""
    query = {}
    for game in match.games.order_by("board"):
        home_white = game.white_id == match.home_id
        query[f"home_{game.pk}"] = home_players.get(game.board, "")
        query[f"away_{game.pk}"] = game.black_player_id if home_white else game.white_player_id
    return query


def test_the_warnings_follow_the_lineup_being_chosen_and_nothing_is_saved(client):
    d = division(boards=2)
    match = d.match()
    first, second, _third = d.players[d.clubs[0].slug]
    url = f"/en/manage/matches/{match.pk}/warnings/"
    stored = list(Game.objects.filter(match=match).values_list("white_player", "black_player"))
    client.force_login(d.secretaries[0])

    twice = client.get(url, _lineup_query(match, {1: first.pk, 2: first.pk}))
    assert twice.status_code == 200 and twice["Content-Type"] == "application/json"
    assert f"Board 2: {first.name} is on this card twice." in twice.json()["warnings"]
    fine = client.get(url, _lineup_query(match, {1: first.pk, 2: second.pk}))
    assert fine.json()["warnings"] == []
    nonsense = client.get(url, _lineup_query(match, {1: "x", 2: 999999}))
    assert nonsense.status_code == 200 and nonsense.json()["warnings"] == []  # unknown players: empty boards
    assert list(Game.objects.filter(match=match).values_list("white_player", "black_player")) == stored

    client.force_login(d.organiser)
    assert client.get(url, _lineup_query(match, {1: first.pk})).status_code == 200
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    assert client.get(url).status_code in (403, 404)
    client.logout()
    assert client.get(url).status_code == 302  # to the login page


def test_in_greek_the_live_warnings_speak_greek(client):
    d = division(boards=2)
    match = d.match()
    first = d.players[d.clubs[0].slug][0]
    client.force_login(d.secretaries[0])
    answer = client.get(f"/el/manage/matches/{match.pk}/warnings/", _lineup_query(match, {1: first.pk, 2: first.pk}))
    (warning,) = answer.json()["warnings"]
    assert first.name in warning and "Board" not in warning


def test_without_the_script_the_same_warnings_come_with_the_submitted_card(client):
    d = division(boards=2)
    match = d.match()
    first = d.players[d.clubs[0].slug][0]
    client.force_login(d.secretaries[0])
    page = client.get(f"/en/manage/matches/{match.pk}/").content.decode()
    assert 'data-warnings-url="/en/manage/matches/' in page and "manage.js" in page
    sent = card_post(match, {1: "1-0", 2: "0-1"}, lineup={1: (first.pk, None), 2: (first.pk, None)})
    live = client.get(f"/en/manage/matches/{match.pk}/warnings/", _lineup_query(match, {1: first.pk, 2: first.pk}))
    answer = client.post(f"/en/manage/matches/{match.pk}/", sent, follow=True)
    assert answer.status_code == 200
    body = answer.content.decode()
    for warning in live.json()["warnings"]:
        assert warning.replace("'", "&#x27;") in body
