"""Issue #32: the organiser of the demo league gets the FIDE rating report of its team division from the event's
page, reads every problem with a link to the page that fixes it, fixes one there, and downloads the TRF file; the
API gives the same report and the same problems; nobody else sees it."""

import re

import pytest
from rest_framework.test import APIClient

from leagues.management.commands.load_demo import PASSWORD
from leagues.models import Event, Player, Role
from leagues.services.players import player_fields
from leagues.services.rating_report_teams import team_rating_report
from leagues.services.tokens import api_token_create
from tests.helpers import text_of

pytestmark = pytest.mark.django_db

TEAM = "demo-division-1"
LANGUAGES = {
    "el": "Αναφορά αξιολόγησης FIDE",
    "tr": "FIDE reyting raporu",
    "he": "דוח מד כושר ל־FIDE",
    "nb": "FIDE-ratingrapport",
}


def _organiser(client):
    assert client.login(username="organiser", password=PASSWORD)
    return Role.objects.get(kind=Role.Kind.ORGANISER, league__slug="demo-league").user


def _problems(page: str) -> list[tuple[str, str]]:
    """Each problem of the page: its sentence and the address of its "Fix it" link."""
    found = re.findall(r'<li data-code="[a-z_]+"><bdi>(.*?)</bdi> <a href="([^"]+)">', page)
    return [(text_of(sentence).strip(), href) for sentence, href in found]


def test_the_organiser_finds_the_report_on_the_event_page_and_every_problem_has_its_page(client, demo):
    _organiser(client)
    event_page = client.get(f"/en/manage/events/{TEAM}/").content.decode()
    assert f'<a href="/en/manage/events/{TEAM}/rating-report/">FIDE rating report</a>' in event_page

    response = client.get(f"/en/manage/events/{TEAM}/rating-report/")
    assert response.status_code == 200
    page = response.content.decode()
    text = text_of(page)
    # two rounds of the demo confirmed and round 3 submitted: 3 x 2 matches x 4 boards, one board of round 2 won by
    # default (load_demo.py), so 23 games played over the board
    assert "23 games played over the board, which FIDE rates" in text
    assert "1 board won or lost by default is in the file as a forfeit, which FIDE does not rate" in text
    problems = _problems(page)
    sentences = [sentence for sentence, _href in problems]
    assert any(s.startswith("No chief arbiter is named for the event") for s in sentences)
    assert "Round 3, Kadıköy Satranç Kulübü 1 – Oslo Sjakkselskap 1: the card is disputed." in sentences
    assert "Round 3, Athens Chess Club 1 – Haifa Chess Club 1: the card is not confirmed yet." in sentences
    assert f"{len(problems)} problems to fix before FIDE rates the event" in text
    # every link leads to a page the organiser can open
    for _sentence, href in problems:
        assert client.get(href).status_code == 200, href
    # the demo's players have no FIDE id and no federation: one line each, with the player's page
    hansen = Player.objects.get(name="Hansen, Ingrid")
    mine = [(s, href) for s, href in problems if "Hansen, Ingrid" in s]
    page_of_hansen = f"/en/manage/leagues/demo-league/players/{hansen.pk}/"
    assert [s.split(": ", 1)[1] for s, _href in mine] == ["no FIDE id.", "no federation."]
    assert {href for _s, href in mine} == {page_of_hansen}


def test_a_problem_fixed_on_the_players_page_leaves_the_report(client, demo):
    _organiser(client)
    hansen = Player.objects.get(name="Hansen, Ingrid")
    form = {name: getattr(hansen, name) if getattr(hansen, name) is not None else "" for name in player_fields()}
    form.update({"fide_id": "1503014", "federation": "NOR", "anonymised": ""})
    response = client.post(f"/en/manage/leagues/demo-league/players/{hansen.pk}/", form)
    assert response.status_code == 302, response.content.decode()[:2000]

    page = client.get(f"/en/manage/events/{TEAM}/rating-report/").content.decode()
    assert not [s for s, _href in _problems(page) if "Hansen, Ingrid" in s]
    download = client.get(f"/en/manage/events/{TEAM}/rating-report/report.trf")
    assert download.status_code == 200 and download["Cache-Control"] == "private, no-store"
    line = next(x for x in download.content.decode().split("\r\n") if x.startswith("001") and "Hansen, Ingrid" in x)
    assert line[53:56] == "NOR" and line[57:68].strip() == "1503014"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_report_speaks_the_organisers_language(client, demo, language):
    _organiser(client)
    page = client.get(f"/{language}/manage/events/{TEAM}/rating-report/").content.decode()
    assert LANGUAGES[language] in page
    assert "problems to fix" not in page and "games played over the board" not in page


def test_the_api_gives_the_same_report_and_problems_to_the_organiser_only(client, demo):
    organiser = _organiser(client)
    event = Event.objects.get(slug=TEAM)
    api = APIClient()
    _, key = api_token_create(user=organiser, name="report", scopes=["organiser"])
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    answer = api.get(f"/api/v1/events/{TEAM}/rating-report/")
    assert answer.status_code == 200
    data = answer.json()
    page = client.get(f"/en/manage/events/{TEAM}/rating-report/").content.decode()
    assert [(p["message"], p["fix_url"].split("://", 1)[1].split("/", 1)[1]) for p in data["problems"]] == [
        (sentence, href.lstrip("/")) for sentence, href in _problems(page)
    ]
    assert (data["rated_games"], data["unplayed_boards"]) == (23, 1)
    assert data["trf"].startswith("012 Division 1 2026")
    # each player played three rounds; the two of the forfeited board (round 2, board 4) two games
    assert sorted(p["rated_games"] for p in data["players"]) == [2, 2] + [3] * 14
    assert [p.code for p in team_rating_report(event=event, user=organiser).problems] == [
        p["code"] for p in data["problems"]
    ]

    _, read_key = api_token_create(user=organiser, name="read", scopes=["read"])
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {read_key}")
    assert api.get(f"/api/v1/events/{TEAM}/rating-report/").status_code == 403  # birth years and sex are in it

    secretary = Role.objects.filter(kind=Role.Kind.SECRETARY, club__slug="oslo-sk").get().user
    _, secretary_key = api_token_create(user=secretary, name="s", scopes=["organiser"])
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {secretary_key}")
    refused = api.get(f"/api/v1/events/{TEAM}/rating-report/")
    assert refused.status_code == 403 and "organiser" in refused.json()["message"]

    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    individual = api.get("/api/v1/events/demo-autumn-open/rating-report/")
    assert individual.status_code == 400 and individual.json()["code"] == "individual_event"


def test_a_secretary_gets_no_report_page(client, demo):
    assert client.login(username="secretary-oslo-sk", password=PASSWORD)
    assert client.get(f"/en/manage/events/{TEAM}/rating-report/").status_code == 403
    assert client.get(f"/en/manage/events/{TEAM}/rating-report/report.trf").status_code == 403
