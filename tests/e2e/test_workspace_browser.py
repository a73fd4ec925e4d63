"""A whole season in a real browser, with a real SMTP server process reading the emails.

The organiser, a league creator, creates the league on its page, then: clubs, players, a season with a
team division (double round robin, four boards, round 1 at its own venue) and an individual Swiss, teams
and rosters with a reserve, the schedule, players registered, prizes in pounds with the preview, both
events published, the secretaries invited by email. The secretaries choose their passwords from the
invitation, one logs in and enters tonight's match card with the keyboard only (the clicks and keys are
counted), the other disputes it; the organiser settles; round 2 is submitted (an eligibility warning
appears while a player is chosen twice) and confirmed; the organiser finishes the division and the
Swiss, and finds the override form where the clubs find no buttons. Every management page is also
opened in Hebrew (right to left) and at phone width (no sideways scrolling of the page).

The count of "enter tonight's match card" is written to ARTIFACTS_DIR/match-card-effort.txt.
"""

import os
import re
from collections import Counter
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from leagues.models import Event, League, Prize, Role, TeamMatch
from tests.e2e.browsing import focused, wait
from tests.factories import UserFactory
from tests.helpers import search
from tests.smtp import smtp_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CLUBS = {"fjord": "Fjord SK", "bosporus": "Bosporus SK"}
PLAYERS = {
    "fjord": ["Aas, Per", "Bakke, Kari", "Dahl, Ola", "Eide, Liv", "Foss, Arne"],
    "bosporus": ["Yılmaz, Elif", "Kaya, Mehmet", "Demir, Zeynep", "Şahin, Emre", "Çelik, Ayşe"],
}


