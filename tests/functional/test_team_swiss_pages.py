"""A team Swiss through the organiser's pairing screen: pair, preview, publish; the round's matches are
match cards, and the public pairings list one row per match with the teams' match points."""

import pytest

from leagues.models import Event, TeamMatch
from tests.factories import EntryFactory, EventFactory, TeamFactory, TeamMemberFactory, organiser_of
from tests.helpers import present

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = EventFactory(kind=Event.Kind.TEAM, system=Event.System.SWISS, rounds_count=5, boards=4)
    for number in range(1, 6):
        team = TeamFactory(event=event, name=f"Knights {number}")
        for board in range(1, 5):
            TeamMemberFactory(team=team, board_order=board)
        EntryFactory(event=event, start_number=number, player=None, team=team, rating=None)
    return event


def test_organiser_pairs_and_publishes_a_team_swiss_round_through_the_screen(
    client, event, django_capture_on_commit_callbacks
):
    client.force_login(organiser_of(event.league))
    assert f"/en/manage/events/{event.slug}/pairing/1/" in client.get("/en/manage/").content.decode()  # pair round 1
    manage = client.get(f"/en/manage/events/{event.slug}/").content.decode()
    assert f"/en/manage/events/{event.slug}/pairing/" in manage
    url = client.get(f"/en/manage/events/{event.slug}/pairing/")["Location"]
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"action": "pair"}).status_code == 302
    html = client.get(url).content.decode()
    assert "Publish round 1" in html and "Knights 1" in html
    assert client.post(url, {"action": "publish"}).status_code == 302
    matches = TeamMatch.objects.filter(round__event=event, round__number=1)
    assert matches.count() == 2  # five teams: two matches and a bye
    public = client.get(f"/en/events/{event.slug}/rounds/1/pairings/").content.decode()
    for match in matches:
        assert match.home.team is not None and match.away.team is not None
        assert match.home.team.name in public and match.away.team.name in public
    card = client.get(f"/en/manage/matches/{present(matches.first()).pk}/")
    assert card.status_code == 200
    api = client.get(f"/api/v1/events/{event.slug}/rounds/1/pairing/").json()
    first = present(matches.order_by("pk").first()).games.get(board=1)
    assert first.white is not None
    assert api["boards"][0]["white"]["start_number"] == first.white.start_number
    assert api["boards"][0]["result"] == ""  # the match is not played yet
