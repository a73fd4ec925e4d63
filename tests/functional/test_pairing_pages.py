"""The pairing pages: the organiser's screen (pair, preview, swap by hand, publish) and the public
pairings with points before the round; the about page credits Gacrux as its licence asks."""

import re

import pytest

from leagues.models import Game, PairingChange, Result, RoundPairing
from leagues.services.results import result_record
from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory, organiser_of
from tests.helpers import present
from tests.paths import TESTS

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = EventFactory(rounds_count=3, status="published")
    for n in range(1, 8):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(name=f"Player{n}, Test"), rating=2000 - n)
    return event


def test_organiser_pairs_swaps_and_publishes_through_the_screen(client, event, django_capture_on_commit_callbacks):
    client.force_login(organiser_of(event.league))
    start = client.get(f"/en/manage/events/{event.slug}/pairing/")
    url = start["Location"]
    assert url.endswith("/pairing/1/")
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"action": "pair"}).status_code == 302
    html = client.get(url).content.decode()
    assert "Preview" in html and "Publish round 1" in html
    assert f"/en/events/{event.slug}/rounds/1/pairings/" not in html
    assert client.get(f"/en/events/{event.slug}/rounds/1/pairings/").status_code == 404  # not public yet
    refused = client.post(url, {"action": "swap", "swap-first": "1", "swap-second": "2", "swap-reason": ""})
    assert refused.status_code == 400 and not PairingChange.objects.exists()
    moved = client.post(url, {"action": "swap", "swap-first": "1", "swap-second": "2", "swap-reason": "same family"})
    assert moved.status_code == 302
    assert "This round was changed by hand." in client.get(url).content.decode()
    assert client.post(url, {"action": "publish"}).status_code == 302
    public = client.get(f"/en/events/{event.slug}/rounds/1/pairings/").content.decode()
    assert "This round was changed by hand." in public and "Reason: same family" in public
    boards = RoundPairing.objects.get().boards
    games = Game.objects.filter(round__event=event, black__isnull=False).order_by("board")
    assert [[present(g.white).start_number, present(g.black).start_number] for g in games] == boards
    assert {1, 2} & {n for board in boards[:1] for n in board}  # the swap moved 1 or 2 onto board 1


