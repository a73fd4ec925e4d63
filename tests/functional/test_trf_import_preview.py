"""TRF upload in two steps: a preview (players, rounds, results, tiebreaks, every problem by line), then the
organiser's confirmation; nothing is saved before it, and a file with problems cannot be confirmed."""

import hashlib
import html
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leagues.models import Event, Game, Player
from tests.factories import LeagueFactory, UserFactory, organiser_of
from tests.paths import GOLDEN

TRF = json.loads((GOLDEN / "swiss-p009-r05-s01004.json").read_text())["trf"]
pytestmark = pytest.mark.django_db


@pytest.fixture
def page(client):
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    return client, f"/en/manage/leagues/{league.slug}/import/"


def upload(client, url, text, slug="club-open"):
    return client.post(url, {"name": "Club open", "slug": slug, "file": SimpleUploadedFile("open.trf", text.encode())})


def confirm(client, url, text):
    return client.post(url, {"confirm": "1", "publish": "1", "digest": hashlib.sha256(text.encode()).hexdigest()})


def test_preview_shows_the_file_and_saves_nothing_until_confirmed(page):
    client, url = page
    players_before = Player.objects.count()
    preview = upload(client, url, TRF)
    body = html.unescape(preview.content.decode())
    assert preview.status_code == 200
    first = next(line for line in TRF.splitlines() if line.startswith("001"))[14:47].strip()
    assert first in body
    assert "Confirm the import" in body and "Nothing has been saved yet." in body
    assert "<dd>9</dd>" in body and "<dd>5</dd>" in body  # players and rounds
    assert not Event.objects.filter(slug="club-open").exists() and Player.objects.count() == players_before
    done = confirm(client, url, TRF)
    assert done.status_code == 302
    event = Event.objects.get(slug="club-open")
    assert event.entries.count() == 9
    assert ", ".join(event.tiebreak_criteria) in body  # the preview showed the tiebreaks the event got
    assert f"<dd>{Game.objects.filter(round__event=event).count()}</dd>" in body  # and the results count
    again = confirm(client, url, TRF)  # the stored file is used once: a double click finds the event
    assert again.status_code == 302 and again.url == done.url
    assert Event.objects.filter(slug="club-open").count() == 1 and event.entries.count() == 9


def test_every_problem_is_listed_by_line_and_the_file_cannot_be_confirmed(page):
    client, url = page
    lines = TRF.splitlines()
    players = [i for i, line in enumerate(lines) if line.startswith("001")]
    broken = [players[0], players[3], players[6]]
    for i in broken:
        lines[i] = lines[i][:48] + "abcd" + lines[i][52:]  # rating is not a number
    bad = "\n".join(lines)
    preview = upload(client, url, bad)
    body = html.unescape(preview.content.decode())
    assert preview.status_code == 400
    assert "The file cannot be read: 3 problems." in body
    for i in broken:
        assert f"Line {i + 1}:" in body
    assert "Confirm the import" not in body
    forced = confirm(client, url, bad)  # a hand-made confirmation of the bad file
    assert forced.status_code == 400
    assert not Event.objects.filter(slug="club-open").exists()


def test_confirming_another_file_than_the_previewed_one_imports_nothing(page):
    client, url = page
    assert upload(client, url, TRF).status_code == 200
    other = TRF.replace("012 ", "012 Other ", 1)
    refused = confirm(client, url, other)
    assert refused.status_code == 400
    assert "upload it again" in html.unescape(refused.content.decode())
    assert not Event.objects.filter(slug="club-open").exists()


def test_a_taken_address_is_a_problem_in_the_preview(page):
    client, url = page
    assert upload(client, url, TRF).status_code == 200 and confirm(client, url, TRF).status_code == 302
    other_league = LeagueFactory()
    client.force_login(organiser_of(other_league))
    preview = upload(client, f"/en/manage/leagues/{other_league.slug}/import/", TRF)
    assert preview.status_code == 400
    assert "An event with the address “club-open” exists already." in html.unescape(preview.content.decode())


def test_same_address_in_the_league_previews_an_update(page):
    client, url = page
    short = "\n".join(
        (line[:80] + "    " + line[84 : 89 + 30]).rstrip() if line.startswith("001") else line
        for line in TRF.splitlines()
    )  # after 3 rounds
    assert upload(client, url, short).status_code == 200 and confirm(client, url, short).status_code == 302
    preview = upload(client, url, TRF)
    assert preview.status_code == 200
    assert "This file updates the event" in html.unescape(preview.content.decode())
    assert Event.objects.get(slug="club-open").rounds.count() == 3
    assert confirm(client, url, TRF).status_code == 302
    assert Event.objects.get(slug="club-open").rounds.count() == 5


def test_only_the_organiser_gets_a_preview(client):
    league = LeagueFactory()
    client.force_login(UserFactory())
    response = upload(client, f"/en/manage/leagues/{league.slug}/import/", TRF)
    assert response.status_code == 403
    assert "Only the league's organiser may import events." in html.unescape(response.content.decode())
