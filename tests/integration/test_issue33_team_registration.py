"""Captains register their teams for a team event (issue #33), through the service and the API: the roster matched
against the registry, at least the event's boards and at most its boards and reserves, a player on one team's
roster only, the limit counting teams and the waiting list, the deadline; the organiser accepts in bulk, which makes
the event's team and its roster through services.teams, with an entry fee due; the fees' ledger and the CSV
export; the captain e-mailed in their language. A refused registration saves nothing and sends nothing."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.errors import FieldError, ServiceError
from leagues.models import (
    ClubMembership,
    Entry,
    Event,
    FeeRecord,
    Player,
    RegisteredPlayer,
    Registration,
    Round,
    Team,
    TeamMatch,
    TeamMember,
)
from leagues.services.registration import (
    RosterLine,
    checkin_set,
    fees_record,
    first_waiting,
    no_shows,
    no_shows_withdraw,
    place_free,
    registration_message,
    registration_settings_save,
    registration_submit,
    registrations_csv,
    registrations_decide,
    self_withdraw_problem,
    team_registration_submit,
)
from leagues.services.removals import entry_delete
from leagues.services.tokens import api_token_create
from tests.factories import ClubFactory, EventFactory, PlayerFactory, organiser_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

API = "/api/v1/events/fjord-teams/team-registrations/"


@pytest.fixture
def event():
    return EventFactory(
        kind=Event.Kind.TEAM, boards=4, name="Fjord Teams", slug="fjord-teams", status=Event.Status.PUBLISHED
    )


@pytest.fixture
def clubs(event):
    made = [ClubFactory(name=name, short_name=short) for name, short in (("Oslo SK", "OSK"), ("Bergen SK", "BSK"))]
    event.league.clubs.add(*made)
    return made


@pytest.fixture
def organiser(event):
    return organiser_of(event.league)


def _open(event, organiser, **fields):
    return registration_settings_save(event=event, user=organiser, fields={"is_open": True, **fields})


def _roster(prefix, count, first_year=1980):
    return [
        RosterLine(name=f"{prefix}, Player {n}", federation="NOR", birth_year=first_year + n)
        for n in range(1, count + 1)
    ]


def _team(event, name, club="Oslo SK", players=None, email="captain@example.org", language="en"):
    return team_registration_submit(
        event=event,
        language=language,
        email=email,
        team=name,
        club=club,
        players=players if players is not None else _roster(name, 4),
    )


def test_the_limit_counts_teams_and_the_next_goes_to_the_waiting_list(event, clubs, organiser, mailoutbox):
    _open(event, organiser, limit=2)
    first, created = _team(event, "Oslo SK 1")
    second, _ = _team(event, "Bergen SK 1", club="BSK", email="bergen@example.org")
    third, _ = _team(event, "Oslo SK 2", players=_roster("Second", 5))
    assert created
    assert [first.status, second.status, third.status] == ["pending", "pending", "waiting"]
    assert [line.name for line in third.roster.all()] == [f"Second, Player {n}" for n in range(1, 6)]
    assert [m.subject for m in mailoutbox] == [
        "Registration for Fjord Teams: received",
        "Registration for Fjord Teams: received",
        "Registration for Fjord Teams: waiting list",
    ]
    assert mailoutbox[1].to == ["bergen@example.org"]
    body = mailoutbox[2].body
    assert body.startswith("Hello, captain of Oslo SK 2,")
    assert "The event is full: you are on the waiting list." in body
    assert "The team's players, board by board:\n1. Second, Player 1\n2. Second, Player 2\n" in body
    assert "5. Second, Player 5\n" in body


def test_the_same_team_again_is_the_registration_it_has(event, clubs, organiser, mailoutbox):
    _open(event, organiser)
    first, created = _team(event, "Oslo SK 1")
    again, created_again = _team(event, "  oslo sk   1 ")  # a retry, typed otherwise
    assert (created, created_again) == (True, False) and again == first
    assert Registration.objects.count() == 1 and RegisteredPlayer.objects.count() == 4 and len(mailoutbox) == 1


@pytest.mark.parametrize(
    ("players", "reserves", "code", "message"),
    [
        (_roster("A", 3), None, "too_few_players", "The event plays on 4 boards: name at least 4 players."),
        (_roster("A", 7), 2, "too_many_players", "A team names at most 6 players (its boards and reserves)."),
        (
            [*_roster("A", 4), RosterLine(name="a,  player 2", federation="NOR", birth_year="1982")],
            None,
            "player_twice",
            "A, Player 2 is on the roster twice.",
        ),
        (
            [*_roster("A", 3), RosterLine(name="Holm, Per", birth_year="19x0")],
            None,
            None,
            "Board 4: A birth year is a number such as 1990.",
        ),
        ([*_roster("A", 3), RosterLine(name="Holm, Per")], None, None, "Board 4: Without a FIDE id"),
    ],
)
def test_a_roster_the_event_cannot_take_is_refused_and_nothing_is_saved(
    event, clubs, organiser, mailoutbox, players, reserves, code, message
):
    _open(event, organiser, reserves=reserves)
    with pytest.raises(FieldError) as refused:
        _team(event, "Oslo SK 1", players=players)
    assert refused.value.field == "players" and message in refused.value.message
    if code:
        assert refused.value.code == code
    assert not Registration.objects.exists() and not RegisteredPlayer.objects.exists() and not mailoutbox


def test_blank_lines_are_skipped_and_the_reserves_follow_the_boards(event, clubs, organiser):
    _open(event, organiser, reserves=2)
    lines = _roster("A", 6)
    lines.insert(2, RosterLine())  # an empty line between board 2 and board 3
    registration, _ = _team(event, "Oslo SK 1", players=[*lines, RosterLine(fide_id=" ", name="")])
    assert [(line.board_order, line.name) for line in registration.roster.all()] == [
        (1, "A, Player 1"),
        (2, "A, Player 2"),
        (3, "A, Player 3"),
        (4, "A, Player 4"),
        (5, "A, Player 5"),
        (6, "A, Player 6"),
    ]


def test_a_player_plays_for_one_team_of_the_event(event, clubs, organiser, mailoutbox):
    PlayerFactory(name="Berg, Anna", fide_id=1500100, federation="NOR")
    _open(event, organiser)
    _team(event, "Oslo SK 1", players=[RosterLine(fide_id="1500100"), *_roster("A", 3)])
    by_fide_id = [*_roster("B", 3), RosterLine(fide_id=1500100)]
    with pytest.raises(ServiceError) as refused:
        _team(event, "Bergen SK 1", club="Bergen SK", players=by_fide_id)
    assert refused.value.message == "Berg, Anna is on the roster of Oslo SK 1 already."
    assert refused.value.code == "player_in_another_team"
    by_name = [*_roster("B", 3), RosterLine(name="a, PLAYER 2", federation="NOR", birth_year=1982)]  # typed otherwise
    with pytest.raises(ServiceError) as refused:
        _team(event, "Bergen SK 1", club="Bergen SK", players=by_name)
    assert refused.value.message == "a, PLAYER 2 is on the roster of Oslo SK 1 already."
    assert Registration.objects.count() == 1 and len(mailoutbox) == 1
    # a refused team's players are free again
    registrations_decide(event=event, user=organiser, ids=[Registration.objects.get().pk], decision="refuse")
    registration, created = _team(event, "Bergen SK 1", club="Bergen SK", players=by_fide_id)
    assert created and registration.roster.get(board_order=4).player.name == "Berg, Anna"


def test_one_address_registers_a_clubs_six_teams_not_more(event, clubs, organiser):
    _open(event, organiser)
    for n in range(1, 7):
        _team(event, f"Oslo SK {n}", players=_roster(f"Team {n}", 4))
    with pytest.raises(FieldError) as refused:
        _team(event, "Oslo SK 7", players=_roster("Team 7", 4))
    assert refused.value.field == "email" and refused.value.code == "too_many_by_address"
    assert refused.value.message == "6 teams have been registered with this e-mail address already: ask the organiser."
    assert Registration.objects.count() == 6


def test_the_club_and_the_team_name_are_checked(event, clubs, organiser):
    _open(event, organiser)
    with pytest.raises(FieldError) as unknown_club:
        _team(event, "Tromsø SK 1", club="Tromsø SK")
    assert unknown_club.value.field == "club"
    assert unknown_club.value.message == "No club of the league is called “Tromsø SK”."
    clubs[1].retired = True
    clubs[1].save()
    with pytest.raises(ServiceError) as refused:
        _team(event, "Bergen SK 1", club="Bergen SK")
    assert refused.value.message == "No club of the league is called “Bergen SK”."
    with pytest.raises(ServiceError) as refused:
        _team(event, "Tromsø SK 1", club="")
    assert refused.value.message == "A team plays for a club of the league: name the club."
    with pytest.raises(FieldError) as blank_name:
        _team(event, " ")
    assert blank_name.value.field == "team"
    Team.objects.create(event=event, club=clubs[0], name="Oslo SK 1")  # entered by the organiser already
    with pytest.raises(ServiceError) as refused:
        _team(event, "oslo sk 1")
    assert refused.value.message == "The event has a team of this name already."
    assert not Registration.objects.exists()


def test_after_the_deadline_and_on_a_closed_event_nobody_registers(event, clubs, organiser):
    with pytest.raises(ServiceError) as refused:
        _team(event, "Oslo SK 1")
    assert refused.value.code == "registration_closed"
    _open(event, organiser, deadline=timezone.now() - timedelta(minutes=1))
    with pytest.raises(ServiceError) as refused:
        _team(event, "Oslo SK 1")
    assert refused.value.code == "registration_closed" and "Registration closed on" in refused.value.message
    assert not Registration.objects.exists()


def test_a_player_registers_for_individual_events_only_and_reserves_are_a_team_events(event, clubs, organiser):
    _open(event, organiser)
    with pytest.raises(ServiceError) as refused:
        registration_submit(event=event, language="en", email="a@example.org", name="A, B", birth_year=1990)
    assert refused.value.code == "team_event"
    individual = EventFactory(league=event.league)
    with pytest.raises(ServiceError) as refused:
        _team(individual, "Oslo SK 1")
    assert refused.value.code == "not_team_event"
    with pytest.raises(FieldError) as refused:
        registration_settings_save(event=individual, user=organiser, fields={"reserves": 2})
    assert refused.value.field == "reserves"


def test_accepting_makes_the_teams_and_their_rosters_with_fees_due(event, clubs, organiser, mailoutbox):
    anna = PlayerFactory(name="Berg, Anna", fide_id=1500100, federation="NOR")
    _open(event, organiser, limit=2, fee=Decimal("40.00"))
    oslo, _ = _team(event, "Oslo SK 1", players=[RosterLine(fide_id="1500100"), *_roster("A", 4)])
    bergen, _ = _team(event, "Bergen SK 1", club="Bergen SK", email="bergen@example.org")
    waiting, _ = _team(event, "Oslo SK 2", players=_roster("C", 4))
    with pytest.raises(ServiceError) as refused:  # the limit counts teams
        registrations_decide(event=event, user=organiser, ids=[oslo.pk, bergen.pk, waiting.pk], decision="accept")
    assert refused.value.code == "limit_reached" and not Team.objects.exists()
    mailoutbox.clear()

    registrations_decide(event=event, user=organiser, ids=[oslo.pk, bergen.pk], decision="accept")
    teams = {team.name: team for team in Team.objects.filter(event=event)}
    assert sorted(teams) == ["Bergen SK 1", "Oslo SK 1"]
    assert teams["Oslo SK 1"].club == clubs[0] and teams["Bergen SK 1"].club == clubs[1]
    roster = list(TeamMember.objects.filter(team=teams["Oslo SK 1"]).order_by("board_order"))
    assert [m.player.name for m in roster] == ["Berg, Anna", *(f"A, Player {n}" for n in range(1, 5))]
    assert roster[0].player == anna  # matched by FIDE id, not made twice
    assert Player.objects.filter(name="A, Player 1", birth_year=1981).count() == 1  # new to the registry
    assert ClubMembership.objects.filter(club=clubs[0], player=anna).exists()
    oslo.refresh_from_db()
    assert oslo.status == "accepted" and oslo.entry == Entry.objects.get(team=teams["Oslo SK 1"])
    assert list(FeeRecord.objects.filter(registration=oslo).values_list("kind", "amount")) == [("due", 4000)]
    assert [m.subject for m in mailoutbox] == ["Registration for Fjord Teams: accepted"] * 2
    assert "The entry fee is 40.00" in mailoutbox[0].body and "1. Berg, Anna (1500100)" in mailoutbox[0].body

    fees_record(event=event, user=organiser, ids=[oslo.pk], kind=FeeRecord.Kind.PAID)
    rows = list(csv.reader(io.StringIO(registrations_csv(event=event, user=organiser))))
    assert rows[0][-2:] == ["Fee owed", "Players"]
    by_name = {row[1]: row for row in rows[1:]}
    assert by_name["Oslo SK 1"][-2] == "0.00" and by_name["Bergen SK 1"][-2] == "40.00"
    assert by_name["Oslo SK 1"][-1] == (
        "1. Berg, Anna (1500100); 2. A, Player 1; 3. A, Player 2; 4. A, Player 3; 5. A, Player 4"
    )
    assert by_name["Oslo SK 2"][7] == "on the waiting list" and by_name["Oslo SK 2"][0] == ""


def test_a_refused_acceptance_saves_no_team(event, clubs, organiser):
    _open(event, organiser)
    oslo, _ = _team(event, "Oslo SK 1")
    bergen, _ = _team(event, "Bergen SK 1", club="Bergen SK")
    Team.objects.create(event=event, club=clubs[1], name="Bergen SK 1")  # the organiser entered it meanwhile
    with pytest.raises(ServiceError) as refused:
        registrations_decide(event=event, user=organiser, ids=[oslo.pk, bergen.pk], decision="accept")
    assert refused.value.message == "Bergen SK 1: The event has a team of this name already."
    assert list(Team.objects.values_list("name", flat=True)) == ["Bergen SK 1"]
    assert not TeamMember.objects.exists() and not Player.objects.exists()
    assert set(Registration.objects.values_list("status", flat=True)) == {"pending"}


def test_a_refused_team_accepted_later_is_checked_again(event, clubs, organiser):
    _open(event, organiser)
    oslo, _ = _team(event, "Oslo SK 1")
    registrations_decide(event=event, user=organiser, ids=[oslo.pk], decision="refuse")
    _bergen, _ = _team(event, "Bergen SK 1", club="Bergen SK", players=_roster("Oslo SK 1", 4))  # free again
    with pytest.raises(ServiceError) as refused:
        registrations_decide(event=event, user=organiser, ids=[oslo.pk], decision="accept")
    assert refused.value.message == "Oslo SK 1: Oslo SK 1, Player 1 is on the roster of Bergen SK 1 already."
    assert not Team.objects.exists() and Registration.objects.get(pk=oslo.pk).status == "refused"


def test_a_team_that_did_not_check_in_is_withdrawn_from_round_1_once_confirmed(event, clubs, organiser):
    _open(event, organiser)
    oslo, _ = _team(event, "Oslo SK 1")
    bergen, _ = _team(event, "Bergen SK 1", club="Bergen SK", players=_roster("B", 4))
    registrations_decide(event=event, user=organiser, ids=[oslo.pk, bergen.pk], decision="accept")
    checkin_set(event=event, user=organiser, ids=[oslo.pk])
    _open(event, organiser, checkin_closes_at=timezone.now() - timedelta(minutes=1))
    assert [r.name for r in no_shows(event)] == ["Bergen SK 1"]
    no_shows_withdraw(event=event, user=organiser, ids=[bergen.pk])
    assert dict(Entry.objects.filter(event=event).values_list("team__name", "withdrawn_after_round")) == {
        "Oslo SK 1": None,
        "Bergen SK 1": 0,
    }


def _body(registration_id: int, kind: str) -> str:
    """The text of the registration's e-mail (registration_message types its values as object)."""
    body = registration_message(registration_id, kind)["body"]
    assert isinstance(body, str)
    return body


