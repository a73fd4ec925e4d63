"""Play-offs deciding places before the tie-breaks (C.07 2026, FIDE's 2026 checklist): the organiser records play-off
games (an Armageddon game too: a draw counts as a win for Black) between players tied on points for a place; the
standings rank by them for that place, list them, and the player page explains each game. The games are kept apart
from the event's rounds: they count for no points and no tie-break."""

import html
import re

import pytest
from rest_framework.test import APIClient

from leagues.models import Event, Game, Result
from leagues.models.audit import SettingChange
from leagues.recompute import standings_recompute_event
from leagues.services.results import result_record
from tests.factories import organiser_of, swiss_event

pytestmark = pytest.mark.django_db


def _two_winners():
    """Round 1: 1 beats 3 and 2 beats 4: 1 and 2 share first place on 1 point with the same Buchholz (0)."""
    event, entries, games = swiss_event(players=4, rounds=1)
    Event.objects.filter(pk=event.pk).update(tiebreak_criteria=["BH"])
    organiser = organiser_of(event.league)
    for game in games:
        result_record(game_id=game.pk, result=Result.WHITE_WINS, user=organiser)
    return event, entries, organiser


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_an_armageddon_draw_wins_the_play_off_for_black_and_first_place(client):
    event, entries, organiser = _two_winners()
    client.force_login(organiser)
    url = f"/en/manage/events/{event.slug}/playoffs/"
    assert client.get(url).status_code == 200
    drawn = client.post(url, {"place": 1, "white": 1, "black": 2, "result": "1/2"})
    assert drawn.status_code == 302, drawn.content.decode()[:3000]
    armageddon = client.post(url, {"place": 1, "white": 1, "black": 2, "result": "1/2", "armageddon": "on"})
    assert armageddon.status_code == 302
    games_of_rounds = Game.objects.filter(round__event=event).count()
    standings_recompute_event(event.pk)
    page = client.get(f"/en/events/{event.slug}/").content.decode()
    first, second = entries[1].player.name, entries[0].player.name
    table = page[page.index("<tbody>") :]
    assert table.index(first) < table.index(second)  # 2 above 1: 1½ to ½ in the play-off
    text = _text(page)
    assert "Place 1 was decided by a play-off, before the tie-breaks" in text
    assert "(Armageddon: a draw wins for Black)" in text
    why = _text(client.get(f"/en/events/{event.slug}/players/2/").content.decode())
    assert f"Armageddon game 2 : drew with Black against {second} , which wins." in why
    assert f"Play-off game 1 : drew with {second} ." in why
    assert "Place 1 was decided by a play-off" in why and "Play-off score: 1.5" in why
    assert Game.objects.filter(round__event=event).count() == games_of_rounds  # no round game added
    assert SettingChange.objects.filter(event=event, setting=SettingChange.Setting.PLAYOFF).count() == 2


def test_a_play_off_between_players_not_tied_for_the_place_is_refused(client):
    event, _entries, organiser = _two_winners()
    client.force_login(organiser)
    url = f"/en/manage/events/{event.slug}/playoffs/"
    refused = client.post(url, {"place": 1, "white": 1, "black": 3, "result": "1-0"})
    assert refused.status_code == 400 and "not tied for place 1" in _text(refused.content.decode())
    refused = client.post(url, {"place": 3, "white": 1, "black": 2, "result": "1-0"})
    assert refused.status_code == 400 and "not tied for place 3" in _text(refused.content.decode())
    event.refresh_from_db()
    assert event.playoffs == []


def test_the_api_records_lists_and_deletes_play_off_games_that_rank_the_standings():
    event, _entries, organiser = _two_winners()
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/events/{event.slug}/playoffs/"
    answer = api.post(url, {"place": 1, "white": 2, "black": 1, "result": "0-1"}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json() == {
        "games": [{"place": 1, "number": 1, "white": 2, "black": 1, "result": "0-1", "armageddon": False}]
    }
    standings = api.get(f"/api/v1/events/{event.slug}/standings/")
    refused = api.post(url, {"place": 2, "white": 3, "black": 4, "result": "1-0"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "not_tied"
    gone = api.delete(f"{url}1/1/", {"reason": "Entered by mistake"}, format="json")
    assert gone.status_code == 200 and gone.json() == {"games": []}
    assert standings.status_code == 200
