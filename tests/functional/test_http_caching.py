"""Public pages as a CDN and a browser see them: public, short-lived, revalidated by ETag and Last-Modified,
the same for every reader (no cookie, no Vary: Cookie), and a conditional request answered from the event's
stamp without a database query or a template; a logged-in user's answers are never stored."""

import gzip
import threading
import time

import pytest
from django.conf import settings
from django.test.signals import template_rendered
from django.utils.http import http_date, parse_http_date

from leagues.models import Result
from leagues.page_cache import event_pages_changed
from leagues.services.results import result_record
from leagues.services.tokens import api_token_create
from tests.factories import GameFactory, RoundFactory, organiser_of
from tests.helpers import played_division, played_swiss

pytestmark = pytest.mark.django_db

EVENT_PAGES = [
    "/en/events/{slug}/",
    "/en/events/{slug}/crosstable/",
    "/en/events/{slug}/rounds/2/",
    "/en/events/{slug}/players/3/",
    "/en/events/{slug}/why/?a=1&b=2",
    "/en/events/{slug}/prizes/",
    "/en/events/{slug}/standings.csv",
    "/en/events/{slug}/rounds.ics",
    "/he/events/{slug}/",
    "/embed/nb/events/{slug}/standings/",
    "/embed/en/events/{slug}/results/",
]
TEAM_PAGES = ["/en/events/{slug}/teams/1/", "/en/events/{slug}/boards/", "/embed/en/events/{slug}/teams/1/fixtures/"]
OTHER_PAGES = [
    "/en/",
    "/en/clubs/",
    "/en/players/{player}/",
    "/en/players/?q=a",
    "/en/tiebreaks/",
    "/en/tiebreaks/calculator/",
    "/el/about/",
]
CONDITIONAL = [
    "/en/events/{slug}/",
    "/en/events/{slug}/crosstable/",
    "/en/events/{slug}/players/3/",
    "/embed/en/events/{slug}/standings/",
    "/api/v1/events/{slug}/standings/",
    "/api/v1/events/{slug}/standings/?explain=1",
]


@pytest.fixture
def swiss(db):
    return played_swiss(10)


def cache_control(response) -> dict:
    parts = [part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()]
    return dict(part.split("=", 1) if "=" in part else (part, True) for part in parts)


def assert_public(response):
    assert response.status_code == 200
    control = cache_control(response)
    assert control.get("public") is True, response.get("Cache-Control")
    assert control.get("max-age") == str(settings.PUBLIC_MAX_AGE)
    assert control.get("s-maxage") == str(settings.PUBLIC_S_MAXAGE)
    assert control.get("stale-while-revalidate") == str(settings.PUBLIC_STALE_WHILE_REVALIDATE)
    assert response.has_header("ETag")
    assert not response.cookies, f"sets {list(response.cookies)}"
    vary = {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}
    assert vary <= {"accept-language", "accept-encoding"}, response.get("Vary")


@pytest.mark.parametrize("page", EVENT_PAGES)
def test_an_event_page_is_public_with_the_stamps_etag_and_last_modified(client, swiss, page):
    event, _entries = swiss
    response = client.get(page.format(slug=event.slug))
    assert_public(response)
    assert response.has_header("Last-Modified")
    assert response["ETag"].startswith('"')
    again = client.get(page.format(slug=event.slug))
    assert (again["ETag"], again["Last-Modified"]) == (response["ETag"], response["Last-Modified"])


@pytest.mark.parametrize("page", TEAM_PAGES)
def test_a_team_page_is_public(client, page):
    event, _sides = played_division(teams=4)
    assert_public(client.get(page.format(slug=event.slug)))


@pytest.mark.parametrize("page", OTHER_PAGES)
def test_the_other_public_pages_are_public_and_revalidate_by_their_body(client, swiss, page):
    _event, entries = swiss
    url = page.format(player=entries[0].player_id)
    response = client.get(url)
    assert_public(response)
    assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_the_api_standings_are_public_without_vary_cookie(client, swiss):
    event, _entries = swiss
    response = client.get(f"/api/v1/events/{event.slug}/standings/")
    assert cache_control(response).get("public") is True
    assert "cookie" not in response.get("Vary", "").lower()
    assert response.has_header("Last-Modified")
    assert not response.cookies


