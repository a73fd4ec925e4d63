"""Online registration's follow-ups (issue #33): a player withdraws with the link of their e-mails, an entry removed
elsewhere frees its registration's place, the event's page never offers a registration that has closed, and the
organiser's page shows each registration's entry fee ledger."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import timezone

from leagues.models import Entry, Event, Game, Registration, RegistrationSettings
from leagues.services.registration import registration_settings_save
from leagues.services.round_pairings import pairing_publish, round_pair
from tests.factories import EventFactory, organiser_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

LINK = re.compile(r"/registration/withdraw/[^/\s]+/")


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


def _open(event, organiser, **fields):
    return registration_settings_save(event=event, user=organiser, fields={"is_open": True, **fields})


def _register(client, event, n, language="en"):
    fields = {"name": f"Player, Number {n}", "birth_year": "1990", "federation": "NOR", "email": f"p{n}@example.org"}
    return client.post(f"/{language}/events/{event.slug}/register/", fields)


def _bulk(client, event, action, registrations):
    return client.post(
        f"/en/manage/events/{event.slug}/registration/bulk/",
        {"action": action, "ids": [r.pk for r in registrations]},
        follow=True,
    )


def _link(message):
    (url,) = [word for word in message.body.split() if LINK.search(word)]
    assert url.startswith(settings.SITE_URL + "/")
    return url.removeprefix(settings.SITE_URL)


def _accepted_with_one_waiting(client, event, organiser, mailoutbox):
    _open(event, organiser, limit=1)
    _register(client, event, 1)
    _register(client, event, 2)  # waiting list
    one, two = Registration.objects.order_by("created_at")
    client.force_login(organiser)
    _bulk(client, event, "accept", [one])
    client.logout()
    accepted = next(m for m in mailoutbox if m.to == ["p1@example.org"] and m.subject.endswith("accepted"))
    return one, two, accepted


def test_a_player_withdraws_with_the_link_of_their_email_and_the_organiser_is_told(
    client, event, organiser, mailoutbox
):
    one, _two, accepted = _accepted_with_one_waiting(client, event, organiser, mailoutbox)
    link = _link(accepted)
    assert LINK.search(next(m.body for m in mailoutbox if m.to == ["p2@example.org"]))  # the waiting list's too
    mailoutbox.clear()

    # opening the link (as a mail scanner does) changes nothing: the page asks with a button
    page = client.get(link)
    assert page.status_code == 200
    assert "Withdraw my registration" in page.content.decode() and "Player, Number 1" in page.content.decode()
    assert Registration.objects.get(pk=one.pk).status == "accepted" and Entry.objects.filter(event=event).exists()
    assert mailoutbox == []

    done = client.post(link)
    assert done.status_code == 200 and "the registration is withdrawn" in done.content.decode()
    assert Registration.objects.get(pk=one.pk).status == "withdrawn"
    assert not Entry.objects.filter(event=event).exists()
    (told,) = mailoutbox
    assert told.to == ["organiser@example.org"]
    assert told.subject == "Registration for Fjord Open: Player, Number 1 withdrew"
    assert "the first on the waiting list is Player, Number 2" in told.body

    # the freed place is offered to the first on the waiting list
    client.force_login(organiser)
    page = client.get(f"/en/manage/events/{event.slug}/registration/").content.decode()
    assert "the first on the waiting list is Player, Number 2" in page
    client.logout()

    # the link again: nothing changes, nothing is sent
    again = client.post(link)
    assert again.status_code == 400 and "withdrawn already" in again.content.decode()
    assert len(mailoutbox) == 1


def test_a_withdrawal_link_in_norwegian_and_a_forged_one(client, event, organiser, mailoutbox):
    _open(event, organiser)
    _register(client, event, 1, language="nb")
    (received,) = mailoutbox
    link = _link(received)
    assert link.startswith("/nb/")
    assert "Trekk påmeldingen min" in client.get(link).content.decode()
    forged = client.post(link.replace("/withdraw/", "/withdraw/x"))
    assert forged.status_code == 400
    assert Registration.objects.get().status == "pending"


def test_after_round_one_is_published_the_link_asks_the_organiser_instead(client, event, organiser, mailoutbox):
    _open(event, organiser)
    for n in (1, 2):
        _register(client, event, n)
    client.force_login(organiser)
    _bulk(client, event, "accept", list(Registration.objects.all()))
    client.logout()
    accepted = next(m for m in mailoutbox if m.to == ["p1@example.org"] and m.subject.endswith("accepted"))
    pairing_publish(pairing=round_pair(event=event, round_number=1, user=organiser), user=organiser)
    assert Game.objects.filter(round__event=event).exists()
    link = _link(accepted)
    page = client.get(link).content.decode()
    assert "Ask the organiser to withdraw me" in page and "Withdraw my registration" not in page
    asked = client.post(link)  # a request the organiser confirms (test_issue33_withdrawal_requests.py)
    assert asked.status_code == 200
    assert Registration.objects.filter(status="accepted").count() == 2
    assert Entry.objects.filter(event=event).count() == 2


def test_an_entry_removed_on_the_entries_page_frees_its_registrations_place(client, event, organiser, mailoutbox):
    one, two, _accepted = _accepted_with_one_waiting(client, event, organiser, mailoutbox)
    entry = Entry.objects.get(event=event)
    client.force_login(organiser)
    client.post(f"/en/manage/leagues/{event.league.slug}/remove/entry/{entry.pk}/", {"action": "delete"})
    assert not Entry.objects.filter(event=event).exists()
    registration = Registration.objects.get(pk=one.pk)
    assert (registration.status, registration.entry) == ("withdrawn", None)
    page = client.get(f"/en/manage/events/{event.slug}/registration/").content.decode()
    assert "the first on the waiting list is Player, Number 2" in page
    page = _bulk(client, event, "accept", [two]).content.decode()
    assert Registration.objects.get(pk=two.pk).status == "accepted"
    assert Entry.objects.filter(event=event).count() == 1


def test_the_event_page_offers_the_form_without_promising_a_registration_that_has_closed(client, event, organiser):
    deadline = timezone.now() + timedelta(hours=2)
    _open(event, organiser, deadline=deadline)
    before = client.get(f"/en/events/{event.slug}/").content.decode()
    assert f'href="/en/events/{event.slug}/register/"' in before
    assert "Registration closes on" in before
    # the deadline passes with nothing written: the cached page stays as it was, and is still true
    RegistrationSettings.objects.filter(event=event).update(deadline=timezone.now() - timedelta(minutes=1))
    after = client.get(f"/en/events/{event.slug}/").content.decode()
    assert "Register for this event" not in after
    assert "Registration closes on" in after
    assert "Registration closed on" in client.get(f"/en/events/{event.slug}/register/").content.decode()


def test_the_organisers_page_shows_each_registrations_fee_ledger(client, event, organiser):
    _open(event, organiser, fee=Decimal("15.00"))
    _register(client, event, 1)
    _register(client, event, 2)
    one, two = Registration.objects.order_by("created_at")
    client.force_login(organiser)
    _bulk(client, event, "accept", [one, two])
    _bulk(client, event, "paid", [one, two])
    _bulk(client, event, "refunded", [two])
    page = client.get(f"/en/manage/events/{event.slug}/registration/").content.decode()
    row = page[page.index(f'id="registration-{two.pk}"') :]
    row = row[: row.index("</tr>")]
    currency = event.league.currency
    for kind in ("due", "paid", "refunded"):
        assert f"{kind}: 15.00 {currency}, recorded by {organiser.username} on" in row
    first = page[page.index(f'id="registration-{one.pk}"') :]
    first = first[: first.index("</tr>")]
    assert "refunded:" not in first and f"paid: 15.00 {currency}" in first
