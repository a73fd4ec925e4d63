"""Live pages: conditional requests on the HTML pages (ETag / 304), the refresh during a round, the bare /."""

import pytest

from leagues.models import Event, Game, Result
from leagues.page_cache import pages_changed
from leagues.services.results import result_record
from tests.factories import organiser_of

pytestmark = pytest.mark.django_db

PAGES = ["/en/events/bye-cup/", "/en/events/bye-cup/rounds/3/", "/en/events/bye-cup/crosstable/"]


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
@pytest.mark.parametrize("url", PAGES)
def test_unchanged_page_answers_304_and_a_new_result_gives_a_new_page(
    client, bye_event, url, django_capture_on_commit_callbacks
):
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert client.get(url.replace("/en/", "/he/"))["ETag"] != etag  # one page per language
    game = Game.objects.get(round__event=bye_event, round__number=3, board=1)
    with django_capture_on_commit_callbacks(execute=True):
        result_record(game_id=game.pk, result=Result.DRAW, user=organiser_of(bye_event.league), reason="misread sheet")
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_refresh_only_during_a_round_and_without_javascript_by_reloading(
    client, bye_event, django_capture_on_commit_callbacks, settings
):
    settings.LIVE_REFRESH_SECONDS = 45  # how often the page asks again: the site's setting
    finished = client.get("/en/events/bye-cup/").content.decode()
    assert "live.js" not in finished and "data-live-region" not in finished
    with django_capture_on_commit_callbacks(execute=True):  # the event's pages get a new stamp after the commit
        bye_event.status = Event.Status.RUNNING
        bye_event.save()
        pages_changed(event_id=bye_event.pk)  # saved behind the services' back: say what changed, as they do
    for url in ("/en/events/bye-cup/", "/en/events/bye-cup/rounds/3/"):
        html = client.get(url).content.decode()
        assert '<script src="/static/live.js" data-seconds="45" defer></script>' in html
        assert '<noscript><meta http-equiv="refresh" content="60"></noscript>' in html
        assert "data-live-region=" in html
        assert "<script>" not in html  # no inline script: the refresh lives in a static file


@pytest.mark.parametrize(
    ("cookie", "accept", "expected"),
    [
        (None, "he-IL,he;q=0.9,en;q=0.5", "/he/"),
        (None, "nb-NO,nb;q=0.9", "/nb/"),
        ("tr", "he", "/tr/"),  # the language the reader chose wins
        (None, "fr-FR", "/en/"),
        (None, None, "/en/"),
    ],
)
def test_bare_root_honours_the_language_cookie_and_accept_language(client, settings, cookie, accept, expected):
    if cookie:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
    response = client.get("/", **headers)
    assert response.status_code == 302 and response["Location"] == expected
    assert "Accept-Language" in response["Vary"]


@pytest.mark.parametrize(
    "url",
    [
        "/en/events/bye-cup/",
        "/he/events/bye-cup/crosstable/",
        "/en/events/bye-cup/rounds/3/",
        "/en/events/bye-cup/players/1/",
        "/en/players/",
        "/embed/en/events/bye-cup/standings/",
    ],
)
def test_no_inline_script_or_event_handler(client, bye_event, url):
    """A content security policy without inline scripts cannot break these pages: behaviour is in static files."""
    import re

    html = client.get(url).content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
    assert not re.search(r"<[^>]+\son[a-z]+=", html), url
