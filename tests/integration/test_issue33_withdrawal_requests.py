"""A registered player withdraws (issue #33), on the page of the link in their e-mails or through the API, by one
rule: before round 1 is published the registration is withdrawn at once; afterwards an accepted player asks (with a
reason if they like) and the organiser confirms, withdrawing them as the organiser withdraws anyone (from the next
round to be paired), or declines; the organisers are e-mailed the request and the player the answer, each in their
language. The API also gives the entry fees' ledger line by line."""

import re
from decimal import Decimal

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from leagues.models import Entry, Event, FeeRecord, Registration
from leagues.services.registration import registration_settings_save, withdraw_token
from leagues.services.round_pairings import pairing_publish, round_pair
from leagues.services.tokens import api_token_create
from tests.factories import EventFactory, UserFactory, organiser_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

LINK = re.compile(r"/registration/withdraw/[^/\s]+/")
WITHDRAW_API = "/api/v1/registrations/withdraw/"


@pytest.fixture
def event():
    event = EventFactory(status=Event.Status.PUBLISHED, name="Fjord Open", slug="fjord-open", rounds_count=5)
    event.league.players_without_club = True
    event.league.save()
    return event


@pytest.fixture
def organiser(event):
    user = organiser_of(event.league)
    user.email = "organiser@example.org"
    user.save()
    return user


def _register(client, event, n, language="en"):
    fields = {"name": f"Player, Number {n}", "birth_year": "1990", "federation": "NOR", "email": f"p{n}@example.org"}
    return client.post(f"/{language}/events/{event.slug}/register/", fields)


def _accepted(client, event, organiser, languages, **fields):
    """Players 1..n registered in these languages and accepted."""
    registration_settings_save(event=event, user=organiser, fields={"is_open": True, **fields})
    for n, language in enumerate(languages, start=1):
        _register(client, event, n, language)
    registrations = list(Registration.objects.order_by("created_at"))
    client.force_login(organiser)
    client.post(
        f"/en/manage/events/{event.slug}/registration/bulk/",
        {"action": "accept", "ids": [r.pk for r in registrations]},
    )
    client.logout()
    return registrations


def _round_one_published(event, organiser):
    pairing_publish(pairing=round_pair(event=event, round_number=1, user=organiser), user=organiser)


def _link(registration):
    return f"/{registration.language}/registration/withdraw/{withdraw_token(registration)}/"


def _state(registration):
    registration = Registration.objects.select_related("entry").get(pk=registration.pk)
    entry = registration.entry
    return (
        registration.status,
        registration.withdrawal_requested_at is not None,
        registration.withdrawal_reason,
        entry.withdrawn_after_round if entry else "no entry",
    )


def test_after_round_one_the_player_asks_and_the_organiser_confirms(client, event, organiser, mailoutbox):
    one, two, three, four = _accepted(client, event, organiser, ["en", "en", "en", "en"])
    _round_one_published(event, organiser)
    mailoutbox.clear()
    link = _link(one)

    # opening the link changes nothing: the page offers to ask the organiser
    page = client.get(link).content.decode()
    assert "Ask the organiser to withdraw me" in page and "Withdraw my registration" not in page
    assert _state(one) == ("accepted", False, "", None) and mailoutbox == []

    asked = client.post(link, {"reason": "Ill with\nflu"})
    assert asked.status_code == 200
    assert "asked on" in asked.content.decode() and "until then you are paired as before" in asked.content.decode()
    assert _state(one) == ("accepted", True, "Ill with flu", None)  # still in the event: nothing is withdrawn yet
    (told,) = mailoutbox
    assert told.to == ["organiser@example.org"]
    assert told.subject == "Fjord Open: Player, Number 1 asks to withdraw"
    assert "(the last round paired is round 1)" in told.body and "Their reason: Ill with flu" in told.body
    assert settings.SITE_URL + f"/en/manage/events/{event.slug}/registration/" in told.body

    # asking again (a double click, the API after the page) is the same request: nothing changes, nothing is sent
    assert client.post(link, {"reason": "another"}).status_code == 200
    assert _state(one) == ("accepted", True, "Ill with flu", None) and len(mailoutbox) == 1
    page = client.get(link).content.decode()
    assert "asked on" in page and "Ask the organiser to withdraw me" not in page

    # the organiser's page lists the request with its reason, and confirms it
    client.force_login(organiser)
    page = client.get(f"/en/manage/events/{event.slug}/registration/").content.decode()
    assert "Requests to withdraw" in page and "Ill with flu" in page and f'id="withdrawal-request-{one.pk}"' in page
    done = client.post(
        f"/en/manage/events/{event.slug}/registration/withdrawal-requests/",
        {"ids": [one.pk], "answer": "confirm"},
        follow=True,
    ).content.decode()
    assert "Withdrawn: Player, Number 1." in done and "Requests to withdraw" not in done
    # round 1 is paired, round 2 is not: the player plays round 1 and is not paired from round 2 on
    assert _state(one)[0] == "withdrawn" and _state(one)[3] == 1
    assert [_state(r)[3] for r in (two, three, four)] == [None, None, None]
    answer = mailoutbox[-1]
    assert answer.to == ["p1@example.org"]
    assert answer.subject == "Fjord Open: your withdrawal is confirmed"
    assert "you are not paired from round 2 on" in answer.body