def test_a_logged_in_users_pages_are_private_and_never_stored(client, swiss):
    event, _entries = swiss
    user = organiser_of(event.league)
    client.force_login(user)
    for url in (f"/en/events/{event.slug}/", "/en/", f"/embed/en/events/{event.slug}/standings/"):
        response = client.get(url)
        control = cache_control(response)
        assert control.get("private") is True and control.get("no-store") is True, (url, response["Cache-Control"])
        assert "public" not in control
    assert user.username in client.get(f"/en/events/{event.slug}/").content.decode()
    workspace = client.get("/en/manage/")
    assert workspace.status_code == 200 and cache_control(workspace).get("no-store") is True


def test_an_api_tokens_own_answers_are_private(client, swiss):
    event, _entries = swiss
    user = organiser_of(event.league)
    _, token = api_token_create(user=user, name="hooks", scopes=["webhooks"])
    response = client.get("/api/v1/webhooks/", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200
    control = cache_control(response)
    assert control.get("private") is True and control.get("no-store") is True


@pytest.mark.parametrize("page", CONDITIONAL)
def test_a_conditional_request_is_answered_without_a_query_or_a_template(
    client, swiss, page, django_assert_num_queries
):
    event, _entries = swiss
    url = page.format(slug=event.slug)
    first = client.get(url)
    assert first.status_code == 200
    rendered = []

    def seen(sender, template, **kwargs):
        rendered.append(template.name)

    template_rendered.connect(seen)
    try:
        with django_assert_num_queries(0):
            by_etag = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
            by_date = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    finally:
        template_rendered.disconnect(seen)
    assert rendered == []
    for response in (by_etag, by_date):
        assert response.status_code == 304
        assert response.content == b""
        assert response["ETag"] == first["ETag"]
        assert cache_control(response).get("public") is True


def test_an_other_etag_or_an_older_date_gets_the_page(client, swiss):
    event, _entries = swiss
    url = f"/en/events/{event.slug}/"
    first = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=http_date(0)).status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"x", {first["ETag"]}').status_code == 304


@pytest.mark.usefixtures("on_commit_runs")
def test_a_new_result_gives_new_validators_at_once(client):
    """Each write's after-commit work runs when its transaction ends, as in production; even within the same second
    the old Last-Modified no longer answers 304."""
    event, entries = played_swiss(4)
    url = f"/en/events/{event.slug}/"
    before = client.get(url)
    from leagues.services.pairings import game_pair

    round_4 = RoundFactory(event=event, number=4)
    game = game_pair(round=round_4, board=1, white=entries[0], black=entries[1], user=organiser_of(event.league))
    assert client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200  # the round is paired
    before = client.get(url)
    result_record(game_id=game.pk, result=Result.BLACK_WINS, user=organiser_of(event.league))
    by_etag = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    by_date = client.get(url, HTTP_IF_MODIFIED_SINCE=before["Last-Modified"])
    assert by_etag.status_code == 200 and by_date.status_code == 200
    assert by_etag["ETag"] != before["ETag"]