def test_the_captain_is_told_in_their_language(event, clubs, organiser, mailoutbox):
    _open(event, organiser)
    registration, _ = _team(event, "Oslo SK 1", language="he")
    message = registration_message(registration.pk, "registered")
    assert message["subject"] == "הרשמה ל־Fjord Teams: התקבלה"
    body = message["body"]
    assert isinstance(body, str)  # registration_message types its values as object
    assert body.startswith("שלום, קפטן")
    assert "Hello" not in body and "board by board" not in body
    assert mailoutbox[0].subject == message["subject"]


def test_an_accepted_team_is_withdrawn_by_the_organiser_not_by_the_link(event, clubs, organiser):
    _open(event, organiser)
    pending, _ = _team(event, "Oslo SK 1")
    assert "/registration/withdraw/" in _body(pending.pk, "registered")
    registrations_decide(event=event, user=organiser, ids=[pending.pk], decision="accept")
    pending.refresh_from_db()
    assert self_withdraw_problem(pending) == "Your team is entered in the event: ask the organiser to withdraw it."
    assert "/registration/withdraw/" not in _body(pending.pk, "accepted")
    _open(event, organiser, limit=1)
    waiting, _ = _team(event, "Oslo SK 2", players=_roster("C", 4))
    assert waiting.status == "waiting"
    registrations_decide(event=event, user=organiser, ids=[pending.pk], decision="withdraw")
    pending.refresh_from_db()
    # before round 1 and with no match in the schedule, the team is taken off the event with its roster
    assert pending.status == "withdrawn" and pending.entry is None
    assert not Team.objects.exists() and not event.entries.exists()
    assert place_free(event) and first_waiting(event) == Registration.objects.get(pk=waiting.pk)


