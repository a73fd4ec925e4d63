"""Numbers the browser computes are right in every language: the match card's running score after a draw, and the
standings sorted by points. Greek, Turkish and Norwegian write "2,5": a script that read the page's text took it
for 2 (issue #30).

Drives Debian's Chromium through chromedriver (the `browser` fixture of tests/e2e/conftest.py); on CI a
missing browser fails.
"""

from decimal import Decimal

import pytest

from tests.e2e.browsing import focused, wait
from tests.helpers import played_swiss, team_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "el", "tr", "he", "nb")
#: 1 + 1 + ½ + 0 against 0 + 0 + ½ + 1, as each language writes numbers (Django's formats, as the server writes them)
TWO_AND_A_HALF = {
    "en": "2.5 – 1.5",
    "el": "2,5 – 1,5",
    "tr": "2,5 – 1,5",
    "he": "2.5 – 1.5",
    "nb": "2,5 – 1,5",
}


def _log_in(browser, base, username):
    from selenium.webdriver.common.keys import Keys

    browser.get(f"{base}/en/accounts/login/")
    wait(browser, lambda d: focused(d, "name") == "username")
    browser.switch_to.active_element.send_keys(username, Keys.TAB, "pw", Keys.ENTER)
    wait(browser, lambda d: "/accounts/login/" not in d.current_url)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_draw_counts_half_a_point_in_the_match_score(browser, live_server, lang):
    _event, match, _games, (home_secretary, _away) = team_match(boards=4)
    home_secretary.username = "home-secretary"
    home_secretary.save()
    _log_in(browser, live_server.url, "home-secretary")
    browser.get(f"{live_server.url}/{lang}/manage/matches/{match.pk}/")
    wait(browser, lambda d: focused(d, "class") == "result")  # board 1's result has the focus
    for key in ("1", "1", "=", "0"):  # home wins, home wins, a draw, away wins; each key moves on
        browser.switch_to.active_element.send_keys(key)
    assert browser.find_element("id", "match-score").text == TWO_AND_A_HALF[lang]

    # saved, the card shows the same score, now written by the server
    browser.switch_to.active_element.click()  # the submit button has the focus after the last board
    wait(browser, lambda d: d.find_elements("css selector", "ul.messages"))
    assert browser.find_element("id", "match-score").text == TWO_AND_A_HALF[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_standings_sorted_by_points_in_every_language(browser, live_server, lang):
    event, _entries = played_swiss(6, rounds=3)  # white wins on odd boards, draws on even ones: half points
    browser.get(f"{live_server.url}/{lang}/events/{event.slug}/")
    header = wait(browser, lambda d: d.find_element("css selector", 'th[data-sort="points"] button'))
    header.click()  # highest first
    header.click()  # lowest first
    wait(browser, lambda d: d.find_element("css selector", 'th[data-sort="points"]').get_attribute("aria-sort"))
    index = browser.execute_script("return document.querySelector('th[data-sort=\"points\"]').cellIndex")
    rows = browser.find_elements("css selector", "table.standings tbody tr")
    shown = [row.find_elements("css selector", "th, td")[index].text for row in rows]
    points = [Decimal(text.replace(",", ".")) for text in shown]
    assert any(value % 1 for value in points), shown  # some half points, written as the language writes them
    assert points == sorted(points), shown
