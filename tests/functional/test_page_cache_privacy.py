"""What the page cache keeps is what every reader may see: an event's pages go the moment the event stops being
public (deleted, back to draft), conditional requests included, and a page kept for everyone carries nothing of the
first reader's request (the search text of its query, the address it came by)."""

import datetime
import threading

import pytest
from django.test import Client

from leagues.models import Event, Round
from leagues.services.events import event_save, event_status_set
from tests.factories import UserFactory, organiser_of, swiss_event
from tests.helpers import played_swiss, search

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]  # each write's page work as on commit

PAGES = [
    "/en/events/{slug}/",
    "/en/events/{slug}/crosstable/",
    "/en/events/{slug}/players/1/",
    "/en/events/{slug}/rounds/1/",
    "/he/events/{slug}/",
    "/embed/en/events/{slug}/standings/",
    "/api/v1/events/{slug}/standings/",
]


def _neighbour_rendering():
    """Another thread of this process holds the one-render-at-a-time lock, as while it renders a page."""
    from leagues import page_cache

    holding, release = threading.Event(), threading.Event()

    def render():
        with page_cache._RENDERING:
            holding.set()
            release.wait()  # until the test lets go (its `finally`): a slow machine never ends the render early

    thread = threading.Thread(target=render, daemon=True)
    thread.start()
    assert holding.wait(60), "the neighbour never took the render lock"
    return thread, release


def _read_all(client, urls) -> dict:
    """Each page twice (rendered, then from the cache): the pages as an anonymous reader has them."""
    pages = {}
    for url in urls:
        client.get(url)
        pages[url] = client.get(url)
        assert pages[url].status_code == 200, url
    return pages


def _assert_gone(client, pages: dict) -> None:
    for url, before in pages.items():
        conditional = [{"HTTP_IF_NONE_MATCH": before["ETag"]}, {"HTTP_IF_MODIFIED_SINCE": before["Last-Modified"]}]
        for headers in ({}, *conditional):
            answer = client.get(url, **headers)
            assert answer.status_code == 404, (url, headers, answer.status_code)


def test_a_deleted_events_pages_are_not_found_at_once(client):
    event, _entries = played_swiss(4)
    pages = _read_all(client, [page.format(slug=event.slug) for page in PAGES])
    staff = Client()
    staff.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert staff.post(f"/admin/leagues/event/{event.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Event.objects.filter(pk=event.pk).exists()
    _assert_gone(client, pages)


def test_a_deleted_leagues_event_pages_are_not_found_at_once(client):
    event, _entries = played_swiss(4)
    pages = _read_all(client, [page.format(slug=event.slug) for page in PAGES[:4]])
    staff = Client()
    staff.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert staff.post(f"/admin/leagues/league/{event.league_id}/delete/", {"post": "yes"}).status_code == 302
    _assert_gone(client, pages)


def test_an_event_back_to_draft_is_not_found_at_once_and_no_page_stands_in_for_it(client):
    """Unpublished while another thread of the web process renders: no reader gets the page as it was (which
    names every player), neither whole nor as a 304. Published again, it is shown again."""
    event, entries, _games = swiss_event(players=4, tiebreak_criteria=["BH", "SB"])
    organiser = organiser_of(event.league)
    pages = _read_all(client, [page.format(slug=event.slug) for page in PAGES])
    round_page = f"/en/events/{event.slug}/rounds/1/"
    assert entries[0].player.name in pages[round_page].content.decode()
    event_status_set(event=event, user=organiser, status=Event.Status.DRAFT)
    thread, release = _neighbour_rendering()
    try:
        _assert_gone(client, pages)
    finally:
        release.set()
        thread.join()
    _assert_gone(client, pages)
    event_status_set(event=event, user=organiser, status=Event.Status.PUBLISHED)
    for _ in range(2):  # rendered, then from the cache
        answer = client.get(round_page)
        assert answer.status_code == 200 and entries[0].player.name in answer.content.decode()


def test_an_event_given_another_address_is_not_found_at_its_old_one(client):
    """The organiser renames the event's address: the pages kept under the old one are not served any more (they
    would stay public there, whatever the event becomes)."""
    event, _entries = played_swiss(4)
    pages = _read_all(client, [page.format(slug=event.slug) for page in PAGES[:4]])
    event_save(league=event.league, user=organiser_of(event.league), fields={"slug": "renamed-open"}, event=event)
    _assert_gone(client, pages)
    assert client.get("/en/events/renamed-open/").status_code == 200


SEARCHED = "Qzxwv Smithson"
QUERY_PAGES = [
    "/en/events/{slug}/",
    "/en/events/{slug}/crosstable/",
    "/en/events/{slug}/rounds/1/",
    "/en/events/{slug}/players/1/",
    "/en/events/{slug}/why/",
    "/en/events/{slug}/prizes/",
    "/en/events/{slug}/pairings/",
]


@pytest.mark.parametrize("page", QUERY_PAGES)
def test_a_readers_search_text_never_shows_to_the_next_reader(page):
    event, _entries = played_swiss(4)
    url = page.format(slug=event.slug)
    first = Client().get(url, {"q": SEARCHED})
    assert first.status_code == 200
    for _ in range(2):
        answer = Client().get(url)
        assert answer.status_code == 200 and "Qzxwv" not in answer.content.decode()
    assert "Qzxwv" not in Client().get(url, {"q": SEARCHED}).content.decode()  # a kept page: the same for everyone


def _qr_address(html: str) -> str:
    return search(r'<aside class="print-only print-qr"><svg[^>]*class="segno"><title>([^<]+)</title>', html).group(1)


def test_the_first_readers_address_is_never_in_the_qr_code_the_widget_code_or_the_calendar(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "evil.example"]
    event, _entries = played_swiss(4)
    Round.objects.filter(event=event, number=1).update(date=datetime.date(2026, 3, 1))
    urls = {
        "standings": f"/en/events/{event.slug}/",
        "round": f"/en/events/{event.slug}/rounds/1/",
        "calendar": f"/en/events/{event.slug}/rounds.ics",
    }
    for url in urls.values():
        assert Client(HTTP_HOST="evil.example").get(url, secure=True).status_code == 200
    pages = {name: Client().get(url).content.decode() for name, url in urls.items()}
    for name, page in pages.items():
        assert "evil.example" not in page, name
    site = settings.SITE_URL
    assert _qr_address(pages["standings"]) == f"{site}{urls['standings']}"
    assert _qr_address(pages["round"]) == f"{site}{urls['round']}"
    widget = f"{site}/embed/en/events/{event.slug}/standings/"
    assert f'&lt;iframe src="{widget}"' in pages["standings"] or f"src=&quot;{widget}&quot;" in pages["standings"]
    assert f"URL:{site}/en/events/{event.slug}/rounds/1/" in pages["calendar"].replace("\r\n ", "")
