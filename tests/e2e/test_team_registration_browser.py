"""Captains fill a team Swiss by registering their teams (issue #33), in a real browser, with a real SMTP server
process reading the e-mails.

The organiser opens registration on the event's page (limit 5 teams, one reserve, a fee of 30.00). Six captains
register a team each on the event's form: two in the browser (one in Hebrew, right to left), one refused first for a
player already on another team's roster, the rest through the same HTTP form by a plain HTTP client; the sixth goes to
the waiting list. The organiser accepts the five in bulk with the box that chooses everyone waiting for a decision;
the five teams, with their rosters, appear in the event's teams; the waiting team does not. The captains are
e-mailed in their language. The captain's form (refused, in Hebrew) and the organiser's page pass axe-core's WCAG 2.1
AA rules as tests/e2e/test_accessibility.py checks every page. Run with -s to read what typing a team and
accepting the teams cost (clicks, keystrokes)."""

import csv
import io

import pytest
import requests
from selenium.webdriver.support.select import Select

from leagues.models import Event, League, Registration, Team, TeamMember
from tests.e2e.browsing import wait
from tests.e2e.test_accessibility import axe_violations, load_axe_into_every_page
from tests.factories import ClubFactory, EventFactory, LeagueFactory, PlayerFactory, RoleFactory, UserFactory
from tests.smtp import smtp_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LIMIT, BOARDS = 5, 4
TEAMS = [  # (team, club, captain's address, language)
    ("Oslo SK 1", "Oslo SK", "oslo1@example.org", "en"),
    ("Haifa CC 1", "Haifa CC", "haifa@example.org", "he"),
    ("Oslo SK 2", "Oslo SK", "oslo2@example.org", "en"),
    ("Bergen SK 1", "Bergen SK", "bergen1@example.org", "en"),
    ("Bergen SK 2", "Bergen SK", "bergen2@example.org", "en"),
    ("Haifa CC 2", "Haifa CC", "haifa2@example.org", "en"),
]


@pytest.fixture
def smtp(tmp_path, settings, live_server):
    with smtp_server(tmp_path / "mail") as server:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
        settings.SITE_URL = live_server.url
        yield server


class Hands:
    """What a person does in the browser: each click and each key typed."""

    def __init__(self, driver):
        self.driver, self.clicks, self.keys = driver, 0, 0

    def click(self, element):
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        self.clicks += 1

    def type(self, name, text):
        element = self.driver.find_element("name", name)
        self.click(element)
        element.send_keys(text)
        self.keys += len(text)

    def choose(self, element, label):
        Select(element).select_by_visible_text(label)
        self.clicks += 2  # open the list, pick

    def press(self, element):
        old = self.driver.find_element("tag name", "html")
        self.click(element)
        wait(self.driver, lambda d: old.id != d.find_element("tag name", "html").id, timeout=120)


def _roster(team):
    return [(f"{team}, Player {board}", "NOR", str(1970 + board)) for board in range(1, BOARDS + 1)]


def _register_in_browser(browser, base, slug, team, club, email, language, players):
    """A captain opens the event's page, follows its form and types the team. Returns the page's text and hands."""
    hands = Hands(browser)
    browser.get(f"{base}/{language}/events/{slug}/")
    hands.press(browser.find_element("css selector", "p.registration-link a"))
    hands.type("team", team)
    hands.choose(browser.find_element("name", "club"), club)
    hands.type("email", email)
    for board, player in enumerate(players, start=1):
        if isinstance(player, str):  # a FIDE id
            hands.type(f"board-{board}-fide_id", player)
            continue
        name, federation, year = player
        hands.type(f"board-{board}-name", name)
        hands.type(f"board-{board}-federation", federation)
        hands.type(f"board-{board}-birth_year", year)
    hands.press(browser.find_element("css selector", "form.register-team-form button[type=submit]"))
    return browser.find_element("tag name", "main").text, hands


