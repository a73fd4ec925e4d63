"""A secretary enters a whole round with the keyboard alone: log in, the first result has the focus, type or
arrow to a result, Tab to the next board, Enter to save; the results are stored and the standings follow.

Drives Debian's Chromium through chromedriver (the `browser` fixture of tests/e2e/conftest.py); on CI a
missing browser fails.
"""

import pytest

from leagues.models import Game, Result, Role
from tests.e2e.browsing import focused, wait
from tests.factories import ClubFactory, UserFactory, swiss_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _active(driver):
    return driver.switch_to.active_element


@pytest.fixture
def round_one():
    """Six players of one club, round 1 paired 1–4, 2–5, 3–6; the club's secretary enters it."""
    club = ClubFactory(name="Fjord Chess Club", slug="fjord")
    event, entries, games = swiss_event(players=6, club=club, rounds=5, name="Keyboard Cup", slug="keyboard-cup")
    secretary = UserFactory(username="secretary")  # password "pw"
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=club)
    return event, entries, games


def test_a_whole_round_entered_with_the_keyboard_only(browser, live_server, round_one):
    from selenium.webdriver.common.keys import Keys

    event, entries, games = round_one
    sheet = f"/en/manage/events/{event.slug}/rounds/1/"
    browser.get(live_server.url + sheet)

    # the sheet needs a login; the username field has the focus
    wait(browser, lambda d: "/en/accounts/login/" in d.current_url and focused(d, "name") == "username")
    _active(browser).send_keys("secretary")
    _active(browser).send_keys(Keys.TAB)
    assert _active(browser).get_attribute("name") == "password"
    _active(browser).send_keys("pw", Keys.ENTER)
    # the first board's result has the focus (once the sheet has loaded); each Tab moves to the next board,
    # then to the reason
    wait(browser, lambda d: d.current_url.endswith(sheet) and focused(d, "id") == f"id_result_{games[0].pk}")
    _active(browser).send_keys("1")  # type to choose: "1-0"
    _active(browser).send_keys(Keys.TAB)
    assert _active(browser).get_attribute("id") == f"id_result_{games[1].pk}"
    _active(browser).send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN)  # not played yet → 1-0 → ½-½
    _active(browser).send_keys(Keys.TAB)
    assert _active(browser).get_attribute("id") == f"id_result_{games[2].pk}"
    _active(browser).send_keys("0")  # "0-1"
    _active(browser).send_keys(Keys.TAB)
    assert _active(browser).get_attribute("name") == "reason"
    _active(browser).send_keys(Keys.ENTER)

    message = wait(browser, lambda d: d.find_element("css selector", "ul.messages"))
    assert "Round saved." in message.text
    assert [Game.objects.get(pk=g.pk).result for g in games] == [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    # after saving, the message is announced (an alert) and has the focus
    wait(browser, lambda d: "announce" in focused(d, "class"))
    assert "Round saved." in browser.find_element("css selector", "[role=alert]").text

    # standings by hand: 1 and 6 won (1 point), 2 and 5 drew (½), 3 and 4 lost (0); no tiebreaks set,
    # so equal scores share the place ("1–2") and are listed by start number
    browser.get(f"{live_server.url}/en/events/{event.slug}/")
    rows = browser.find_elements("css selector", "table.standings tbody tr")
    names = [row.find_element("css selector", "th").text.split("\n")[0] for row in rows]
    expected = [entries[n - 1].player.name for n in (1, 6, 2, 5, 3, 4)]
    assert [name.removesuffix(" Fjord Chess Club").strip() for name in names] == expected
    places = [row.find_element("css selector", "td:first-child").text for row in rows]
    assert places == ["1–2", "1–2", "3–4", "3–4", "5–6", "5–6"]