@pytest.mark.usefixtures("on_commit_runs")
def test_last_modified_is_never_later_than_now_even_after_many_changes_in_a_second(client):
    """Each change moves the stamp's seconds on by one at least; ten changes within a second still answer with a
    Last-Modified of now at most, and the page as it was before them is still not answered 304 by its date."""
    event, _entries = played_swiss(4)
    url = f"/en/events/{event.slug}/"
    before = client.get(url)
    for _ in range(10):
        event_pages_changed(slug=event.slug)
    for after in (client.get(url), client.get(url)):  # rendered, then from the cache (middleware)
        assert parse_http_date(after["Last-Modified"]) <= time.time()
        assert client.get(url, HTTP_IF_MODIFIED_SINCE=before["Last-Modified"]).status_code == 200
        assert client.get(url, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304


def test_the_login_page_keeps_its_form_token_and_is_not_public(client):
    response = client.get("/en/accounts/login/")
    assert settings.CSRF_COOKIE_NAME in response.cookies
    assert "public" not in cache_control(response)


@pytest.mark.parametrize("page", ["/en/events/{slug}/standings.csv", "/en/events/{slug}/rounds.ics"])
def test_a_download_served_from_the_cache_keeps_its_file_name(client, swiss, page):
    event, _entries = swiss
    url = page.format(slug=event.slug)
    rendered, cached = client.get(url), client.get(url)
    assert cached["Content-Disposition"] == rendered["Content-Disposition"]
    assert cached.content == rendered.content


@pytest.mark.parametrize(
    "page",
    [
        *CONDITIONAL,
        "/he/events/{slug}/",
        "/embed/nb/events/{slug}/standings/?rows=5",
        "/en/events/{slug}/standings.csv",
        "/en/events/{slug}/why/",
    ],
)
def test_a_page_asked_again_is_the_same_page_and_headers_without_a_query(
    client, swiss, page, django_assert_num_queries
):
    """The second reader of a cached page is answered before the session, the locale and the view are asked:
    what they see and every header (language, framing, policy, Vary) is what the first reader got."""
    event, _entries = swiss
    url = page.format(slug=event.slug)
    first = client.get(url)
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.status_code == 200 and again.content == first.content

    def headers(response):
        return {k: v for k, v in response.items() if not k.startswith("X-RateLimit-")}

    assert headers(again) == headers(first)
    if url.startswith("/api/"):
        assert int(again["X-RateLimit-Remaining"]) < int(first["X-RateLimit-Remaining"])


def test_a_reader_who_logs_in_after_reading_the_cached_page_gets_their_own(client, swiss):
    event, _entries = swiss
    url = f"/en/events/{event.slug}/"
    client.get(url), client.get(url)
    user = organiser_of(event.league)
    client.force_login(user)
    response = client.get(url)
    assert cache_control(response).get("no-store") is True
    assert user.username in response.content.decode()


def test_the_api_throttle_counts_the_answers_from_the_cache(client, swiss, monkeypatch):
    from leagues.api.throttling import AnonThrottle

    monkeypatch.setattr(AnonThrottle, "THROTTLE_RATES", {"anon": "3/minute", "user": "100/minute"})
    event, _entries = swiss
    url = f"/api/v1/events/{event.slug}/standings/"
    first = client.get(url)
    assert client.get(url).status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    refused = client.get(url)
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 429


@pytest.mark.usefixtures("on_commit_runs")
def test_explanations_stored_after_the_standings_show_at_once_and_the_standings_stay_cached(client, monkeypatch):
    """A result's standings, with FIDE's verdict on them, show at once; the explanation traces, stored by the
    recompute's second phase, renew only the pages that show them: the reader sees them there at once, while the
    standings are not rendered again (their ETag still answers 304), nor by a new check with the same verdict."""
    from leagues import recompute
    from leagues.models import FideCheck
    from leagues.services.fide_check import event_fide_check

    event, entries = played_swiss(4, tiebreak_criteria=["BH", "SB"])
    game = GameFactory(round=RoundFactory(event=event, number=4), board=1, white=entries[0], black=entries[1])
    standings_url, player_url = f"/en/events/{event.slug}/", f"/en/events/{event.slug}/players/1/"
    api_url = f"/api/v1/events/{event.slug}/standings/?explain=1"
    later, second_phase = [], recompute.store_explanations
    monkeypatch.setattr(recompute, "store_explanations", lambda *args: later.append(args))
    result_record(game_id=game.pk, result=Result.BLACK_WINS, user=organiser_of(event.league))
    assert len(later) == 1

    standings = client.get(standings_url)
    assert standings.status_code == 200
    assert FideCheck.objects.get(event=event).rounds == 4
    assert 'class="fide-check"' in standings.content.decode()  # the verdict of the new results is shown at once
    before = client.get(player_url)
    assert 'class="explained"' not in before.content.decode()  # the traces are not stored yet
    assert client.get(api_url).json()["explanations"] == {}

    second_phase(*later[0])
    event_fide_check(event_id=event.pk)  # checked again, e.g. a retried task: the verdict is the same
    assert client.get(standings_url, HTTP_IF_NONE_MATCH=standings["ETag"]).status_code == 304
    by_etag = client.get(player_url, HTTP_IF_NONE_MATCH=before["ETag"])
    by_date = client.get(player_url, HTTP_IF_MODIFIED_SINCE=before["Last-Modified"])
    for after in (by_etag, by_date):
        assert after.status_code == 200 and 'class="explained"' in after.content.decode()
    assert client.get(api_url).json()["explanations"]["1"]


def vary(response) -> set:
    return {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}


@pytest.mark.parametrize(
    "page", ["/en/events/{slug}/", "/he/events/{slug}/crosstable/", "/api/v1/events/{slug}/standings/?explain=1"]
)
def test_a_reader_who_accepts_gzip_gets_the_same_page_compressed(client, swiss, page):
    """Compressed once when rendered: the rendered answer and those from the cache are the same page."""
    event, _entries = swiss
    url = page.format(slug=event.slug)
    rendered = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    plain = client.get(url)
    cached = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    for packed in (rendered, cached):
        assert packed["Content-Encoding"] == "gzip" and "accept-encoding" in vary(packed)
        assert gzip.decompress(packed.content) == plain.content
        assert int(packed["Content-Length"]) == len(packed.content) < len(plain.content)
    assert not plain.has_header("Content-Encoding") and "accept-encoding" in vary(plain)
    # the compressed copy's tag is the page's, weak (another encoding of it); either tag answers 304
    assert rendered["ETag"] == cached["ETag"] == "W/" + plain["ETag"]
    for tag in (plain["ETag"], cached["ETag"]):
        assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=tag).status_code == 304
    refused = client.get(url, HTTP_ACCEPT_ENCODING="gzip;q=0, identity")
    assert not refused.has_header("Content-Encoding") and refused.content == plain.content


