"""Issue 32: an organiser pairs a 16-team, 7-round team Swiss on the site from round 1 to the end in a real
browser with a real worker, and every round equals gacrux's pairing (FIDE's C.04.6 checker, ``-m fideteam``) for
the same state. Each round: the pairing screen's "Pair round N" (the page follows the worker by itself), the
preview, "Publish round N"; then the results come in as the clubs send them: one match's card typed by the home
club's secretary on the card page, the other seven cards sent through the API with the clubs' tokens.

Screenshot (ARTIFACTS_DIR, default /tmp/chess-league-artifacts): team-swiss-round-7-en.png.
"""

import os
import random
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from leagues.models import Event, Result, Role, RoundPairing, TeamMatch
from leagues.services.tokens import api_token_create
from tests.e2e.browsing import focused, wait
from tests.factories import EntryFactory, EventFactory, RoleFactory, TeamFactory, TeamMemberFactory, UserFactory
from tests.helpers import gacrux_team_pairing, present

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEAMS, ROUNDS, BOARDS = 16, 7, 4
CARD_KEYS = "1=0"  # the card page's keys: a home win, a draw, an away win
API_RESULTS = ["1-0", "1/2-1/2", "0-1", "1-0"]


def _log_in(browser, url, username):
    """Open `url` as `username` (password "pw"), leaving whoever was logged in before."""
    browser.delete_all_cookies()
    browser.get(url)
    wait(browser, lambda d: "/accounts/login/" in d.current_url and d.find_elements("name", "username"), timeout=30)
    browser.find_element("name", "username").send_keys(username)
    browser.find_element("name", "password").send_keys("pw\n")
    wait(browser, lambda d: d.current_url.split("?")[0] == url, timeout=30)


def _shown_pairs(rows):
    """(white, black) start numbers of a pairings table's rows, as the page shows them."""
    pairs = []
    for row in rows:
        numbers = [int(cell.text) for cell in row.find_elements("css selector", "td.start-number")]
        pairs.append((numbers[0], numbers[1] if len(numbers) > 1 else 0))
    return pairs


def _pair_and_publish(browser, event, number, folder):
    browser.find_element("xpath", f"//button[normalize-space()='Pair round {number}']").click()
    preview = "section.pairing-preview table.pairings tbody tr"
    rows = wait(browser, lambda d: d.find_elements("css selector", preview), timeout=180)
    pairing = RoundPairing.objects.get(round__event=event, round__number=number)
    assert pairing.status == RoundPairing.Status.READY, pairing.problem
    fide = gacrux_team_pairing(event, number, folder)  # the state the round was paired from (colour drawn in round 1)
    assert _shown_pairs(rows) == fide, f"round {number}: the preview"
    browser.find_element("xpath", f"//button[normalize-space()='Publish round {number}']").click()
    published = wait(browser, lambda d: d.find_elements("css selector", "section.published table.pairings tbody tr"))
    assert _shown_pairs(published) == fide, f"round {number}: the published round"
    matches = list(TeamMatch.objects.filter(round__event=event, round__number=number).order_by("pk"))
    stored = [
        (present(m.games.get(board=1).white).start_number, present(m.games.get(board=1).black).start_number)
        for m in matches
    ]
    assert stored == fide, f"round {number}: the published matches"
    links = [row.find_element("css selector", "td.result a").get_attribute("href") for row in published]
    assert [link.split("/en")[1] for link in links] == [f"/manage/matches/{m.pk}/" for m in matches]
    return matches, links


def _type_card(browser, live_server, link, secretary, rng):
    """The home club's secretary types the card's results, one key a board, and submits it."""
    from selenium.webdriver.common.keys import Keys

    _log_in(browser, link, secretary)
    wait(browser, lambda d: focused(d, "class") == "result")
    for _board in range(BOARDS):  # each key enters a board and moves on (after the last: the submit button)
        browser.switch_to.active_element.send_keys(rng.choice(CARD_KEYS))
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait(browser, lambda d: "Match card saved." in d.find_element("id", "main").text, timeout=30)


def _send_card(client, match, rng):
    games = match.games.order_by("board")
    body = {
        "version": match.version,
        "boards": [{"game": g.pk, "result": rng.choice(API_RESULTS), "version": g.version} for g in games],
    }
    answer = client.post(f"/api/v1/matches/{match.pk}/card/", body, format="json")
    assert answer.status_code == 200, answer.content


def test_an_organiser_pairs_a_sixteen_team_swiss_to_the_end_as_fide_pairs_it(browser, live_server, worker, tmp_path):
    event = EventFactory(
        kind=Event.Kind.TEAM, system=Event.System.SWISS, rounds_count=ROUNDS, boards=BOARDS, name="Team Open",
        slug="team-open",
    )  # fmt: skip
    secretaries, clients = {}, {}
    for number in range(1, TEAMS + 1):
        team = TeamFactory(event=event, name=f"Rooks {number:02d}")
        for board in range(1, BOARDS + 1):
            TeamMemberFactory(team=team, board_order=board)
        entry = EntryFactory(event=event, start_number=number, player=None, team=team, rating=None)
        secretary = UserFactory(username=f"secretary-{number:02d}")  # password "pw"
        RoleFactory(user=secretary, kind=Role.Kind.SECRETARY, league=None, club=team.club)
        secretaries[entry.pk] = secretary.username
        clients[entry.pk] = APIClient()
        token = api_token_create(user=secretary, name="club", scopes=["results"])[1]
        clients[entry.pk].credentials(HTTP_AUTHORIZATION=f"Token {token}")
    organiser = UserFactory(username="organiser")
    RoleFactory(user=organiser, league=event.league)
    rng = random.Random(32)

    for number in range(1, ROUNDS + 1):
        _log_in(browser, f"{live_server.url}/en/manage/events/{event.slug}/pairing/{number}/", "organiser")
        matches, links = _pair_and_publish(browser, event, number, tmp_path)
        if number == ROUNDS:
            folder = Path(os.environ.get("ARTIFACTS_DIR") or "/tmp/chess-league-artifacts")
            folder.mkdir(parents=True, exist_ok=True)
            assert browser.save_screenshot(str(folder / "team-swiss-round-7-en.png"))
            break
        _type_card(browser, live_server, links[0], secretaries[matches[0].home_id], rng)
        for match in matches[1:]:
            _send_card(clients[match.home_id], match, rng)
        entered = [m.games.exclude(result=Result.PENDING).count() for m in matches]
        assert entered == [BOARDS] * len(matches), f"round {number}: every result"
    met = [frozenset((m.home.start_number, m.away.start_number)) for m in TeamMatch.objects.filter(round__event=event)]
    assert len(met) == TEAMS // 2 * ROUNDS and len(set(met)) == len(met)  # no two teams met twice
