"""The organiser's pairing screen shows each board's start numbers and ratings, and sorts the start numbers
by the initial ranking with one button (also through the API) until round 1 is published."""

import re

import pytest
from rest_framework.test import APIClient

from leagues.models import Entry
from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory, organiser_of

pytestmark = pytest.mark.django_db

RATINGS = [1690, 2380, 2050, 2210, 1845, 2290]  # numbers 1..6 as typed in, not by rating


@pytest.fixture
def event():
    event = EventFactory(rounds_count=3, status="published")
    for n, rating in enumerate(RATINGS, start=1):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(name=f"Player{n}, Test"), rating=rating)
    return event


def _cells(html: str, table_class: str) -> list[list[str]]:
    table = html.split(f'class="{table_class}', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]


def _ranking(event):
    return list(Entry.objects.filter(event=event).order_by("start_number").values_list("rating", flat=True))


def test_the_preview_shows_each_players_start_number_and_rating(client, event, django_capture_on_commit_callbacks):
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/pairing/1/"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"action": "pair"}).status_code == 302
    html = client.get(url).content.decode()
    rating_of = {e.start_number: str(e.rating) for e in Entry.objects.filter(event=event)}
    rows = _cells(html.split("pairing-preview", 1)[1], "pairings")
    assert len(rows) == 3
    for row in rows:
        white, black = int(row[1]), int(row[6])  # board, no., name, rating, points, colours, no., ...
        assert (row[3], row[8]) == (rating_of[white], rating_of[black])
        assert row[2] == f"Player{white}, Test" and row[7] == f"Player{black}, Test"


def test_the_organiser_sorts_the_start_numbers_before_round_one_and_not_after(
    client, event, django_capture_on_commit_callbacks
):
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/pairing/1/"
    page = client.get(url).content.decode()
    assert "Sort the start numbers by the initial ranking" in page
    assert client.post(url, {"action": "sort"}).status_code == 302
    assert _ranking(event) == sorted(RATINGS, reverse=True)
    assert [row[3] for row in _cells(client.get(url).content.decode(), "start-numbers")] == [
        str(r) for r in sorted(RATINGS, reverse=True)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "pair"})
    assert client.post(url, {"action": "publish"}).status_code == 302
    Entry.objects.filter(event=event, start_number=6).update(rating=2700)  # corrected after round 1
    refused = client.post(url, {"action": "sort"})
    assert refused.status_code == 400
    assert "Round 1 is published" in refused.content.decode()
    assert _ranking(event)[-1] == 2700  # nothing moved
    assert "Sort the start numbers by the initial ranking" not in client.get(url).content.decode()


def test_the_api_sorts_the_start_numbers_for_the_organiser_only(event):
    url = f"/api/v1/events/{event.slug}/start-numbers/sort/"
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    assert stranger.post(url).status_code == 403
    assert _ranking(event) == RATINGS
    organiser = APIClient()
    organiser.force_authenticate(organiser_of(event.league))
    answer = organiser.post(url)
    assert answer.status_code == 200, answer.json()
    assert [e["rating"] for e in answer.json()] == sorted(RATINGS, reverse=True)
    assert [e["start_number"] for e in answer.json()] == [1, 2, 3, 4, 5, 6]
    assert _ranking(event) == sorted(RATINGS, reverse=True)


def test_the_players_page_corrects_a_rating_and_takes_a_player_off_before_round_one(client, event):
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/entries/"
    entry = Entry.objects.get(event=event, rating=1690)
    assert client.post(url, {"action": "rating", "entry": entry.pk, "rating": "2500"}).status_code == 302
    entry.refresh_from_db()
    assert (entry.rating, entry.start_number) == (2500, 1)
    page = client.get(url).content.decode()
    assert "The rating of Player1, Test is saved." in page
    refused = client.post(url, {"action": "rating", "entry": entry.pk, "rating": "9999"}, follow=True)
    assert "Ensure this value is less than or equal to 3500." in refused.content.decode()
    assert Entry.objects.get(pk=entry.pk).rating == 2500
    top = Entry.objects.get(event=event, rating=2380)
    # "Remove" leads to the confirmation page (issue #33), whose Delete takes the player off
    confirm = f"/en/manage/leagues/{event.league.slug}/remove/entry/{top.pk}/"
    assert f'href="{confirm}"' in page
    assert client.post(confirm, {"action": "delete"}).status_code == 302
    assert not Entry.objects.filter(pk=top.pk).exists()
    assert _ranking(event) == [2500, 2290, 2210, 2050, 1845]