def artifact(name: str) -> Path:
    folder = Path(os.environ.get("ARTIFACTS_DIR") or "/tmp/chess-league-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


class Page:
    """The few things the flow does on a page: type, choose, press a button, read."""

    def __init__(self, driver, base):
        self.d, self.base = driver, base

    def go(self, path):
        self.d.get(self.base + path)

    def field(self, name):
        return self.d.find_element("name", name)

    def type(self, name, value):
        element = self.field(name)
        element.clear()
        element.send_keys(str(value))

    def date(self, name, value):
        self.d.execute_script("arguments[0].value = arguments[1]", self.field(name), value)

    def choose(self, name, text=None, value=None):
        from selenium.webdriver.support.select import Select

        select = Select(self.field(name))
        if value is not None:
            select.select_by_value(str(value))
        else:
            select.select_by_visible_text(text)

    def tick(self, name, on=True):
        box = self.field(name)
        if box.is_selected() != on:
            box.click()

    def press(self, text):
        old = self.d.find_element("tag name", "html")
        button = self.d.find_element("xpath", f"//button[normalize-space()={text!r}]")
        button.click()
        wait(self.d, lambda d: old.id != d.find_element("tag name", "html").id)

    def text(self):
        return self.d.find_element("tag name", "main").text

    def login(self, username, password, lang="en"):
        self.go(f"/{lang}/accounts/login/")
        self.type("username", username)
        self.type("password", password)
        self.press({"en": "Log in"}.get(lang) or self.d.find_element("css selector", "main button").text)

    def logout(self):
        self.d.find_element("css selector", "form.logout button").click()
        wait(self.d, lambda d: d.find_elements("css selector", '.who a[href*="/accounts/login/"]'))
        self.d.delete_all_cookies()


@pytest.fixture
def smtp(tmp_path, settings, live_server):
    with smtp_server(tmp_path / "mail") as server:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
        settings.SITE_URL = live_server.url
        yield server


def _link(messages, address, url):
    for recipients, _subject, body in messages:
        if address in recipients:
            return search(re.escape(url) + r"(\S+)", body).group(1)
    raise AssertionError(f"no email to {address}")


PASSWORDS = {"sec-fjord@example.org": "fjord-knights-2027", "sec-bosporus@example.org": "bosporus-rooks-2027"}


def test_a_season_from_nothing_to_finished(browser, live_server, smtp):
    p = Page(browser, live_server.url)
    league = league_created_on_its_page(p)
    base = f"/en/manage/leagues/{league.slug}"
    clubs_and_players_entered(p, base)
    today = timezone.localdate().isoformat()
    event = team_division_set_up(p, base, today)
    swiss_set_up_with_prizes(p, base, today)
    invitations = events_published_and_secretaries_invited(p, base, smtp)
    management_pages_right_to_left_at_phone_width(p, base, league, event)
    p.logout()
    match, card_url = match_card_entered_with_the_keyboard(p, live_server, invitations, event)
    p.logout()
    card_disputed_in_turkish(p, live_server, invitations, match)
    dispute_settled(p, base, match)
    second, answerer = round_2_submitted_and_confirmed(p, event)
    season_finished(p, card_url, second, answerer)
    # the emails arrived, each to whom it concerns: 2 invitations, round 1 submitted (to the other club),
    # disputed (organiser and both clubs), settled (both), round 2 submitted (other club), confirmed (both)
    received = Counter(to for to, _subject, _body in smtp.wait_for(11))
    expected = Counter({"org@example.org": 1, "sec-fjord@example.org": 4, "sec-bosporus@example.org": 5})
    expected[answerer] += 1
    assert received == expected
    turkish = [subject for to, subject, _body in smtp.messages() if to == "sec-bosporus@example.org"]
    assert all(not subject.startswith(("Match card", "Dispute", "You are invited")) for subject in turkish)


def league_created_on_its_page(p: Page) -> League:
    """The organiser, a league creator by the site's staff, creates the league on its page and is its organiser."""
    creator = UserFactory(username="org", email="org@example.org")  # a league creator, by the site's staff
    creator.user_permissions.add(Permission.objects.get(codename="add_league", content_type__app_label="leagues"))
    p.login("org", "pw")
    assert p.d.current_url.endswith("/en/manage/")
    p.d.find_element("link text", "Create a league").click()  # the league itself, on a page
    p.type("name", "Browser League")
    p.type("slug", "browser-league")
    p.press("Save")
    league = League.objects.get(slug="browser-league")
    assert Role.objects.filter(user=creator, kind="organiser", league=league).exists()  # its organiser now
    return league


def clubs_and_players_entered(p: Page, base: str) -> None:
    for slug, name in CLUBS.items():  # clubs
        p.go(f"{base}/clubs/")
        p.type("name", name)
        p.type("slug", slug)
        p.press("Save")
    for slug, names in PLAYERS.items():  # players
        for index, name in enumerate(names):
            p.go(f"{base}/players/")
            p.type("name", name)
            p.type("rating", 2100 - 40 * index)
            p.choose("club", CLUBS[slug])
            p.press("Save")
    assert "Çelik, Ayşe" in p.text()
    p.go(f"{base}/seasons/new/")  # a season
    p.type("name", "2027")
    p.type("slug", "2027")
    p.press("Save")


def team_division_set_up(p: Page, base: str, today: str) -> Event:
    """The team division: double round robin, four boards, round 1 at its own venue; teams, rosters, schedule."""
    p.go(f"{base}/events/new/")  # the team division: double round robin, four boards
    p.type("name", "Division One")
    p.type("slug", "division-one")
    p.choose("season", "Browser League 2027")
    p.choose("kind", value="team")
    p.choose("system", value="drr")
    p.type("rounds_count", 2)
    p.type("boards", 4)
    p.date("starts_on", today)
    p.type("venue", "Deichman Grünerløkka")
    p.type("round_1_venue", "Fjord SK club room")  # round 1 elsewhere; round 2 at the event's venue
    p.type("time_control", "90 min + 30 s")
    p.press("Save")
    assert "Deichman Grünerløkka" in p.text()
    for name in CLUBS.values():  # teams and rosters (the fifth player is the reserve)
        p.go("/en/manage/events/division-one/entries/")
        p.choose("club", name)
        p.type("name", f"{name} 1")
        p.press("Register")
    event = Event.objects.get(slug="division-one")
    for team in event.teams.order_by("pk"):
        p.go(f"/en/manage/events/division-one/teams/{team.pk}/roster/")
        for place, name in enumerate(PLAYERS[team.club.slug], start=1):
            p.choose(f"place_{place}", name)
        p.press("Save the roster")
        assert "Reserve 1" in p.text()
    p.go("/en/manage/events/division-one/fixtures/")
    p.press("Draw the round-robin schedule")
    assert TeamMatch.objects.filter(round__event=event).count() == 2, p.text()
    return event


def swiss_set_up_with_prizes(p: Page, base: str, today: str) -> None:
    p.go(f"{base}/events/new/")  # the individual Swiss
    p.type("name", "Spring Open")
    p.type("slug", "spring-open")
    p.choose("kind", value="individual")
    p.choose("system", value="swiss")
    p.type("rounds_count", 3)
    p.date("starts_on", today)
    p.press("Save")
    for name in ["Aas, Per", "Bakke, Kari", "Yılmaz, Elif", "Kaya, Mehmet"]:
        p.go("/en/manage/events/spring-open/entries/")
        p.choose("player", name)
        p.press("Register")
    assert Event.objects.get(slug="spring-open").entries.count() == 4

    p.go("/en/manage/events/spring-open/prizes/")  # prizes in pounds, with the preview
    p.choose("currency", "GBP")
    for index, (place, amount) in enumerate([(1, "100"), (2, "50.50")]):
        p.type(f"prizes-{index}-place", place)
        p.type(f"prizes-{index}-amount", amount)
    p.press("Preview today's winners")
    assert "If the event ended today" in p.text()
    p.press("Save the prizes")
    assert sorted(Prize.objects.filter(fund__event__slug="spring-open").values_list("amount", flat=True)) == [
        5050,
        10000,
    ]


def events_published_and_secretaries_invited(p: Page, base: str, smtp):
    """Both events published; the clubs' secretaries invited by email (one in Turkish): the invitations."""
    for slug in ("division-one", "spring-open"):  # publish
        p.go(f"/en/manage/events/{slug}/")
        p.press("Publish")
        assert Event.objects.get(slug=slug).status == Event.Status.PUBLISHED

    for slug, language in (("fjord", "en"), ("bosporus", "tr")):  # invite the secretaries
        p.go(f"{base}/people/")
        p.type("email", f"sec-{slug}@example.org")
        p.choose("kind", value="secretary")
        p.choose("club", CLUBS[slug])
        p.choose("email_language", value=language)
        p.press("Send the invitation")
    invitations = smtp.wait_for(2)
    assert sorted(to for to, _s, _b in invitations) == ["sec-bosporus@example.org", "sec-fjord@example.org"]
    return invitations


def management_pages_right_to_left_at_phone_width(p: Page, base: str, league: League, event: Event) -> None:
    """Every management page: right to left in Hebrew, and no sideways scrolling at phone width."""
    first_match = TeamMatch.objects.filter(round__event=event).first()
    assert first_match is not None
    pages = [
        f"{base}/",
        f"{base}/clubs/",
        f"{base}/players/",
        f"{base}/people/",
        f"{base}/disputes/",
        "/en/manage/events/division-one/",
        "/en/manage/events/division-one/entries/",
        "/en/manage/events/spring-open/prizes/",
        "/en/manage/events/division-one/fixtures/",
        f"/en/manage/matches/{first_match.pk}/",
        "/en/manage/",
        "/en/manage/leagues/new/",
        f"/en/manage/leagues/{league.slug}/events/division-one/edit/",
    ]
    browser = p.d
    browser.set_window_size(360, 740)
    for path in pages:
        p.go(path.replace("/en/", "/he/", 1))
        assert browser.execute_script("return getComputedStyle(document.body).direction") == "rtl", path
        wide = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0, f"{path} scrolls sideways by {wide}px at phone width"
    browser.set_window_size(1280, 900)


def invitation_accepted(p: Page, live_server, invitations, address: str) -> None:
    """The secretary chooses a password from the invitation's link."""
    p.go(_link(invitations, address, live_server.url))
    wait(p.d, lambda d: d.find_elements("name", "new_password1"))
    p.type("new_password1", PASSWORDS[address])
    p.type("new_password2", PASSWORDS[address])
    p.d.find_element("css selector", "main button[type=submit]").click()
    wait(p.d, lambda d: "new_password1" not in d.page_source)


def match_card_entered_with_the_keyboard(p: Page, live_server, invitations, event: Event):
    """Tonight's match card, with the keyboard only, from the secretary's dashboard; the keystrokes are written to
    the artifacts. The card and its address."""
    from selenium.webdriver.common.keys import Keys

    browser = p.d
    invitation_accepted(p, live_server, invitations, "sec-fjord@example.org")
    p.go("/en/accounts/login/")  # the log-in, typed: the name has the focus, Tab, the password, Enter
    login_keys = 0
    for text in ("sec-fjord@example.org", Keys.TAB, "fjord-knights-2027", Keys.ENTER):
        browser.switch_to.active_element.send_keys(text)
        login_keys += 1 if text in (Keys.TAB, Keys.ENTER) else len(text)
    wait(browser, lambda d: d.current_url.endswith("/en/manage/"))
    match = TeamMatch.objects.get(round__event=event, round__number=1)
    card_url = f"/en/manage/matches/{match.pk}/"
    assert card_url in browser.page_source
    keys = 0
    body = browser.find_element("tag name", "body")
    body.send_keys(Keys.TAB)
    keys += 1
    while browser.switch_to.active_element.get_attribute("href") != live_server.url + card_url:
        browser.switch_to.active_element.send_keys(Keys.TAB)
        keys += 1
        assert keys < 60
    tabs_to_card = keys
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    keys += 1
    # board 1 has the focus once the card has loaded
    wait(browser, lambda d: d.current_url.endswith(card_url) and focused(d, "class") == "result")
    assert "Fjord SK club room" in p.text()  # the round's own venue
    # home side's view: 1 (home wins), = (draw), 5 (draw), 0 (away wins); each key moves to the next board
    for key in ("1", "=", "5", "0"):
        browser.switch_to.active_element.send_keys(key)
        keys += 1
    assert browser.find_element("id", "match-score").text == "2 – 2"
    assert browser.switch_to.active_element.tag_name == "button"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    keys += 1
    wait(browser, lambda d: "Match card saved." in d.page_source)
    match.refresh_from_db()
    assert match.status == TeamMatch.Status.SUBMITTED
    assert "Confirm the card" not in p.text()
    results = dict(match.games.values_list("board", "result"))
    home_win = "1-0" if match.games.get(board=1).white_id == match.home_id else "0-1"
    assert results[1] == home_win and results[2] == results[3] == "1/2-1/2"
    artifact("match-card-effort.txt").write_text(
        f"enter tonight's match card (4 boards, line-ups from the roster), keyboard only, from the log-in page:\n"
        f"log-in: {login_keys} keystrokes (name and password typed, 1 Tab, 1 Enter);\n"
        f"card: {keys} keystrokes ({tabs_to_card} Tab to reach the card link, 1 Enter, 4 result keys, 1 Enter),"
        f" 0 clicks;\n"
        f"with the mouse: 1 click on the card link, 4 result keys, 1 Enter (or a click on Submit).\n"
    )
    return match, card_url


def card_disputed_in_turkish(p: Page, live_server, invitations, match: TeamMatch) -> None:
    """The other club disputes the card (in Turkish)."""
    browser = p.d
    invitation_accepted(p, live_server, invitations, "sec-bosporus@example.org")
    p.go("/tr/accounts/login/")
    p.type("username", "sec-bosporus@example.org")
    p.type("password", "bosporus-rooks-2027")
    browser.find_element("css selector", "main button[type=submit]").click()
    wait(browser, lambda d: d.current_url.endswith("/tr/manage/"))
    browser.find_element("css selector", f'a[href="/tr/manage/matches/{match.pk}/"]').click()
    p.type("reason", "Board 2 was a win for us.")
    browser.find_element("css selector", "form[action$='/dispute/'] button").click()
    wait(browser, lambda d: TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.DISPUTED)
    p.logout()


def dispute_settled(p: Page, base: str, match: TeamMatch) -> None:
    """The organiser settles the dispute: the card stands, confirmed."""
    p.login("org", "pw")
    p.go(f"{base}/disputes/")
    assert "Board 2 was a win for us." in p.text()
    p.d.find_element("css selector", f'a[href="/en/manage/matches/{match.pk}/settle/"]').click()
    p.type("decision", "The scoresheets show a draw on board 2; the card stands.")
    p.press("Settle and confirm the card")
    match.refresh_from_db()
    assert match.status == TeamMatch.Status.CONFIRMED and match.decision.startswith("The scoresheets")
    p.logout()


def round_2_submitted_and_confirmed(p: Page, event: Event):
    """Round 2: submitted by one club (an eligibility warning while a player is chosen twice), confirmed by the
    other. The match, and the address of the secretary who confirmed it."""
    from selenium.webdriver.common.keys import Keys

    browser = p.d
    second = TeamMatch.objects.get(round__event=event, round__number=2)
    assert second.home.team is not None
    submitter = "sec-fjord@example.org" if second.home.team.club.slug == "fjord" else "sec-bosporus@example.org"
    answerer = "sec-bosporus@example.org" if submitter.startswith("sec-fjord") else "sec-fjord@example.org"
    p.login(submitter, PASSWORDS[submitter])
    p.go(f"/en/manage/matches/{second.pk}/")
    # choosing board 1's player on board 2 too: the warning appears at once, without submitting
    boards = {g.board: g for g in second.games.all()}
    side = "home" if second.home.team.club.slug == submitter[4:].split("@")[0] else "away"
    warnings = browser.find_element("id", "card-warnings")
    assert not warnings.is_displayed()
    chosen = p.field(f"{side}_{boards[1].pk}").get_attribute("value")
    before = p.field(f"{side}_{boards[2].pk}").get_attribute("value")
    p.choose(f"{side}_{boards[2].pk}", value=chosen)
    wait(browser, lambda d: "is on this card twice" in d.find_element("id", "card-warnings").text)
    assert "Board 2:" in warnings.text
    p.choose(f"{side}_{boards[2].pk}", value=before)
    wait(browser, lambda d: not d.find_element("id", "card-warnings").is_displayed())
    assert TeamMatch.objects.get(pk=second.pk).status == TeamMatch.Status.SCHEDULED  # nothing was sent
    p.go(f"/en/manage/matches/{second.pk}/")  # the focus on board 1's result again
    for key in ("1", "1", "0", "="):
        browser.switch_to.active_element.send_keys(key)
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait(browser, lambda d: "Match card saved." in d.page_source)
    p.logout()
    p.login(answerer, PASSWORDS[answerer])
    p.go(f"/en/manage/matches/{second.pk}/")
    p.press("Confirm the card")
    assert TeamMatch.objects.get(pk=second.pk).status == TeamMatch.Status.CONFIRMED
    p.logout()
    return second, answerer


def season_finished(p: Page, card_url: str, second: TeamMatch, answerer: str) -> None:
    """The organiser finishes the division (frozen) and the Swiss (its prizes final), and finds the override form
    where the clubs find no buttons."""
    browser = p.d
    p.login("org", "pw")
    p.go("/en/manage/events/division-one/")
    if Event.objects.get(slug="division-one").status == Event.Status.PUBLISHED:
        p.press("Start")  # results are in: the event is already running
    p.press("Finish and freeze")
    assert Event.objects.get(slug="division-one").status == Event.Status.FINISHED
    p.go("/en/manage/events/spring-open/")  # and the Swiss: started, finished, its prizes final
    p.press("Start")
    p.press("Finish and freeze")
    assert Event.objects.get(slug="spring-open").status == Event.Status.FINISHED
    p.go("/en/manage/events/spring-open/prizes/")
    assert browser.find_element("id", "finished-notice").is_displayed() and p.field("reason").is_displayed()
    p.go(card_url)  # frozen: the organiser alone may still correct it, with a reason shown publicly
    assert browser.find_element("id", "finished-notice").is_displayed()
    assert p.field("reason").is_displayed()
    p.logout()
    p.login(answerer, PASSWORDS[answerer])
    p.go(f"/en/manage/matches/{second.pk}/")  # the clubs: the card's buttons are gone
    assert not browser.find_elements("css selector", "main form button, select.result, #finished-notice")
    assert "status: confirmed" in p.text().lower()
    p.logout()
