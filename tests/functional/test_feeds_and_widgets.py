"""Calendar feeds read by an independent iCalendar parser; widgets for clubs' sites: framable, no cookies."""

import datetime

import icalendar
import pytest

from leagues.models import Club, Entry, Round, Team, TeamMatch
from tests.factories import EventFactory
from tests.functional.conftest import LANGUAGES

pytestmark = pytest.mark.django_db


@pytest.fixture
def division(db):
    """Three rounds, dated; Oslo SK's team plays round 1 at home and round 2 away; round 3 has no date."""
    oslo = Club.objects.create(name="Oslo SK, Sentrum", slug="oslo-sentrum")
    bergen = Club.objects.create(name="Bergen SK", slug="bergen-nord")
    event = EventFactory(name="Division 1", slug="div-1", kind="team", rounds_count=3, system="rr")
    entries = []
    for number, (club, name) in enumerate([(oslo, "Oslo SK 1"), (bergen, "Bergen SK 1")], start=1):
        team = Team.objects.create(event=event, club=club, name=name)
        entries.append(Entry.objects.create(event=event, start_number=number, team=team))
    days = [datetime.date(2026, 10, 3), datetime.date(2026, 11, 7), None]
    for number, day in enumerate(days, start=1):
        rnd = Round.objects.create(event=event, number=number, date=day)
        home, away = entries if number % 2 else entries[::-1]
        TeamMatch.objects.create(round=rnd, home=home, away=away)
    return event


def _events(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content
    assert b"\r\n" in body and all(len(line) <= 75 for line in body.split(b"\r\n"))  # folded lines
    calendar = icalendar.Calendar.from_ical(body)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    return list(calendar.walk("VEVENT"))


def test_event_rounds_feed(client, division):
    events = _events(client.get("/en/events/div-1/rounds.ics"))
    assert [e.decoded("DTSTART") for e in events] == [datetime.date(2026, 10, 3), datetime.date(2026, 11, 7)]
    assert [str(e["SUMMARY"]) for e in events] == ["Division 1: round 1", "Division 1: round 2"]
    assert str(events[0]["URL"]).endswith("/en/events/div-1/rounds/1/")
    assert len({str(e["UID"]) for e in events}) == 2
    assert all(e.decoded("DTEND") - e.decoded("DTSTART") == datetime.timedelta(days=1) for e in events)


def test_team_and_club_fixtures_feeds(client, division):
    team = _events(client.get("/en/events/div-1/teams/1/fixtures.ics"))
    assert [str(e["SUMMARY"]) for e in team] == [
        "Oslo SK 1 – Bergen SK 1 (round 1)",
        "Bergen SK 1 – Oslo SK 1 (round 2)",
    ]
    club = _events(client.get("/en/clubs/oslo-sentrum/fixtures.ics"))
    assert [e.decoded("DTSTART") for e in club] == [datetime.date(2026, 10, 3), datetime.date(2026, 11, 7)]
    assert client.get("/en/clubs/nowhere/fixtures.ics").status_code == 404


def test_feeds_are_linked_from_their_pages(client, division):
    assert 'href="/en/events/div-1/rounds.ics"' in client.get("/en/events/div-1/").content.decode()
    assert 'href="/en/events/div-1/teams/1/fixtures.ics"' in client.get("/en/events/div-1/teams/1/").content.decode()
    assert 'href="/en/clubs/oslo-sentrum/fixtures.ics"' in client.get("/en/clubs/oslo-sentrum/").content.decode()


def test_a_feed_speaks_the_page_language(client, division):
    events = _events(client.get("/nb/events/div-1/rounds.ics"))
    assert "Division 1" in str(events[0]["SUMMARY"]) and "round 1" not in str(events[0]["SUMMARY"])


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "path", ["events/bye-cup/standings/", "events/bye-cup/results/", "events/bye-cup/standings/?rows=2"]
)
def test_widgets_are_framable_cookieless_and_small(client, bye_event, lang, path):
    client.cookies.clear()
    response = client.get(f"/embed/{lang}/{path}")
    assert response.status_code == 200
    assert "frame-ancestors *" in response["Content-Security-Policy"]
    assert "X-Frame-Options" not in response
    assert not response.cookies  # no session, form token or language cookie
    html = response.content.decode()
    assert f'lang="{lang}"' in html and ('dir="rtl"' if lang == "he" else 'dir="ltr"') in html
    assert "<script" not in html and "site-header" not in html
    assert len(response.content) < 8000


