"""Issue #33: what entering 30 players costs the organiser, by hand and from a pasted list, counted in a real
browser: every click and every key this test presses is one the organiser would.

By hand (the registry's form, then the event's registration form) the player's name, FIDE id, federation, title,
rating, birth year and sex are typed, each field clicked first, Save clicked, then each player chosen in the
registration form by the shortest part of the name that picks them, Register clicked. From a list the same
30 players are copied from a spreadsheet (Ctrl+A, Ctrl+C), pasted (Ctrl+V), previewed and confirmed.

Run with -s to read the counts (`python -m pytest tests/e2e/test_bulk_entry_effort.py -s`)."""

import pytest

from leagues.models import Entry, Role
from tests.e2e.browsing import wait
from tests.factories import EventFactory, LeagueFactory, UserFactory
from tests.helpers import present

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIRST = ["Ola", "Kari", "Per", "Liv", "Nils", "Ingrid", "Lars", "Silje", "Jon", "Marit"]
LAST = ["Berg", "Dahl", "Eide"]
TITLES = {3: ("FM", "F"), 7: ("WFM", "Woman F"), 11: ("CM", "C")}  # title, what selects it in the form's list


def _players():
    players = []
    for n in range(30):
        title, keys = TITLES.get(n, ("", ""))
        players.append(
            {
                "name": f"{LAST[n % 3]}, {FIRST[n % 10]}{'' if n < 10 else ' ' + 'AB'[n // 10 - 1]}",
                "fide_id": str(1520000 + n * 7),
                "federation": "NOR",
                "title": title,
                "title_keys": keys,
                "rating": str(1500 + n * 17),
                "birth_year": str(1960 + n),
                "sex": "m" if n % 2 == 0 else "f",  # the form's list: "male", "female"
            }
        )
    return players


class Effort:
    """The organiser's hands: each click and key goes through here and is counted."""

    def __init__(self, driver):
        self.driver, self.clicks, self.keys = driver, 0, 0

    def click(self, element):
        element.click()
        self.clicks += 1

    def type(self, text):
        self.driver.switch_to.active_element.send_keys(text)
        self.keys += len(text)

    def fill(self, name, text):
        """Click the field, type."""
        self.driver.find_element("name", name).send_keys(text)
        self.clicks += 1
        self.keys += len(text)

    def tab(self, times=1):
        from selenium.webdriver.common.keys import Keys

        for _ in range(times):
            self.driver.switch_to.active_element.send_keys(Keys.TAB)
        self.keys += times

    def link(self, text):
        self.click(self.driver.find_element("link text", text))


def _log_in(browser, live_server):
    browser.get(f"{live_server.url}/en/accounts/login/")
    browser.find_element("name", "username").send_keys("organiser")
    browser.find_element("name", "password").send_keys("pw\n")
    wait(browser, lambda d: "/accounts/login/" not in d.current_url)


@pytest.fixture
def two_opens():
    organiser = UserFactory(username="organiser")  # password "pw"
    events = []
    for name in ("By Hand", "From A List"):
        league = LeagueFactory(name=f"{name} League")
        Role.objects.create(user=organiser, kind=Role.Kind.ORGANISER, league=league)
        events.append(EventFactory(league=league, name=f"{name} Open", status="draft"))
    return events


def _by_hand(browser, live_server, event, players) -> Effort:
    hands = Effort(browser)
    browser.get(f"{live_server.url}/en/manage/leagues/{event.league.slug}/")
    hands.link("Players")
    for index, player in enumerate(players):
        for field in ("name", "fide_id", "federation", "title", "rating", "birth_year", "sex"):
            if player.get(f"{field}_keys", player[field]):
                hands.fill(field, player.get(f"{field}_keys", player[field]))
        hands.click(browser.find_element("css selector", "form.stack button[type=submit]"))
        wait(browser, lambda d, n=index + 1: len(d.find_elements("css selector", "table tbody tr")) == n)
        wait(browser, lambda d: d.find_elements("css selector", "[role=alert] ul.messages"))  # announced, focused
    hands.link(event.league.name)
    hands.link(event.name)
    hands.link("Players")
    for index, player in enumerate(players):
        left = [p["name"] for p in players[index:]]
        prefix = next(player["name"][:n] for n in range(1, len(player["name"]) + 1) if _picks(player["name"][:n], left))
        hands.click(browser.find_element("name", "player"))
        hands.type(prefix)
        hands.click(browser.find_element("xpath", "//button[normalize-space()='Register']"))
        wait(browser, lambda d, n=index + 1: d.page_source.count("entry-rating") >= n)
        wait(browser, lambda d: d.find_elements("css selector", "[role=alert] ul.messages"))
    return hands


def _picks(prefix, names):
    return (
        sorted(n for n in names if n.startswith(prefix))[:1] == [names[0]]
        and sum(1 for n in names if n.startswith(prefix)) == 1
    )


def _from_a_list(browser, live_server, event, players) -> Effort:
    hands = Effort(browser)
    browser.get(f"{live_server.url}/en/manage/leagues/{event.league.slug}/")
    hands.link(event.name)
    hands.link("Players")
    hands.link("Enter players from a list")
    columns = ["name", "fide_id", "rating", "federation", "birth_year", "sex", "title"]
    lines = ["Name\tFIDE id\tRating\tFederation\tBirth year\tSex\tTitle"]
    lines += ["\t".join(p[c] if c != "sex" else p[c].upper() for c in columns) for p in players]
    hands.keys += 4  # in the spreadsheet: Ctrl+A, Ctrl+C
    hands.click(browser.find_element("name", "players"))
    browser.execute_script("arguments[0].value = arguments[1];", browser.switch_to.active_element, "\n".join(lines))
    hands.keys += 2  # Ctrl+V
    hands.click(browser.find_element("xpath", "//button[normalize-space()='Preview']"))
    confirm = wait(browser, lambda d: d.find_element("xpath", "//button[normalize-space()='Enter 30 players']"))
    hands.click(confirm)
    wait(browser, lambda d: "30 players entered" in d.page_source)
    return hands


def test_thirty_players_by_hand_and_from_a_list(browser, live_server, two_opens):
    players = _players()
    _log_in(browser, live_server)

    by_hand = _by_hand(browser, live_server, two_opens[0], players)
    from_list = _from_a_list(browser, live_server, two_opens[1], players)

    print(f"\n30 players by hand: {by_hand.clicks} clicks, {by_hand.keys} keystrokes")
    print(f"30 players from a pasted list: {from_list.clicks} clicks, {from_list.keys} keystrokes")
    for event in two_opens:
        entered = [present(e.player) for e in Entry.objects.filter(event=event).order_by("start_number")]
        assert [(player.name, player.fide_id, player.title, player.sex) for player in entered] == [
            (p["name"], int(p["fide_id"]), p["title"], "m" if p["sex"] == "m" else "w")
            for p in sorted(players, key=lambda p: -int(p["rating"]))
        ]
    assert from_list.clicks * 10 < by_hand.clicks
    assert from_list.keys * 50 < by_hand.keys