def test_a_team_already_in_the_schedule_is_withdrawn_and_stays_listed(event, clubs, organiser):
    _open(event, organiser)
    first, _ = _team(event, "Oslo SK 1")
    second, _ = _team(event, "Oslo SK 2", players=_roster("C", 4))
    registrations_decide(event=event, user=organiser, ids=[first.pk, second.pk], decision="accept")
    first.refresh_from_db()
    second.refresh_from_db()
    TeamMatch.objects.create(round=Round.objects.create(event=event, number=1), home=first.entry, away=second.entry)
    with pytest.raises(ServiceError) as refused:
        entry_delete(entry=first.entry, user=organiser)
    assert refused.value.code == "team_in_schedule" and "withdraw the team instead" in refused.value.message
    registrations_decide(event=event, user=organiser, ids=[first.pk], decision="withdraw")
    first.refresh_from_db()
    assert first.status == "withdrawn" and first.entry.withdrawn_after_round == 0
    assert sorted(Team.objects.values_list("name", flat=True)) == ["Oslo SK 1", "Oslo SK 2"]


def test_the_organiser_deletes_a_team_entry_without_matches_through_the_api(event, clubs, organiser):
    _open(event, organiser)
    first, _ = _team(event, "Oslo SK 1")
    second, _ = _team(event, "Oslo SK 2", players=_roster("C", 4))
    registrations_decide(event=event, user=organiser, ids=[first.pk, second.pk], decision="accept")
    api = APIClient()
    api.force_authenticate(organiser)
    assert api.post(f"/api/v1/events/{event.slug}/entries/1/delete/").status_code == 200
    assert list(event.entries.values_list("team__name", "start_number")) == [("Oslo SK 2", 1)]
    assert list(Team.objects.values_list("name", flat=True)) == ["Oslo SK 2"]
    first.refresh_from_db()
    assert first.status == "withdrawn"


