"""FIDE's 2026 checklist flags events longer than 30 days: a newer rating list may appear before they end, so the
organiser's event page says so and leads to the ratings of a newer list and to the tie-break ratings choice."""

from datetime import date

import pytest

from tests.factories import EventFactory, RoundFactory, organiser_of

pytestmark = pytest.mark.django_db


def _page(client, event):
    client.force_login(organiser_of(event.league))
    return client.get(f"/en/manage/events/{event.slug}/").content.decode()


def test_a_season_long_event_is_flagged(client):
    event = EventFactory(starts_on=date(2026, 9, 1), rounds_count=3)
    for number, day in enumerate((date(2026, 9, 1), date(2026, 10, 6), date(2026, 11, 15)), start=1):
        RoundFactory(event=event, number=number, date=day)
    page = _page(client, event)
    assert "This event lasts 76 days, more than 30" in page  # 1 September to 15 November, both included
    assert f"/manage/events/{event.slug}/entries/ratings/" in page


def test_a_weekend_event_is_not(client):
    event = EventFactory(starts_on=date(2026, 9, 4), rounds_count=5)
    for number, day in enumerate((date(2026, 9, 4), date(2026, 9, 5), date(2026, 9, 6)), start=1):
        RoundFactory(event=event, number=number, date=day)
    assert 'id="long-event"' not in _page(client, event)
