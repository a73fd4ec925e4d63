"""The organiser's FIDE rating report of an event: FIDE ids, birth years and sex of new players, round dates,
arbiter, federation, with a list of what is missing and a TRF download; nobody else may see it."""

import datetime
import html

import pytest

from leagues.models import Game, Player, Result, Role
from tests.factories import (
    EntryFactory,
    EventFactory,
    PlayerFactory,
    RoleFactory,
    RoundFactory,
    UserFactory,
    organiser_of,
)
from tiebreaks.trf import read_trf

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = EventFactory(rounds_count=2, starts_on=datetime.date(2026, 3, 7))
    known = PlayerFactory(name="Hansen, Kari", fide_id=1503014, federation="NOR", sex="w", birth_year=1990)
    new = PlayerFactory(name="Berg, Ola", federation="NOR")  # no FIDE id, birth year or sex
    white = EntryFactory(event=event, start_number=1, player=known)
    black = EntryFactory(event=event, start_number=2, player=new)
    first = RoundFactory(event=event, number=1, date=datetime.date(2026, 3, 7))
    Game.objects.create(round=first, board=1, white=white, black=black, result=Result.WHITE_WINS)
    return event


def url(event, tail=""):
    return f"/en/manage/events/{event.slug}/rating-report/{tail}"


def test_the_report_lists_what_the_rating_officer_will_miss(client, event):
    client.force_login(organiser_of(event.league))
    assert url(event) in client.get(f"/en/manage/events/{event.slug}/").content.decode()  # linked from the event
    response = client.get(url(event))
    body = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "2 Berg, Ola: no FIDE id (a new player for FIDE)." in body
    assert "2 Berg, Ola: a new player without a birth year." in body
    assert "2 Berg, Ola: a new player without sex." in body
    assert "Rounds without a date: 2." in body
    assert "No arbiter is named for the event." in body
    assert "1 Hansen, Kari: no FIDE id" not in body and "1503014" in body and "1990" in body


def test_the_report_names_the_arbiter_and_downloads_as_trf(client, event):
    arbiter = UserFactory(first_name="Ada", last_name="Dommer")
    RoleFactory(user=arbiter, kind=Role.Kind.ARBITER, league=None, event=event)
    client.force_login(organiser_of(event.league))
    body = html.unescape(client.get(url(event)).content.decode())
    assert "Ada Dommer" in body and "No arbiter is named" not in body
    download = client.get(url(event, "report.trf"))
    assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
    text = download.content.decode()
    tournament = read_trf(text)
    kari = next(p for p in tournament.participants if p.start_number == 1)
    assert (kari.fide_id, kari.federation, kari.sex, kari.birth.strip()) == ("1503014", "NOR", "w", "1990")
    assert any(line.startswith("102 Ada Dommer") for line in text.splitlines())
    assert tournament.start_date == "2026-03-07"


@pytest.mark.parametrize("tail", ["", "report.trf"])
def test_nobody_but_the_organiser_sees_the_report(client, event, tail):
    client.force_login(UserFactory())
    refused = client.get(url(event, tail))
    assert refused.status_code == 403
    assert "Berg, Ola" not in refused.content.decode() and "<html" in refused.content.decode()  # the styled page
    arbiter = UserFactory()
    RoleFactory(user=arbiter, kind=Role.Kind.ARBITER, league=None, event=event)
    client.force_login(arbiter)
    assert client.get(url(event, tail)).status_code == 403
    client.logout()
    assert client.get(url(event, tail)).status_code == 302  # to the sign-in page


def test_the_report_reads_right_to_left_in_hebrew(client, event):
    client.force_login(organiser_of(event.league))
    body = client.get(f"/he/manage/events/{event.slug}/rating-report/").content.decode()
    assert 'dir="rtl"' in body and "דוח מד כושר ל־FIDE" in body and "שחקן חדש ללא שנת לידה" in body


def test_the_report_gives_the_full_birth_date_when_the_registry_has_it(client, event):
    Player.objects.filter(name="Hansen, Kari").update(birth_date=datetime.date(1990, 11, 30))
    client.force_login(organiser_of(event.league))
    assert "1990-11-30" in client.get(url(event)).content.decode()
    tournament = read_trf(client.get(url(event, "report.trf")).content.decode())
    kari = next(p for p in tournament.participants if p.start_number == 1)
    assert kari.birth.strip() == "1990/11/30"
    ola = next(p for p in tournament.participants if p.start_number == 2)
    assert ola.birth.strip() == ""
