"""Issue 38: Enter on the match card's last board submits the card, as on the round sheet: on its result and on
the away player after it (a select does not submit its form by itself), and the card is saved.

Drives Debian's Chromium through chromedriver (the `browser` fixture of tests/e2e/conftest.py); on CI a
missing browser fails.
"""

import pytest

from leagues.models import Game, TeamMatch
from tests.e2e.browsing import focused, wait
from tests.helpers import team_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _card(browser, live_server, boards):
    from selenium.webdriver.common.keys import Keys

    _event, match, games, (home_secretary, _away) = team_match(boards=boards)
    home_secretary.username = "home-secretary"
    home_secretary.save()
    card = f"/en/manage/matches/{match.pk}/"
    browser.get(live_server.url + card)
    wait(browser, lambda d: focused(d, "name") == "username")
    browser.switch_to.active_element.send_keys("home-secretary", Keys.TAB, "pw", Keys.ENTER)
    wait(browser, lambda d: d.current_url.endswith(card) and focused(d, "class") == "result")
    return match, games


@pytest.mark.parametrize("field", ["result", "away player"])
def test_enter_on_the_last_board_submits_the_card(browser, live_server, field):
    from selenium.webdriver.common.keys import Keys

    match, games = _card(browser, live_server, boards=3)
    for key in ("1", "=", "0"):  # each key enters a board and moves on (after the last: the submit button)
        browser.switch_to.active_element.send_keys(key)
    last = browser.find_element("id", f"id_result_{games[-1].pk}")
    if field == "away player":
        row = last.find_element("xpath", "./ancestor::tr")
        last = row.find_elements("css selector", "select")[-1]  # the away player of the last board
        assert "result" not in (last.get_attribute("class") or "")
    last.send_keys(Keys.ENTER)
    wait(browser, lambda d: "Match card saved." in d.find_element("id", "main").text)
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.SUBMITTED
    assert Game.objects.filter(pk__in=[g.pk for g in games]).exclude(result="").count() == 3