def test_six_captains_register_their_teams_and_the_organiser_accepts_five(browser, live_server, smtp):
    base = live_server.url
    browser.set_script_timeout(60)
    load_axe_into_every_page(browser)
    league = LeagueFactory(name="Fjord League", slug="fjord-league")
    League.objects.filter(pk=league.pk).update(players_without_club=False)
    for name in ("Oslo SK", "Bergen SK", "Haifa CC"):
        league.clubs.add(ClubFactory(name=name))
    event = EventFactory(
        league=league,
        name="Fjord Teams",
        slug="fjord-teams",
        kind=Event.Kind.TEAM,
        boards=BOARDS,
        rounds_count=5,
        status=Event.Status.PUBLISHED,
    )
    organiser = UserFactory(username="organiser")  # password "pw"
    RoleFactory(user=organiser, league=league)
    PlayerFactory(name="Berg, Anna", fide_id=1500100, rating=2250, federation="NOR")  # in the registry already

    # the organiser opens registration: 5 teams, one reserve each, a fee
    browser.get(f"{base}/en/accounts/login/")
    browser.find_element("name", "username").send_keys("organiser")
    browser.find_element("name", "password").send_keys("pw\n")
    wait(browser, lambda d: "/accounts/login/" not in d.current_url)
    browser.get(f"{base}/en/manage/events/{event.slug}/")
    organiser_hands = Hands(browser)
    organiser_hands.press(browser.find_element("link text", "Registration and check-in"))
    organiser_hands.click(browser.find_element("id", "id_is_open"))
    organiser_hands.type("limit", str(LIMIT))
    organiser_hands.type("reserves", "1")
    organiser_hands.type("fee", "30.00")
    organiser_hands.press(browser.find_element("xpath", "//button[normalize-space()='Save']"))
    assert "The registration settings are saved." in browser.find_element("css selector", "ul.messages").text
    browser.delete_all_cookies()  # the captains are not logged in

    # the first captain types a team of five (four boards and the reserve), Anna by her FIDE id
    team, club, email, language = TEAMS[0]
    players = ["1500100", *_roster(team)]
    text, captain = _register_in_browser(browser, base, event.slug, team, club, email, language, players)
    assert "The registration of Oslo SK 1 is received." in text
    typed = len(team) + len(email) + len("1500100") + sum(len("".join(p)) for p in _roster(team))
    # a click per field (team, e-mail, Anna's FIDE id, three per other player), two for the club, one to open the
    # form and one to register
    assert (captain.clicks, captain.keys) == (1 + 1 + 2 + 1 + 1 + 3 * BOARDS + 1, typed)
    print(
        f"\na captain types a team of {BOARDS} boards and a reserve: {captain.clicks} clicks, {captain.keys} keystrokes"
    )

    # the Hebrew captain: the form reads right to left; first refused for Anna, on Oslo SK 1's roster already
    team, club, email, language = TEAMS[1]
    text, _hands = _register_in_browser(
        browser, base, event.slug, team, club, email, language, ["1500100", *_roster(team)[:3]]
    )
    assert browser.find_element("tag name", "html").get_attribute("dir") == "rtl"
    assert "Berg, Anna כבר בסגל של הקבוצה Oslo SK 1." in text
    assert browser.find_element("name", "board-2-name").get_attribute("value") == f"{team}, Player 1"  # kept
    assert axe_violations(browser) == []
    browser.find_element("name", "board-1-fide_id").clear()  # a blank first line: the players below move up
    old = browser.find_element("tag name", "html")
    for name, value in zip(("board-5-name", "board-5-federation", "board-5-birth_year"), _roster(team)[3], strict=True):
        browser.find_element("name", name).send_keys(value)
    browser.find_element("css selector", "form.register-team-form button[type=submit]").click()
    wait(browser, lambda d: old.id != d.find_element("tag name", "html").id)
    assert "ההרשמה של הקבוצה Haifa CC 1 התקבלה." in browser.find_element("tag name", "main").text

    # the other four captains post the same form with a plain HTTP client; the sixth goes to the waiting list
    with requests.Session() as http:
        for team, club, email, language in TEAMS[2:]:
            data = {"team": team, "club": club, "email": email}
            for board, (name, federation, year) in enumerate(_roster(team), start=1):
                data |= {f"board-{board}-name": name, f"board-{board}-federation": federation}
                data[f"board-{board}-birth_year"] = year
            answer = http.post(f"{base}/{language}/events/{event.slug}/register/", data=data, timeout=60)
            assert answer.status_code == 200
        assert "The event is full: Haifa CC 2 is on the waiting list." in answer.text.replace("<bdi>", "").replace(
            "</bdi>", ""
        )
    statuses = dict(Registration.objects.filter(event=event).values_list("name", "status"))
    assert statuses == {team: "pending" for team, *_ in TEAMS[:LIMIT]} | {"Haifa CC 2": "waiting"}

    # the organiser accepts the five with one box
    browser.get(f"{base}/en/accounts/login/")
    wait(browser, lambda d: d.find_elements("name", "username"), timeout=30)
    browser.find_element("name", "username").send_keys("organiser")
    browser.find_element("name", "password").send_keys("pw\n")
    wait(browser, lambda d: "/accounts/login/" not in d.current_url)
    browser.get(f"{base}/en/manage/events/{event.slug}/")
    accepting = Hands(browser)
    accepting.press(browser.find_element("link text", "Registration and check-in"))
    roster = browser.find_element("css selector", f"#registration-{Registration.objects.get(name='Oslo SK 1').pk}")
    assert "Berg, Anna (1500100)" in roster.text and "Oslo SK 1, Player 4" in roster.text
    assert axe_violations(browser, skip=["color-contrast"]) == []
    accepting.click(browser.find_element("id", "choose-pending"))
    accepting.choose(browser.find_element("id", "bulk-action"), "Accept")
    accepting.press(browser.find_element("xpath", "//button[normalize-space()='Apply']"))
    assert "Done: 5 registrations." in browser.find_element("css selector", "ul.messages").text
    # one click to the page, one box, two for the action, one to apply
    assert (accepting.clicks, accepting.keys) == (1 + 1 + 2 + 1, 0)
    print(f"5 registered teams accepted: {accepting.clicks} clicks, {accepting.keys} keystrokes")

    # the five teams, with their rosters, are the event's teams
    browser.get(f"{base}/en/manage/events/{event.slug}/entries/")
    listed = [row.text for row in browser.find_elements("css selector", "table tbody tr")]
    assert sorted(row.split(" ", 1)[1].rsplit(" Roster", 1)[0] for row in listed) == sorted(
        f"{team} {club}" for team, club, *_ in TEAMS[:LIMIT]
    )
    assert not Team.objects.filter(name="Haifa CC 2").exists()
    oslo = TeamMember.objects.filter(team__name="Oslo SK 1").order_by("board_order")
    assert [m.player.name for m in oslo] == ["Berg, Anna", *(name for name, *_ in _roster("Oslo SK 1"))]
    haifa = TeamMember.objects.filter(team__name="Haifa CC 1").order_by("board_order")
    assert [m.player.name for m in haifa] == [name for name, *_ in _roster("Haifa CC 1")]

    # the export lists the teams with their players and the fee each owes
    http = requests.Session()
    for cookie in browser.get_cookies():
        http.cookies.set(cookie["name"], cookie["value"])
    rows = list(
        csv.reader(
            io.StringIO(
                http.get(f"{base}/en/manage/events/{event.slug}/registration/registrations.csv", timeout=60).text
            )
        )
    )
    accepted = {row[1]: row for row in rows[1:] if row[7] == "accepted"}
    assert sorted(accepted) == sorted(team for team, *_ in TEAMS[:LIMIT])
    assert all(row[9] == "30.00" for row in accepted.values())
    assert accepted["Oslo SK 1"][10].startswith("1. Berg, Anna (1500100); 2. Oslo SK 1, Player 1;")

    # the e-mails: six registrations and five acceptances, each captain in their language
    messages = smtp.wait_for(len(TEAMS) + LIMIT, timeout=60)
    assert len(messages) == len(TEAMS) + LIMIT
    haifa_mail = sorted(subject for to, subject, _body in messages if to == "haifa@example.org")
    assert haifa_mail == ["הרשמה ל־Fjord Teams: אושרה", "הרשמה ל־Fjord Teams: התקבלה"]
    waiting = [(subject, body) for to, subject, body in messages if to == "haifa2@example.org"]
    assert [subject for subject, _body in waiting] == ["Registration for Fjord Teams: waiting list"]
    assert waiting[0][1].startswith("Hello, captain of Haifa CC 2,")
    oslo_mail = [body for to, subject, body in messages if to == "oslo1@example.org" and subject.endswith("accepted")]
    assert "The entry fee is 30.00" in oslo_mail[0] and "1. Berg, Anna (1500100)" in oslo_mail[0]
