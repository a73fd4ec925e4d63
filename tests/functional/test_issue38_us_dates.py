"""Issue 38: a league in the United States writes English dates as US Chess readers do (Dec 6, 2026; 12/06/2026),
a European league day first (6 Dec 2026; 06/12/2026); other languages keep their own formats."""

import datetime
import re

import pytest

from leagues.models import Round
from tests.factories import organiser_of, swiss_event
from tests.workspace import division

pytestmark = pytest.mark.django_db

ROUND_DAY = datetime.date(2026, 12, 6)  # a Sunday; 6 December: "Dec 6, 2026" in the US, "6 Dec 2026" in Britain


def _text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def _event(federation: str):
    event, _entries, _games = swiss_event(players=4, rounds=5)
    event.league.federation = federation
    event.league.save()
    Round.objects.filter(event=event, number=1).update(date=ROUND_DAY)
    return event


@pytest.mark.parametrize(
    ("federation", "written", "not_written"),
    [("USA", "Dec 6, 2026", "6 Dec 2026"), ("NOR", "6 Dec 2026", "Dec 6, 2026"), ("", "6 Dec 2026", "Dec 6, 2026")],
)
def test_a_round_s_date_follows_the_league_s_country_on_english_pages(client, federation, written, not_written):
    event = _event(federation)
    text = _text(client.get(f"/en/events/{event.slug}/rounds/1/").content.decode())
    assert written in text and not_written not in text


def test_a_us_league_s_pages_in_other_languages_keep_their_own_dates(client):
    event = _event("USA")
    # Norwegian writes 6. desember 2026 (Django's nb DATE_FORMAT "j. F Y"), Greek 06/12/2026 ("d/m/Y")
    assert "6. desember 2026" in _text(client.get(f"/nb/events/{event.slug}/rounds/1/").content.decode())
    assert "06/12/2026" in _text(client.get(f"/el/events/{event.slug}/rounds/1/").content.decode())


def test_a_us_league_s_fixtures_widget_writes_month_first(client):
    d = division()
    d.league.federation = "USA"
    d.league.save()
    Round.objects.filter(event=d.event, number=1).update(date=datetime.date(2027, 1, 10))  # a fixture ahead
    widget = _text(client.get(f"/embed/en/events/{d.event.slug}/teams/1/fixtures/").content.decode())
    assert "Jan 10, 2027" in widget and "10 Jan 2027" not in widget


def test_an_organiser_who_names_the_federation_turns_the_dates_month_first(client, django_capture_on_commit_callbacks):
    """The league form's federation field: the event's pages (cached until the event changes) follow at once."""
    event = _event("")
    page = f"/en/events/{event.slug}/rounds/1/"
    assert "6 Dec 2026" in _text(client.get(page).content.decode())
    organiser = organiser_of(event.league)
    client.force_login(organiser)
    form = {"name": event.league.name, "auto_confirm_days": 3, "currency": "GBP", "federation": "usa"}
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/en/manage/leagues/{event.league.slug}/settings/", form).status_code == 302
    event.league.refresh_from_db()
    assert event.league.federation == "USA"
    client.logout()  # a reader: the cached page
    assert "Dec 6, 2026" in _text(client.get(page).content.decode())


def test_a_federation_that_fide_does_not_know_is_refused_and_nothing_changes(client):
    event = _event("NOR")
    client.force_login(organiser_of(event.league))
    form = {"name": "Renamed", "auto_confirm_days": 3, "currency": "GBP", "federation": "XYZ"}
    response = client.post(f"/en/manage/leagues/{event.league.slug}/settings/", form)
    assert response.status_code == 400
    assert "three-letter code" in _text(response.content.decode())
    event.league.refresh_from_db()
    assert (event.league.name, event.league.federation) == (event.league.name, "NOR")
    assert event.league.name != "Renamed"