def test_standings_widget_rows_and_the_offer_to_copy(client, bye_event, settings):
    settings.SITE_URL = "https://league.example"
    html = client.get("/embed/en/events/bye-cup/standings/?rows=2").content.decode()
    assert html.count("<tr>") == 3  # the heading and two players
    page = client.get("/en/events/bye-cup/").content.decode()
    assert "Put this on your club&#x27;s site" in page or "Put this on your club's site" in page
    assert "&lt;iframe src=&quot;https://league.example/embed/en/events/bye-cup/standings/&quot;" in page or (
        '&lt;iframe src="https://league.example/embed/en/events/bye-cup/standings/"' in page
    )


def test_team_fixtures_widget(client, division):
    html = client.get("/embed/he/events/div-1/teams/1/fixtures/").content.decode()
    assert "Oslo SK 1" in html and "Bergen SK 1" in html
    assert client.get("/embed/xx/events/div-1/standings/").status_code == 404


def _event_form_post(event, **changes):
    """The event's settings form as the organiser's browser posts it unchanged, with `changes`."""
    from leagues.manage.setup_forms import EventForm

    form = EventForm(instance=event, league=event.league)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            value = "on" if value else None
        if value is not None:
            data[name] = value
    return {k: v for k, v in {**data, **changes}.items() if v is not None}


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_a_rounds_venue_set_on_the_schedule_form_shows_on_its_page_feeds_and_match_card(client):
    from tests.workspace import division as season_division

    d = season_division()
    Round.objects.filter(event=d.event).update(venue="")
    d.event.venue = "Town Hall"
    d.event.save()
    client.force_login(d.organiser)
    url = f"/en/manage/leagues/{d.league.slug}/events/{d.event.slug}/edit/"
    form_page = client.get(url).content.decode()
    assert 'name="round_1_venue"' in form_page
    bad = client.post(url, _event_form_post(d.event, round_1_venue="Hall\r\nB"))
    assert bad.status_code == 400 and Round.objects.get(event=d.event).venue == ""
    saved = client.post(url, _event_form_post(d.event, round_1_venue="Kadıköy Chess House; room 2"))
    assert saved.status_code == 302
    assert Round.objects.get(event=d.event).venue == "Kadıköy Chess House; room 2"

    page = client.get(f"/en/events/{d.event.slug}/rounds/1/").content.decode()
    assert "Venue: <bdi>Kadıköy Chess House; room 2</bdi>" in page
    card = client.get(f"/en/manage/matches/{d.match().pk}/").content.decode()
    assert "Kadıköy Chess House; room 2" in card
    rounds = _events(client.get(f"/en/events/{d.event.slug}/rounds.ics"))
    assert [str(e["LOCATION"]) for e in rounds] == ["Kadıköy Chess House; room 2"]  # parsed back, unescaped
    club = _events(client.get(f"/en/clubs/{d.clubs[0].slug}/fixtures.ics"))
    assert [str(e["LOCATION"]) for e in club] == ["Kadıköy Chess House; room 2"]
    api = client.get(f"/api/v1/events/{d.event.slug}/rounds/").json()
    assert [r["venue"] for r in api["results"]] == ["Kadıköy Chess House; room 2"]

    assert client.post(url, _event_form_post(d.event, round_1_venue="")).status_code == 302
    rounds = _events(client.get(f"/en/events/{d.event.slug}/rounds.ics"))
    assert [str(e["LOCATION"]) for e in rounds] == ["Town Hall"]  # no venue of its own: the event's