@pytest.mark.parametrize("page", ["/en/events/{slug}/crosstable/", "/api/v1/events/{slug}/standings/"])
def test_a_page_another_process_rendered_is_whole_for_a_reader_without_gzip(client, swiss, page, monkeypatch):
    """The shared cache keeps a page as its gzip copy only; a process that did not render it serves it whole, and
    compressed, from that copy, as the rendering process does."""
    from leagues import page_cache

    event, _entries = swiss
    url = page.format(slug=event.slug)
    rendered = client.get(url)
    for accept in ("identity", "gzip"):
        page_cache._local.clear()  # another process: nothing of the page but the shared cache's
        answers = [client.get(url, HTTP_ACCEPT_ENCODING=accept) for _ in range(2)]  # the view's, then the early one
        for answer in answers:
            body = gzip.decompress(answer.content) if accept == "gzip" else answer.content
            assert body == rendered.content and answer["ETag"].removeprefix("W/") == rendered["ETag"]
            assert int(answer["Content-Length"]) == len(answer.content)


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


@pytest.mark.usefixtures("on_commit_runs")
def test_while_a_neighbour_renders_a_reader_gets_the_page_of_a_moment_ago_at_once(client):
    """A result changed the standings while another thread of the web process renders: the reader gets the page
    as it was (its own ETag, 304 for who has it) instead of a thread kept waiting; the new page once it is free."""
    event, entries = played_swiss(4)
    url = f"/en/events/{event.slug}/"
    game = GameFactory(round=RoundFactory(event=event, number=4), board=1, white=entries[0], black=entries[1])
    before = client.get(url)
    result_record(game_id=game.pk, result=Result.BLACK_WINS, user=organiser_of(event.league))
    thread, release = _neighbour_rendering()
    try:
        meanwhile = client.get(url)
        assert meanwhile.status_code == 200 and meanwhile["ETag"] == before["ETag"]
        assert meanwhile.content == before.content
        assert client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304
    finally:
        release.set()
        thread.join()
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"] and after.content != before.content


@pytest.mark.usefixtures("on_commit_runs")
def test_a_page_too_old_to_stand_in_waits_for_the_render(client, monkeypatch):
    """A kept page more than EARLIER_PAGE_SECONDS older than the current stamp never stands in for it: the reader
    waits for the neighbour's render and gets the new page."""
    from leagues import page_cache

    event, entries = played_swiss(4)
    url = f"/en/events/{event.slug}/"
    game = GameFactory(round=RoundFactory(event=event, number=4), board=1, white=entries[0], black=entries[1])
    before = client.get(url)
    result_record(game_id=game.pk, result=Result.BLACK_WINS, user=organiser_of(event.league))
    monkeypatch.setattr(page_cache.render, "EARLIER_PAGE_SECONDS", 0)
    thread, release = _neighbour_rendering()
    threading.Timer(0.2, release.set).start()
    try:
        answer = client.get(url)
    finally:
        release.set()
        thread.join()
    assert answer.status_code == 200 and answer["ETag"] != before["ETag"] and answer.content != before.content
