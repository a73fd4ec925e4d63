"""Online registration (issue #33), through the public form, the organiser's pages and the API: the limit and the
waiting list, the deadline, a repeated registration making one entry, refusals, bad input changing nothing, the
e-mails in the entrant's language, the entry fees' ledger and its CSV, and the check-in before round 1."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.errors import ServiceError
from leagues.models import Entry, Event, FeeRecord, Game, Registration, RegistrationSettings, RoundPairing
from leagues.services.registration import registration_settings_save
from leagues.services.round_pairings import pairing_publish, round_pair
from leagues.services.tokens import api_token_create
from tests.factories import ClubFactory, EventFactory, PlayerFactory, UserFactory, organiser_of
from tests.helpers import present

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


@pytest.fixture
def event():
    event = EventFactory(status=Event.Status.PUBLISHED, name="Fjord Open", slug="fjord-open", rounds_count=5)
    event.league.players_without_club = True
    event.league.save()
    return event


@pytest.fixture
def organiser(event):
    return organiser_of(event.league)


def _open(event, organiser, **fields):
    return registration_settings_save(event=event, user=organiser, fields={"is_open": True, **fields})


def _register(client, event, language="en", **fields):
    return client.post(f"/{language}/events/{event.slug}/register/", fields)


def _person(n, **more):
    return {
        "name": f"Player, Number {n}",
        "birth_year": "1990",
        "federation": "NOR",
        "email": f"p{n}@example.org",
        **more,
    }


def test_after_the_limit_registrations_go_to_the_waiting_list(client, event, organiser, mailoutbox):
    _open(event, organiser, limit=2)
    page = client.get(f"/en/events/{event.slug}/").content.decode()
    assert f"/en/events/{event.slug}/register/" in page  # the event's page offers the form
    assert "2 places left." in client.get(f"/en/events/{event.slug}/register/").content.decode()
    for n in (1, 2):
        assert "your registration is received" in _register(client, event, **_person(n)).content.decode()
    third = _register(client, event, **_person(3)).content.decode()
    assert "you are on the waiting list" in third
    statuses = list(Registration.objects.order_by("created_at").values_list("status", flat=True))
    assert statuses == ["pending", "pending", "waiting"]
    assert [m.subject for m in mailoutbox] == [
        "Registration for Fjord Open: received",
        "Registration for Fjord Open: received",
        "Registration for Fjord Open: waiting list",
    ]
    assert mailoutbox[2].to == ["p3@example.org"]


def test_without_a_waiting_list_a_full_event_refuses(client, event, organiser, mailoutbox):
    _open(event, organiser, limit=1, waiting_list=False)
    _register(client, event, **_person(1))
    answer = _register(client, event, **_person(2))
    assert answer.status_code == 400 and "The event is full." in answer.content.decode()
    assert Registration.objects.count() == 1 and len(mailoutbox) == 1


def test_a_repeated_registration_makes_one_entry_and_one_email(client, event, organiser, mailoutbox):
    _open(event, organiser)
    first = _register(client, event, **_person(1))
    again = _register(client, event, **{**_person(1), "name": "  player,   NUMBER 1 "})  # a retry, typed otherwise
    assert first.status_code == again.status_code == 200
    assert "is registered already" in again.content.decode()
    assert Registration.objects.count() == 1
    assert len(mailoutbox) == 1
    # the same through the API: 201, then 200 with the same registration
    api = APIClient()
    made = api.post(
        f"/api/v1/events/{event.slug}/registrations/",
        {"fide_id": "1503014", "name": "Carlsen, Magnus", "email": "m@example.org"},
        format="json",
    )
    retried = api.post(
        f"/api/v1/events/{event.slug}/registrations/",
        {"fide_id": "1503014", "name": "Carlsen, Magnus", "email": "m@example.org"},
        format="json",
    )
    assert (made.status_code, retried.status_code) == (201, 200)
    assert made.json()["id"] == retried.json()["id"]
    assert Registration.objects.count() == 2 and len(mailoutbox) == 2


def test_a_fide_id_finds_the_player_in_the_registry(client, event, organiser):
    known = PlayerFactory(name="Hansen, Kari", fide_id=1510045, rating=2010, federation="NOR")
    _open(event, organiser)
    _register(client, event, fide_id="1510045", email="kari@example.org")
    registration = Registration.objects.get()
    assert registration.player == known and registration.name == "Hansen, Kari"


def test_after_the_deadline_nobody_registers(client, event, organiser, mailoutbox):
    _open(event, organiser, deadline=timezone.now() - timedelta(minutes=1))
    form = client.get(f"/en/events/{event.slug}/register/").content.decode()
    assert "Registration closed on" in form and 'name="email"' not in form
    answer = _register(client, event, **_person(1))
    assert answer.status_code == 400
    api = APIClient().post(f"/api/v1/events/{event.slug}/registrations/", _person(2), format="json")
    assert api.status_code == 400 and api.json()["code"] == "registration_closed"
    assert not Registration.objects.exists() and mailoutbox == []


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"email": "not-an-address"}, "Enter a valid e-mail address."),
        ({"federation": "XYZ"}, "“XYZ” is not a FIDE federation code."),
        ({"birth_year": "19x0"}, "A birth year is a number such as 1990."),
        ({"birth_year": ""}, "Without a FIDE id, give your birth year too."),
        ({"name": "", "fide_id": ""}, "Give your FIDE id, or your name."),
        ({"fide_id": "12ab"}, "A FIDE id is a number."),
        ({"club": "Nowhere SK"}, "No club of the league is called “Nowhere SK”."),
        ({"name": "Evil\x00, Name"}, "Use letters, digits and punctuation only"),
    ],
)
def test_bad_input_changes_nothing(client, event, organiser, mailoutbox, fields, message):
    _open(event, organiser)
    answer = _register(client, event, **{**_person(1), **fields})
    assert answer.status_code == 400
    assert message in answer.content.decode()
    assert not Registration.objects.exists() and mailoutbox == []


def test_a_closed_or_draft_event_takes_no_registration(client, event, organiser):
    answer = _register(client, event, **_person(1))
    assert answer.status_code == 400 and "Registration for this event is not open." in answer.content.decode()
    draft = EventFactory(status=Event.Status.DRAFT, league=event.league)
    with pytest.raises(ServiceError):
        registration_settings_save(event=draft, user=organiser, fields={"is_open": True})
    assert client.get(f"/en/events/{draft.slug}/register/").status_code == 404
    assert not RegistrationSettings.objects.filter(event=draft, is_open=True).exists()


def _bulk(client, event, action, registrations):
    return client.post(
        f"/en/manage/events/{event.slug}/registration/bulk/",
        {"action": action, "ids": [r.pk for r in registrations]},
        follow=True,
    )


def test_the_organiser_accepts_refuses_and_moves_in_bulk_with_emails_in_the_entrants_language(
    client, event, organiser, mailoutbox
):
    _open(event, organiser, limit=3)
    PlayerFactory(name="Strong, Sara", fide_id=1234567, rating=2300)
    _register(client, event, **_person(1))
    _register(client, event, "nb", fide_id="1234567", email="sara@example.org")
    _register(client, event, "el", **_person(3))
    _register(client, event, **_person(4))  # waiting list
    one, sara, three, four = Registration.objects.order_by("created_at")
    mailoutbox.clear()
    client.force_login(organiser)

    # accepting four of three places is refused: nothing changes
    page = _bulk(client, event, "accept", [one, sara, three, four]).content.decode()
    assert "Only 3 of the 3 places are free" in page
    assert not Entry.objects.filter(event=event).exists() and mailoutbox == []

    _bulk(client, event, "accept", [one, sara])
    _bulk(client, event, "refuse", [three])
    entries = list(Entry.objects.filter(event=event).select_related("player").order_by("start_number"))
    # start numbers follow the initial ranking: the rated player first
    assert [present(e.player).name for e in entries] == ["Strong, Sara", "Player, Number 1"]
    # the accepted player is in the league's registry (League.players; mypy does not see its reverse side)
    assert event.league.players.filter(pk=present(Registration.objects.get(pk=one.pk).player_id)).exists()
    subjects = {m.to[0]: m.subject for m in mailoutbox}
    assert subjects["p1@example.org"] == "Registration for Fjord Open: accepted"
    assert subjects["sara@example.org"] != "Registration for Fjord Open: accepted"  # Norwegian
    assert "Fjord Open" in subjects["sara@example.org"]
    assert subjects["p3@example.org"] != "Registration for Fjord Open: refused"  # Greek
    assert "/nb/events/fjord-open/" in next(m.body for m in mailoutbox if m.to == ["sara@example.org"])

    # a withdrawn accepted player frees the place: the first on the waiting list is offered, then accepted
    _bulk(client, event, "withdraw", [one])
    assert not Entry.objects.filter(event=event, player__name="Player, Number 1").exists()
    page = client.get(f"/en/manage/events/{event.slug}/registration/").content.decode()
    assert "the first on the waiting list is Player, Number 4" in page
    _bulk(client, event, "accept", [four])
    assert Registration.objects.get(pk=four.pk).status == "accepted"
    assert Entry.objects.filter(event=event).count() == 2


def test_only_the_organiser_decides(client, event, organiser):
    _open(event, organiser)
    _register(client, event, **_person(1))
    registration = Registration.objects.get()
    client.force_login(UserFactory())
    assert _bulk(client, event, "accept", [registration]).status_code == 403
    url = f"/api/v1/events/{event.slug}/registrations/bulk/"
    for user, scopes in ((organiser, ["read"]), (UserFactory(), ["organiser"])):  # a read token; not the organiser
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=user, name='t', scopes=scopes)[1]}")
        assert api.post(url, {"ids": [registration.pk], "action": "accept"}, format="json").status_code == 403
        assert api.get(f"/api/v1/events/{event.slug}/registrations/").status_code == 403
    assert Registration.objects.get().status == "pending" and not Entry.objects.exists()


def test_the_api_sets_registration_up_and_decides(event, organiser, mailoutbox):
    api = APIClient()
    api.force_authenticate(organiser)
    settings = api.patch(
        f"/api/v1/events/{event.slug}/registration/", {"is_open": True, "limit": 1, "fee": "15.00"}, format="json"
    )
    assert settings.status_code == 200 and settings.json()["fee"] == "15.00"
    anyone = APIClient()
    first = anyone.post(f"/api/v1/events/{event.slug}/registrations/", _person(1), format="json").json()
    second = anyone.post(f"/api/v1/events/{event.slug}/registrations/", _person(2), format="json").json()
    assert (first["status"], second["status"]) == ("pending", "waiting")
    refused = api.post(
        f"/api/v1/events/{event.slug}/registrations/bulk/",
        {"ids": [first["id"], second["id"]], "action": "accept"},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["code"] == "limit_reached"
    assert not Entry.objects.exists()
    done = api.post(
        f"/api/v1/events/{event.slug}/registrations/bulk/", {"ids": [first["id"]], "action": "accept"}, format="json"
    )
    assert done.json() == {"done": 1}
    rows = api.get(f"/api/v1/events/{event.slug}/registrations/").json()
    assert [(r["name"], r["status"], r["start_number"], r["fee_owed"]) for r in rows] == [
        ("Player, Number 1", "accepted", 1, "15.00"),
        ("Player, Number 2", "waiting", None, "0.00"),
    ]


def test_the_entry_fee_ledger_and_its_csv(client, event, organiser):
    _open(event, organiser, fee=Decimal("15.00"))
    _register(client, event, **_person(1, name='=HYPERLINK("http://x"), Evil'))
    _register(client, event, **_person(2))
    evil, two = Registration.objects.order_by("created_at")
    client.force_login(organiser)
    _bulk(client, event, "accept", [evil, two])
    assert FeeRecord.objects.filter(kind="due").count() == 2
    page = _bulk(client, event, "refunded", [two]).content.decode()
    assert "has not paid what would be refunded" in page
    _bulk(client, event, "paid", [evil, two])
    _bulk(client, event, "refunded", [two])
    ledger = list(
        csv.reader(
            io.StringIO(client.get(f"/en/manage/events/{event.slug}/registration/entry-fees.csv").content.decode())
        )
    )
    assert ledger[0] == ["Date", "Name", "E-mail", "Kind", "Amount", "Currency", "Recorded by"]
    kinds = [(row[1], row[3], row[4], row[6]) for row in ledger[1:]]
    evil_name = '\'=HYPERLINK("http://x"), Evil'  # a spreadsheet shows it as text, never runs it
    assert sorted(kinds) == sorted(
        [
            (evil_name, "due", "15.00", organiser.username),
            ("Player, Number 2", "due", "15.00", organiser.username),
            (evil_name, "paid", "15.00", organiser.username),
            ("Player, Number 2", "paid", "15.00", organiser.username),
            ("Player, Number 2", "refunded", "15.00", organiser.username),
        ]
    )
    entries = list(
        csv.reader(
            io.StringIO(client.get(f"/en/manage/events/{event.slug}/registration/registrations.csv").content.decode())
        )
    )
    owed = {row[1]: row[9] for row in entries[1:]}
    assert owed == {evil_name: "0.00", "Player, Number 2": "15.00"}  # refunded: owes the fee again


def _accepted(client, event, organiser, count):
    for n in range(1, count + 1):
        _register(client, event, **_person(n))
    client.force_login(organiser)
    registrations = list(Registration.objects.order_by("created_at"))
    _bulk(client, event, "accept", registrations)
    return registrations


def test_players_not_checked_in_are_withdrawn_before_round_one_after_one_confirmation(client, event, organiser):
    closes = timezone.now() + timedelta(hours=1)
    _open(event, organiser, checkin_closes_at=closes)
    registrations = _accepted(client, event, organiser, 6)
    _bulk(client, event, "checkin", registrations[:4])
    absent = registrations[4:]

    # before the closing time nothing can be confirmed
    page = client.post(
        f"/en/manage/events/{event.slug}/registration/no-shows/", {"ids": [r.pk for r in absent]}, follow=True
    )
    assert "The check-in is still open." in page.content.decode()

    RegistrationSettings.objects.filter(event=event).update(checkin_closes_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(ServiceError) as refused:
        round_pair(event=event, round_number=1, user=organiser)
    assert "confirm first that the players who did not check in are withdrawn" in refused.value.message
    assert not RoundPairing.objects.exists()
    # the list the organiser confirms must be the list of the moment
    api = APIClient()
    api.force_authenticate(organiser)
    stale = api.post(f"/api/v1/events/{event.slug}/registrations/no-shows/", {"ids": [absent[0].pk]}, format="json")
    assert stale.status_code == 409
    assert not Entry.objects.filter(event=event, withdrawn_after_round__isnull=False).exists()

    page = client.get(f"/en/manage/events/{event.slug}/registration/no-shows/").content.decode()
    assert "Withdraw these 2 players from round 1" in page
    client.post(f"/en/manage/events/{event.slug}/registration/no-shows/", {"ids": [r.pk for r in absent]})
    withdrawn = set(Entry.objects.filter(event=event, withdrawn_after_round=0).values_list("pk", flat=True))
    assert withdrawn == {Registration.objects.get(pk=r.pk).entry_id for r in absent}

    pairing = round_pair(event=event, round_number=1, user=organiser)
    pairing.refresh_from_db()
    pairing_publish(pairing=pairing, user=organiser)
    paired = set()
    for game in Game.objects.filter(round__event=event, round__number=1, black__isnull=False):
        paired |= {game.white_id, game.black_id}
    assert len(paired) == 4 and not paired & withdrawn


def test_one_address_registers_a_family_not_a_crowd(client, event, organiser, mailoutbox):
    _open(event, organiser)
    for n in range(1, 7):
        assert _register(client, event, **_person(n, email="parent@example.org")).status_code == 200
    answer = _register(client, event, **_person(7, email="Parent@example.org"))
    assert answer.status_code == 400
    assert "6 players have registered with this e-mail address already" in answer.content.decode()
    assert Registration.objects.count() == 6 and len(mailoutbox) == 6
    # a retry of one of the six still answers its registration
    assert (
        "is registered already" in _register(client, event, **_person(3, email="parent@example.org")).content.decode()
    )


def test_a_league_of_clubs_asks_for_the_club_and_the_accepted_player_joins_it(client, event, organiser):
    event.league.players_without_club = False
    event.league.save()
    club = ClubFactory(name="Fjord SK", short_name="FSK")
    event.league.clubs.add(club)
    _open(event, organiser)
    refused = _register(client, event, **_person(1))
    assert refused.status_code == 400
    assert "The league enters players of its clubs only: name the club." in refused.content.decode()
    assert not Registration.objects.exists()
    _register(client, event, **_person(1, club="fsk"))
    client.force_login(organiser)
    _bulk(client, event, "accept", Registration.objects.all())
    entry = Entry.objects.select_related("player").get(event=event)
    assert entry.player is not None
    assert list(entry.player.clubs.all()) == [club]


def test_the_form_and_the_organisers_page_read_in_hebrew_right_to_left(client, event, organiser):
    _open(event, organiser, limit=10)
    _register(client, event, "he", **_person(1))
    form = client.get(f"/he/events/{event.slug}/register/").content.decode()
    assert 'dir="rtl"' in form and "הרשמה ל" in form and "נותרו 9 מקומות." in form
    client.force_login(organiser)
    page = client.get(f"/he/manage/events/{event.slug}/registration/").content.decode()
    assert 'dir="rtl"' in page and "הרשמה ורישום הגעה" in page and "Player, Number 1" in page
