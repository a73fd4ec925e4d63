"""A team Swiss in a real browser with a real worker: the organiser pairs round 1 (the page follows the
worker by itself), publishes it, the matches' results arrive through the match cards, and round 2 is paired
and published the same way; each published match links to its match card.

Screenshot (ARTIFACTS_DIR, default /tmp/chess-league-artifacts): team-swiss-round-2-en.png.
"""

import os
from pathlib import Path

import pytest

from leagues.models import Event, Result, RoundPairing, TeamMatch
from leagues.services.match_cards import match_card_submit
from tests.e2e.browsing import wait
from tests.factories import EntryFactory, EventFactory, RoleFactory, TeamFactory, TeamMemberFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _pair_and_publish(browser, event, number):
    browser.find_element("xpath", f"//button[normalize-space()='Pair round {number}']").click()
    wait(browser, lambda d: d.find_elements("css selector", "section.pairing-preview table.pairings"), timeout=120)
    pairing = RoundPairing.objects.get(round__event=event, round__number=number)
    assert pairing.status == RoundPairing.Status.READY, pairing.problem
    rows = browser.find_elements("css selector", "section.pairing-preview table.pairings tbody tr")
    assert len(rows) == 4  # eight teams, four matches
    browser.find_element("xpath", f"//button[normalize-space()='Publish round {number}']").click()
    published = wait(browser, lambda d: d.find_elements("css selector", "section.published"), timeout=30)
    cards = published[0].find_elements("css selector", "td.result a")
    matches = list(TeamMatch.objects.filter(round__event=event, round__number=number).order_by("pk"))
    assert [a.get_attribute("href").split("/en")[1] for a in cards] == [f"/manage/matches/{m.pk}/" for m in matches]
    first_boards = [m.games.get(board=1) for m in matches]
    assert [[g.white.start_number, g.black.start_number] for g in first_boards] == pairing.boards
    return pairing, matches


def test_pair_two_rounds_of_a_team_swiss_in_the_browser(browser, live_server, worker):
    event = EventFactory(
        kind=Event.Kind.TEAM, system=Event.System.SWISS, rounds_count=5, boards=4, name="Team Open", slug="team-open"
    )
    for number in range(1, 9):
        team = TeamFactory(event=event, name=f"Rooks {number}")
        for board in range(1, 5):
            TeamMemberFactory(team=team, board_order=board)
        EntryFactory(event=event, start_number=number, player=None, team=team, rating=None)
    organiser = UserFactory(username="organiser")  # password "pw"
    RoleFactory(user=organiser, league=event.league)
    screen = f"/en/manage/events/{event.slug}/pairing/1/"

    browser.get(live_server.url + screen)
    wait(browser, lambda d: "/accounts/login/" in d.current_url, timeout=30)
    browser.find_element("name", "username").send_keys("organiser")
    browser.find_element("name", "password").send_keys("pw\n")
    wait(browser, lambda d: d.current_url.endswith(screen), timeout=30)
    first, matches = _pair_and_publish(browser, event, 1)

    for match in matches:  # the home team wins every board: its match card, confirmed by the organiser
        games = match.games.all()
        results = {g.pk: (Result.WHITE_WINS if g.white_id == match.home_id else Result.BLACK_WINS, 0) for g in games}
        match_card_submit(match_id=match.pk, results=results, user=organiser, expected_version=match.version)

    browser.get(f"{live_server.url}/en/manage/events/{event.slug}/pairing/2/")
    second, _matches = _pair_and_publish(browser, event, 2)
    met = {frozenset(board) for board in first.boards}
    assert not met & {frozenset(board) for board in second.boards}  # no team meets another twice
    folder = Path(os.environ.get("ARTIFACTS_DIR") or "/tmp/chess-league-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(folder / "team-swiss-round-2-en.png"))
