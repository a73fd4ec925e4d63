"""A knock-out cup's organiser finds its cup page where a division finds its fixtures (issue #32): the event page
and the dashboard link the cup page, never "Fixtures and warnings" (whose schedule a cup refuses), and the old
fixtures address of a cup leads to its cup page. A round-robin division still links its fixtures."""

import pytest

from leagues.models import Event
from tests.factories import EventFactory, organiser_of

pytestmark = pytest.mark.django_db


def test_a_cup_links_its_cup_page_and_not_the_fixtures(client):
    cup = EventFactory(kind=Event.Kind.TEAM, system=Event.System.KNOCKOUT, rounds_count=1, boards=4)
    division = EventFactory(kind=Event.Kind.TEAM, system=Event.System.ROUND_ROBIN, league=cup.league, boards=4)
    client.force_login(organiser_of(cup.league))
    cup_page, fixtures = f"/en/manage/events/{cup.slug}/cup/", f"/en/manage/events/{cup.slug}/fixtures/"
    event_page = client.get(f"/en/manage/events/{cup.slug}/").content.decode()
    assert cup_page in event_page and fixtures not in event_page and "Fixtures and warnings" not in event_page
    dashboard = client.get("/en/manage/").content.decode()
    assert cup_page in dashboard and fixtures not in dashboard
    assert f"/en/manage/events/{division.slug}/fixtures/" in dashboard
    assert client.get(fixtures).url == cup_page
    division_page = client.get(f"/en/manage/events/{division.slug}/").content.decode()
    assert f"/en/manage/events/{division.slug}/fixtures/" in division_page
