"""A team event's registration pages (issue #33): the event's page links the captain's form, which offers a line per
board and reserve; a refused form keeps what the captain typed and says what is wrong; the organiser's page names the
limit in teams and the reserves, lists each team with its roster, accepts in bulk (the teams then appear among the
event's teams) and exports the roster with the entries. In Hebrew the form reads right to left."""

import csv
import io

import pytest

from leagues.models import Event, Registration, Team
from leagues.services.registration import registration_settings_save
from tests.factories import ClubFactory, EventFactory, organiser_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


@pytest.fixture
def event():
    event = EventFactory(kind=Event.Kind.TEAM, boards=4, name="Fjord Teams", slug="fjord-teams")
    for name in ("Oslo SK", "Bergen SK"):
        event.league.clubs.add(ClubFactory(name=name))
    return event


@pytest.fixture
def organiser(event):
    return organiser_of(event.league)


def _form(team, club="Oslo SK", count=4, email="captain@example.org", **more):
    fields = {"team": team, "club": club, "email": email, **more}
    for board in range(1, count + 1):
        fields |= {
            f"board-{board}-name": f"{team}, Player {board}",
            f"board-{board}-federation": "NOR",
            f"board-{board}-birth_year": str(1980 + board),
        }
    return fields


def test_the_captain_registers_a_team_on_the_events_page(client, event, organiser, mailoutbox):
    registration_settings_save(event=event, user=organiser, fields={"is_open": True, "limit": 1, "reserves": 2})
    standings = client.get("/en/events/fjord-teams/").content.decode()
    assert "/en/events/fjord-teams/register/" in standings and "Registration form" in standings
    page = client.get("/en/events/fjord-teams/register/").content.decode()
    assert "Register a team for Fjord Teams" in page and "1 place left." in page
    assert "Name at least 4 players; the lines after the boards are reserves." in page
    assert 'name="board-6-name"' in page and 'name="board-7-name"' not in page  # 4 boards and 2 reserves
    assert '<option value="Bergen SK">Bergen SK</option>' in page

    done = client.post("/en/events/fjord-teams/register/", _form("Oslo SK 1", count=5)).content.decode()
    assert "The registration of <bdi>Oslo SK 1</bdi> is received. We have sent the captain an e-mail" in done
    waiting = client.post("/en/events/fjord-teams/register/", _form("Bergen SK 1", club="Bergen SK")).content.decode()
    assert "The event is full: <bdi>Bergen SK 1</bdi> is on the waiting list." in waiting
    again = client.post("/en/events/fjord-teams/register/", _form("Oslo SK 1", count=5)).content.decode()
    assert "<bdi>Oslo SK 1</bdi> is registered already (waiting for a decision)." in again
    assert list(Registration.objects.values_list("name", "status")) == [
        ("Oslo SK 1", "pending"),
        ("Bergen SK 1", "waiting"),
    ]
    assert [m.subject for m in mailoutbox] == [
        "Registration for Fjord Teams: received",
        "Registration for Fjord Teams: waiting list",
    ]


def test_a_refused_form_keeps_what_was_typed_and_saves_nothing(client, event, organiser, mailoutbox):
    registration_settings_save(event=event, user=organiser, fields={"is_open": True})
    answer = client.post("/en/events/fjord-teams/register/", _form("Oslo SK 1", count=3))
    page = answer.content.decode()
    assert answer.status_code == 400
    assert "The event plays on 4 boards: name at least 4 players." in page
    assert '<fieldset class="roster" aria-invalid="true" aria-describedby="register-error">' in page
    assert 'value="Oslo SK 1, Player 3"' in page and 'value="Oslo SK 1"' in page
    assert '<option value="Oslo SK" selected>' in page
    no_club = client.post("/en/events/fjord-teams/register/", _form("Oslo SK 1", club="")).content.decode()
    assert "A team plays for a club of the league: name the club." in no_club
    assert 'id="id_club" aria-invalid="true"' in no_club
    assert not Registration.objects.exists() and not mailoutbox


def test_in_hebrew_the_form_reads_right_to_left(client, event, organiser, mailoutbox):
    registration_settings_save(event=event, user=organiser, fields={"is_open": True})
    page = client.get("/he/events/fjord-teams/register/").content.decode()
    assert '<html lang="he" dir="rtl">' in page
    assert "רישום קבוצה ל־Fjord Teams" in page and "הדוא״ל של הקפטן" in page and "שחקנים, לוח אחר לוח" in page
    assert 'dir="ltr"' in page  # the FIDE ids, federations and years are typed left to right
    done = client.post("/he/events/fjord-teams/register/", _form("Oslo SK 1")).content.decode()
    assert "ההרשמה של הקבוצה <bdi>Oslo SK 1</bdi> התקבלה." in done
    assert Registration.objects.get().language == "he"
    assert mailoutbox[0].body.startswith("שלום, קפטן הקבוצה Oslo SK 1,")
    assert "שחקני הקבוצה, לוח אחר לוח:\n1. Oslo SK 1, Player 1\n" in mailoutbox[0].body


def test_the_organiser_accepts_the_teams_in_bulk_and_exports_them(client, event, organiser):
    registration_settings_save(event=event, user=organiser, fields={"is_open": True, "fee": "25.00"})
    for team, club in (("Oslo SK 1", "Oslo SK"), ("Bergen SK 1", "Bergen SK")):
        client.post("/en/events/fjord-teams/register/", _form(team, club=club, email=f"{club[:4]}@example.org"))
    client.force_login(organiser)
    page = client.get("/en/manage/events/fjord-teams/").content.decode()
    assert "/en/manage/events/fjord-teams/registration/" in page
    page = client.get("/en/manage/events/fjord-teams/registration/").content.decode()
    assert "Limit of teams" in page and "Reserves per team" in page
    assert '<ol class="roster"><li><bdi>Oslo SK 1, Player 1</bdi></li>' in page
    assert '<th scope="col">Team</th>' in page and "Birth year" not in page  # a team's row has no player's fields
    saved = client.post(
        "/en/manage/events/fjord-teams/registration/",
        {"action": "settings", "is_open": "on", "waiting_list": "on", "limit": "8", "reserves": "2", "fee": "25.00"},
    )
    assert saved.status_code == 302
    ids = list(Registration.objects.values_list("pk", flat=True))
    answer = client.post("/en/manage/events/fjord-teams/registration/bulk/", {"action": "accept", "ids": ids})
    assert answer.status_code == 302
    assert "Done: 2 registrations." in client.get(answer["Location"]).content.decode()
    assert sorted(Team.objects.values_list("name", flat=True)) == ["Bergen SK 1", "Oslo SK 1"]
    teams = client.get("/en/manage/events/fjord-teams/entries/").content.decode()
    assert "Oslo SK 1" in teams and "Bergen SK 1" in teams
    rows = list(
        csv.reader(
            io.StringIO(client.get("/en/manage/events/fjord-teams/registration/registrations.csv").content.decode())
        )
    )
    assert rows[0][-1] == "Players"
    assert rows[1][:2] == ["1", "Oslo SK 1"] and rows[1][-2] == "25.00"
    assert rows[1][-1].startswith("1. Oslo SK 1, Player 1; 2. Oslo SK 1, Player 2;")


def test_an_individual_events_settings_have_no_reserves(client, organiser, event):
    individual = EventFactory(league=event.league, slug="fjord-open")
    client.force_login(organiser)
    page = client.get("/en/manage/events/fjord-open/registration/").content.decode()
    assert "Limit of players" in page and "Reserves per team" not in page
    assert individual.registrations.count() == 0