def test_the_organiser_declines_and_the_player_is_told_in_their_language(client, event, organiser, mailoutbox):
    one, two = _accepted(client, event, organiser, ["en", "he"])
    _round_one_published(event, organiser)
    client.post(_link(two), {"reason": ""})
    assert _state(two) == ("accepted", True, "", None)
    organiser_mail = mailoutbox[-1]
    assert "Their reason" not in organiser_mail.body  # none given
    client.force_login(organiser)
    client.post(
        f"/en/manage/events/{event.slug}/registration/withdrawal-requests/", {"ids": [two.pk], "answer": "decline"}
    )
    assert _state(two) == ("accepted", False, "", None)  # the request is gone, the player stays
    answer = mailoutbox[-1]
    assert answer.to == ["p2@example.org"]
    assert answer.subject == "Fjord Open: אתם נשארים בתחרות"
    assert "/he/registration/withdraw/" in answer.body  # the link still serves, should they ask again

    # answering a registration that asked nothing is refused, all or none
    page = client.post(
        f"/en/manage/events/{event.slug}/registration/withdrawal-requests/",
        {"ids": [one.pk, two.pk], "answer": "confirm"},
        follow=True,
    ).content.decode()
    assert "Player, Number 1 has not asked to withdraw." in page
    assert _state(one) == _state(two) == ("accepted", False, "", None)


def test_a_request_that_cannot_be_made_changes_nothing(client, event, organiser, mailoutbox):
    one, two = _accepted(client, event, organiser, ["en", "en"])
    _round_one_published(event, organiser)
    mailoutbox.clear()
    too_long = client.post(_link(one), {"reason": "x" * 301})
    assert too_long.status_code == 400 and "at most 300 letters" in too_long.content.decode()
    control = client.post(_link(one), {"reason": "ill\x00"})
    assert control.status_code == 400
    assert _state(one) == ("accepted", False, "", None) and mailoutbox == []

    # withdrawn by the organiser already: there is nothing to ask
    client.force_login(organiser)
    client.post(f"/en/manage/events/{event.slug}/registration/bulk/", {"action": "withdraw", "ids": [two.pk]})
    client.logout()
    assert _state(two) == ("withdrawn", False, "", 1)
    page = client.get(_link(two)).content.decode()
    assert "Ask the organiser to withdraw me" not in page and "withdrawn already" in page
    assert client.post(_link(two)).status_code == 400
    assert _state(two) == ("withdrawn", False, "", 1) and mailoutbox == []


