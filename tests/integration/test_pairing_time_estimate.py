"""Issue #37: the organiser's pairing screen says how long the pairing should take and its time limit,
which grows with the field (a big open is not stopped for time)."""

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.manage.pairings import expected_time
from leagues.models import Event
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of

pytestmark = pytest.mark.django_db


def _screen(client, system, language):
    event = EventFactory(rounds_count=5, system=system)
    for n in range(1, 7):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2400 - 10 * n)
    client.force_login(organiser_of(event.league))
    with translation.override(language):
        return client.get(reverse("manage:pairing", args=[event.slug, 1])).content.decode()


def test_the_pairing_screen_says_how_long_a_swiss_round_should_take(client):
    page = _screen(client, Event.System.SWISS, "en")
    assert "Pairing this round should take a few seconds; its time limit is 5 minutes." in page
    assert "מגבלת הזמן היא 5 דקות" in _screen(client, Event.System.SWISS, "he")
    assert "το χρονικό όριο είναι 5 λεπτά" in _screen(client, Event.System.SWISS, "el")


def test_a_round_robin_has_no_estimate(client):
    assert "its time limit" not in _screen(client, Event.System.ROUND_ROBIN, "en")


def test_a_big_open_expects_longer_and_is_given_longer():
    with translation.override("en"):
        assert expected_time(2000) == "Pairing this round should take about 35 seconds; its time limit is 16 minutes."
        assert expected_time(3000) == "Pairing this round should take about 1 minute; its time limit is 36 minutes."
    with translation.override("nb"):
        assert (
            expected_time(2000)
            == "Paringen av denne runden ventes å ta omtrent 35 sekunder; tidsgrensen er 16 minutter."
        )