def test_public_pairings_show_points_before_the_round(client, event, django_capture_on_commit_callbacks):
    user = organiser_of(event.league)
    client.force_login(user)
    url = f"/en/manage/events/{event.slug}/pairing/1/"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "pair"})
    client.post(url, {"action": "publish"})
    for game in Game.objects.filter(round__event=event, black__isnull=False):
        result_record(game_id=game.pk, result=Result.WHITE_WINS, user=user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/en/manage/events/{event.slug}/pairing/2/", {"action": "pair"})
    client.post(f"/en/manage/events/{event.slug}/pairing/2/", {"action": "publish"})
    client.logout()
    html = client.get(f"/en/events/{event.slug}/pairings/").content.decode()  # the latest round's, at once
    round_two = client.get(f"/en/events/{event.slug}/rounds/2/pairings/").content.decode()
    assert html.split("<tbody>", 1)[1].split("</tbody>")[0] == round_two.split("<tbody>", 1)[1].split("</tbody>")[0]
    assert "Pairings of round 2" in html
    round_one = Game.objects.filter(round__event=event, round__number=1)
    scored = {present(g.white).start_number for g in round_one}  # the winners with white and the bye: 1 point each
    shown = {}
    for row in re.findall(r"<tr>(.*?)</tr>", html.split("<tbody>", 1)[1], re.S):
        cells = [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        shown[int(cells[1])], shown[int(cells[9])] = cells[4], cells[6]
    assert len(shown) == 6  # seven players: six on the boards, one bye
    assert shown == {n: "1" if n in scored else "0" for n in shown}
    greek = client.get(f"/el/events/{event.slug}/rounds/2/pairings/").content.decode()
    assert "Κλήρωση" in greek or "κλήρωση" in greek


def test_others_cannot_open_the_pairing_screen(client, event):
    client.force_login(UserFactory())
    assert client.get(f"/en/manage/events/{event.slug}/pairing/1/").status_code == 403


def test_about_page_credits_gacrux_in_every_language(client):
    for language in ("en", "el", "tr", "he", "nb"):
        html = client.get(f"/{language}/about/").content.decode()
        assert 'href="https://www.gacrux.no"' in html


def test_the_import_preview_shows_the_pairing_check(client):
    import html

    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.factories import LeagueFactory

    league = LeagueFactory()
    client.force_login(organiser_of(league))
    preview = client.post(
        f"/en/manage/leagues/{league.slug}/import/",
        {
            "name": "Mid",
            "slug": "mid",
            "file": SimpleUploadedFile(
                "mid.trf", (TESTS / "fixtures" / "trf" / "mid-event-after-round-2.trf").read_bytes()
            ),
        },
    )
    body = html.unescape(preview.content.decode())
    assert "Pairings checked" in body
    assert "The pairing engine pairs 1 of the 2 rounds differently from the file:" in body
    assert "Round 2" in body


def test_the_screen_follows_the_worker_from_a_static_script_only(client, event):
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/pairing/1/"
    client.post(url, {"action": "pair"})  # the worker's task waits for the commit: the round stays queued
    answer = client.get(url)
    html = answer.content.decode()
    assert 'data-progress-status="/en/manage/events/' in html and "<progress" in html
    assert re.findall(r"<script([^>]*)>", html) and all(
        "src=" in attrs for attrs in re.findall(r"<script([^>]*)>", html)
    )
    assert "/static/progress" in html
    # how often it asks: the site's setting, written on the script's tag (settings.PROGRESS_POLL_MS)
    assert re.search(r'<script src="[^"]*/progress[^"]*\.js" data-ms="200"', html)
    assert not re.findall(r"<[^>]+\son[a-z]+\s*=", html, flags=re.I)
    assert "script-src 'self'" in answer["Content-Security-Policy"]
    assert client.get(f"{url}status/").json() == {"status": "queued", "progress": 0, "problem": ""}


def test_the_dashboard_lists_rounds_to_pair_and_to_publish_of_the_organisers_events_only(
    client, event, django_capture_on_commit_callbacks
):
    organiser = organiser_of(event.league)
    waiting = EventFactory(league=event.league, rounds_count=3, status="published", name="Waiting Open")
    elsewhere = EventFactory(rounds_count=3, status="published", name="Other League Open")
    for other in (waiting, elsewhere):
        for n in range(1, 5):
            EntryFactory(event=other, start_number=n, player=PlayerFactory(), rating=1900 - n)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/en/manage/events/{event.slug}/pairing/1/", {"action": "pair"})
    html = client.get("/en/manage/").content.decode()
    publish = f'href="/en/manage/events/{event.slug}/pairing/1/">{event.name}: publish round 1</a>'
    pair = f'href="/en/manage/events/{waiting.slug}/pairing/1/">Waiting Open: pair round 1</a>'
    assert publish in html and pair in html
    assert "Other League Open" not in html
    assert f"{event.name}: pair round" not in html  # being published, not to pair
    client.post(f"/en/manage/events/{event.slug}/pairing/1/", {"action": "publish"})
    html = client.get("/en/manage/").content.decode()
    assert "publish round 1" not in html and f"{event.name}: pair round 2" not in html  # round 1 unplayed
    for game in Game.objects.filter(round__event=event, black__isnull=False):
        result_record(game_id=game.pk, result=Result.DRAW, user=organiser)
    html = client.get("/en/manage/").content.decode()
    assert f'href="/en/manage/events/{event.slug}/pairing/2/">{event.name}: pair round 2</a>' in html


def _pair_and_publish(client, event, number):
    url = f"/en/manage/events/{event.slug}/pairing/{number}/"
    assert client.post(url, {"action": "pair"}).status_code == 302
    assert client.post(url, {"action": "publish"}).status_code == 302


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_the_latest_pairings_follow_each_published_round_and_are_answered_from_the_cache(
    client, event, django_assert_num_queries
):
    user = organiser_of(event.league)
    client.force_login(user)
    _pair_and_publish(client, event, 1)
    client.logout()
    first = client.get(f"/en/events/{event.slug}/pairings/")
    assert "Pairings of round 1" in first.content.decode()
    with django_assert_num_queries(0):  # asked again: from the cache
        again = client.get(f"/en/events/{event.slug}/pairings/")
    assert again.content == first.content and again["ETag"] == first["ETag"] and "public" in again["Cache-Control"]
    client.force_login(user)
    for game in Game.objects.filter(round__event=event, round__number=1, black__isnull=False):
        result_record(game_id=game.pk, result=Result.DRAW, user=user)
    _pair_and_publish(client, event, 2)
    client.logout()
    latest = client.get(f"/en/events/{event.slug}/pairings/")
    assert "Pairings of round 2" in latest.content.decode() and latest["ETag"] != first["ETag"]
