"""Issue 31, FIDE's 2026 checklist, "Entries and byes", on the organiser's pairing screen: the half-point byes'
limits are warnings confirmed on the form, a full-point bye is entered with a warning, a player is marked not
eligible for the pairing-allocated bye, and the board order within a score group is a setting."""

import pytest

from leagues.models import Entry, Game, PairingSettings, Result, RoundPairing
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = EventFactory(rounds_count=3, status="published")
    for n in range(1, 6):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(name=f"Player{n}, Test"), rating=2000 - n)
    return event


def _settings(**changes):
    return {
        "action": "settings",
        "pab_points": "1",
        "half_byes_allowed": "2",
        "half_byes_not_last_rounds": "0",
        "board_order": "score",
        "initial_colour": "",
        **changes,
    }


def test_the_byes_limits_are_warnings_confirmed_on_the_pairing_screen(client, event):
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/pairing/1/"
    assert client.post(url, _settings(half_byes_allowed="0", board_order="tpn")).status_code == 302
    settings = PairingSettings.objects.get(event=event)
    assert (settings.half_byes_allowed, settings.board_order) == (0, "tpn")
    page = client.get(url).content.decode()
    assert "Board order within a score group" in page and "No half-point byes in the last rounds" in page
    two = Entry.objects.get(event=event, start_number=2)
    refused = client.post(url, {"action": "bye", "bye-entry": two.pk, "bye-kind": "half"})
    assert refused.status_code == 400
    assert "the event allows 0" in refused.content.decode() and not Game.objects.filter(round__event=event).exists()
    confirmed = client.post(url, {"action": "bye", "bye-entry": two.pk, "bye-kind": "half", "bye-confirm": "on"})
    assert confirmed.status_code == 302
    assert "the event allows 0" in client.get(url).content.decode()  # the warning, after the bye is entered
    three = Entry.objects.get(event=event, start_number=3)
    assert client.post(url, {"action": "bye", "bye-entry": three.pk, "bye-kind": "full"}).status_code == 302
    assert "deprecated practice" in client.get(url).content.decode()
    assert set(Game.objects.filter(round__event=event).values_list("result", flat=True)) == {
        Result.HALF_POINT_BYE,
        Result.FULL_POINT_BYE,
    }


def test_a_player_is_marked_not_eligible_for_the_bye_on_the_pairing_screen(
    client, event, django_capture_on_commit_callbacks
):
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/pairing/1/"
    five = Entry.objects.get(event=event, start_number=5)
    answer = client.post(url, {"action": "eligibility", "elig-entry": five.pk, "elig-eligible": "no"})
    assert answer.status_code == 302
    five.refresh_from_db()
    assert five.bye_ineligible
    assert "not eligible for the pairing-allocated bye" in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"action": "pair"}).status_code == 302
    assert RoundPairing.objects.get(round__event=event).pab == 5  # the engine's choice, which gacrux cannot avoid
    assert "who is not eligible for it: swap the bye by hand" in client.get(url).content.decode()
    refused = client.post(url, {"action": "publish"})
    assert refused.status_code == 400 and not Game.objects.filter(round__event=event).exists()
    client.post(url, {"action": "eligibility", "elig-entry": five.pk, "elig-eligible": "yes"})
    five.refresh_from_db()
    assert not five.bye_ineligible
    assert RoundPairing.objects.get(round__event=event).status == RoundPairing.Status.FAILED  # to pair again


def test_a_player_marked_not_eligible_for_a_half_point_bye_on_the_entries_list_is_refused_one(client, event):
    client.force_login(organiser_of(event.league))
    two = Entry.objects.get(event=event, start_number=2)
    entries = f"/en/manage/events/{event.slug}/entries/"
    marked = client.post(entries, {"action": "half_bye", "entry": two.pk, "eligible": "no"}, follow=True)
    assert "Player2, Test is not eligible for a half-point bye." in marked.content.decode()
    row = next(r for r in client.get(entries).content.decode().split("<tr>") if "Player2, Test" in r)
    assert "not eligible for a half-point bye" in row and "Make Player2, Test eligible" in row
    url = f"/en/manage/events/{event.slug}/pairing/1/"
    refused = client.post(url, {"action": "bye", "bye-entry": two.pk, "bye-kind": "half", "bye-confirm": "on"})
    assert refused.status_code == 400
    assert "Player2, Test is not eligible for a half-point bye in this event" in refused.content.decode()
    assert not Game.objects.filter(round__event=event).exists()
    greek = client.post(url.replace("/en/", "/el/"), {"action": "bye", "bye-entry": two.pk, "bye-kind": "half"})
    assert greek.status_code == 400 and "ρεπό μισού βαθμού" in greek.content.decode()
    client.post(entries, {"action": "half_bye", "entry": two.pk, "eligible": "yes"})
    assert client.post(url, {"action": "bye", "bye-entry": two.pk, "bye-kind": "half"}).status_code == 302
    assert Game.objects.get(round__event=event).result == Result.HALF_POINT_BYE