def test_the_api_withdraws_by_the_rule_of_the_page(client, event, organiser, mailoutbox):
    one, two = _accepted(client, event, organiser, ["en", "en"])
    anyone = APIClient()

    # before round 1: withdrawn at once, the entry leaves the event, the organisers are told (as by the page)
    mailoutbox.clear()
    withdrawn = anyone.post(WITHDRAW_API, {"token": withdraw_token(one)}, format="json")
    assert withdrawn.status_code == 200
    assert withdrawn.json() == {
        "id": one.pk,
        "name": "Player, Number 1",
        "status": "withdrawn",
        "withdrawn": True,
        "withdrawal_requested_at": None,
    }
    assert _state(one) == ("withdrawn", False, "", "no entry")
    assert list(Entry.objects.filter(event=event).values_list("player__name", flat=True)) == ["Player, Number 2"]
    assert [m.subject for m in mailoutbox] == ["Registration for Fjord Open: Player, Number 1 withdrew"]
    again = anyone.post(WITHDRAW_API, {"token": withdraw_token(one)}, format="json")
    assert again.status_code == 400 and again.json()["code"] == "cannot_withdraw"
    forged = anyone.post(WITHDRAW_API, {"token": withdraw_token(two) + "x"}, format="json")
    assert forged.status_code == 400 and forged.json()["code"] == "bad_link"
    assert _state(two) == ("accepted", False, "", None) and len(mailoutbox) == 1

    # after round 1: a request the organiser confirms, through the API's bulk answer
    _register(client, event, 3)
    three = Registration.objects.get(name="Player, Number 3")
    api = APIClient()
    api.force_authenticate(organiser)
    api.post(f"/api/v1/events/{event.slug}/registrations/bulk/", {"ids": [three.pk], "action": "accept"}, format="json")
    _round_one_published(event, organiser)
    asked = anyone.post(WITHDRAW_API, {"token": withdraw_token(two), "reason": "Exams"}, format="json")
    assert asked.status_code == 200
    assert asked.json()["status"] == "accepted" and asked.json()["withdrawn"] is False
    assert asked.json()["withdrawal_requested_at"]
    assert _state(two) == ("accepted", True, "Exams", None)
    rows = {r["id"]: r for r in api.get(f"/api/v1/events/{event.slug}/registrations/").json()}
    assert (rows[two.pk]["withdrawal_reason"], rows[three.pk]["withdrawal_requested_at"]) == ("Exams", None)
    assert rows[two.pk]["withdrawal_requested_at"] == asked.json()["withdrawal_requested_at"]
    bulk = f"/api/v1/events/{event.slug}/registrations/bulk/"
    refused = api.post(bulk, {"ids": [two.pk, three.pk], "action": "withdrawal_confirm"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "no_request"
    assert _state(two) == ("accepted", True, "Exams", None) and _state(three) == ("accepted", False, "", None)
    assert api.post(bulk, {"ids": [two.pk], "action": "withdrawal_confirm"}, format="json").json() == {"done": 1}
    assert _state(two)[0] == "withdrawn" and _state(two)[3] == 1
    rows = {r["id"]: r for r in api.get(f"/api/v1/events/{event.slug}/registrations/").json()}
    assert rows[two.pk]["withdrawal_requested_at"] is None  # no request waits any more


def test_the_api_gives_the_fee_ledger_line_by_line(client, event, organiser):
    one, two = _accepted(client, event, organiser, ["en", "en"], fee=Decimal("15.00"))
    api = APIClient()
    api.force_authenticate(organiser)
    bulk = f"/api/v1/events/{event.slug}/registrations/bulk/"
    api.post(bulk, {"ids": [one.pk, two.pk], "action": "paid"}, format="json")
    api.post(bulk, {"ids": [two.pk], "action": "refunded", "amount": "5.00"}, format="json")
    lines = api.get(f"/api/v1/events/{event.slug}/registrations/fees/")
    assert lines.status_code == 200
    currency = event.league.currency
    # due on acceptance (both), paid (both), then 5.00 of player 2's fee refunded: oldest first
    assert [
        (line["registration"], line["name"], line["kind"], line["amount"], line["currency"], line["recorded_by"])
        for line in lines.json()
    ] == [
        (one.pk, "Player, Number 1", "due", "15.00", currency, organiser.username),
        (two.pk, "Player, Number 2", "due", "15.00", currency, organiser.username),
        (one.pk, "Player, Number 1", "paid", "15.00", currency, organiser.username),
        (two.pk, "Player, Number 2", "paid", "15.00", currency, organiser.username),
        (two.pk, "Player, Number 2", "refunded", "5.00", currency, organiser.username),
    ]
    assert sorted(line["id"] for line in lines.json()) == sorted(FeeRecord.objects.values_list("pk", flat=True))
    assert all(line["recorded_at"] for line in lines.json())
    # the balances agree with the lines: player 2 owes 15.00 - 15.00 + 5.00
    owed = {r["id"]: r["fee_owed"] for r in api.get(f"/api/v1/events/{event.slug}/registrations/").json()}
    assert owed == {one.pk: "0.00", two.pk: "5.00"}

    # nobody else reads it: anonymous, a read-only token, another league's organiser
    assert APIClient().get(f"/api/v1/events/{event.slug}/registrations/fees/").status_code in (401, 403)
    for user, scopes in ((organiser, ["read"]), (UserFactory(), ["organiser"])):
        other = APIClient()
        other.credentials(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=user, name='t', scopes=scopes)[1]}")
        assert other.get(f"/api/v1/events/{event.slug}/registrations/fees/").status_code == 403


def test_a_player_on_the_waiting_list_still_withdraws_at_once_after_round_one(client, event, organiser, mailoutbox):
    """Only an accepted player's withdrawal touches the pairings: one waiting for a decision or on the waiting list
    has no board, and leaves at once, as before round 1."""
    one, two = _accepted(client, event, organiser, ["en", "en"], limit=2)
    _register(client, event, 3)  # the limit is reached: on the waiting list
    waiting = Registration.objects.get(name="Player, Number 3")
    assert waiting.status == "waiting"
    _round_one_published(event, organiser)
    mailoutbox.clear()
    page = client.get(_link(waiting)).content.decode()
    assert "Withdraw my registration" in page and "Ask the organiser" not in page
    done = client.post(_link(waiting))
    assert done.status_code == 200 and "the registration is withdrawn" in done.content.decode()
    assert _state(waiting) == ("withdrawn", False, "", "no entry")
    assert [m.to for m in mailoutbox] == [["organiser@example.org"]]
    assert _state(one) == _state(two) == ("accepted", False, "", None)