# ------------------------------------------------------------------------------------------ the API


def _payload(name, club="Oslo SK", players=None, **more):
    lines = players if players is not None else [line.__dict__ for line in _roster(name, 4)]
    return {"team": name, "club": club, "email": "captain@example.org", "players": lines, **more}


def test_the_api_registers_teams_and_the_organiser_decides(event, clubs, organiser, mailoutbox):
    _open(event, organiser, limit=1)
    api = APIClient()
    made = api.post(API, _payload("Oslo SK 1", language="nb"), format="json")
    retried = api.post(API, _payload("Oslo SK 1", language="nb"), format="json")
    assert (made.status_code, retried.status_code) == (201, 200)
    assert made.json() == {"id": retried.json()["id"], "name": "Oslo SK 1", "status": "pending"}
    full = api.post(API, _payload("Bergen SK 1", club="BSK"), format="json")
    assert full.status_code == 201 and full.json()["status"] == "waiting"
    assert Registration.objects.get(pk=made.json()["id"]).language == "nb" and len(mailoutbox) == 2

    carlsen = [{"fide_id": "1503014", "name": "Carlsen, Magnus"}]
    too_few = api.post(API, _payload("Oslo SK 2", players=carlsen), format="json")
    assert too_few.status_code == 400
    assert too_few.json() == {
        "code": "too_few_players",
        "message": "The event plays on 4 boards: name at least 4 players.",
    }
    roster_of_oslo = [line.__dict__ for line in _roster("Oslo SK 1", 4)]
    twice = api.post(API, _payload("Oslo SK 2", players=roster_of_oslo), format="json")
    assert twice.status_code == 400 and twice.json() == {
        "code": "player_in_another_team",
        "message": "Oslo SK 1, Player 1 is on the roster of Oslo SK 1 already.",
    }
    assert Registration.objects.count() == 2 and len(mailoutbox) == 2

    token = api_token_create(user=organiser, scopes=["organiser"], name="desk")[1]
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    rows = api.get("/api/v1/events/fjord-teams/registrations/").json()
    assert [row["name"] for row in rows] == ["Oslo SK 1", "Bergen SK 1"]
    assert [p["name"] for p in rows[0]["players"]] == [f"Oslo SK 1, Player {n}" for n in range(1, 5)]
    assert rows[0]["players"][0] == {
        "board": 1,
        "name": "Oslo SK 1, Player 1",
        "fide_id": None,
        "federation": "NOR",
        "birth_year": 1981,
    }
    done = api.post(
        "/api/v1/events/fjord-teams/registrations/bulk/",
        {"ids": [made.json()["id"]], "action": "accept"},
        format="json",
    )
    assert done.status_code == 200 and done.json() == {"done": 1}
    assert list(Team.objects.values_list("name", flat=True)) == ["Oslo SK 1"]
    settings = api.patch("/api/v1/events/fjord-teams/registration/", {"reserves": 2}, format="json")
    assert settings.status_code == 200 and settings.json()["reserves"] == 2


def test_each_kind_of_event_has_its_own_endpoint(event, clubs, organiser):
    individual = EventFactory(league=event.league, slug="fjord-open")
    registration_settings_save(event=individual, user=organiser, fields={"is_open": True})
    _open(event, organiser)
    api = APIClient()
    assert (
        api.post("/api/v1/events/fjord-open/team-registrations/", _payload("Oslo SK 1"), format="json").status_code
        == 404
    )
    player = {"name": "A, B", "birth_year": "1990", "email": "a@example.org"}
    assert api.post("/api/v1/events/fjord-teams/registrations/", player, format="json").status_code == 404
