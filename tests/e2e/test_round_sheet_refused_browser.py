"""A round sheet or a match card the site refuses before its view runs (a bare 400: more fields than the site reads)
keeps every result typed, says it was not saved, and saves once the site accepts it; Enter on the round sheet's last
board saves (issue #30).

Drives Debian's Chromium through chromedriver (the `browser` fixture of tests/e2e/conftest.py); on CI a
missing browser fails.
"""

import pytest

from leagues.models import Game, Result, Role
from tests.e2e.browsing import focused, wait
from tests.factories import ClubFactory, UserFactory, swiss_event
from tests.helpers import team_match

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BOARDS = 12


def test_a_refused_round_sheet_keeps_what_was_typed(browser, live_server, settings):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    club = ClubFactory()
    event, _entries, games = swiss_event(players=2 * BOARDS, club=club, rounds=5)
    Role.objects.create(user=UserFactory(username="secretary"), kind=Role.Kind.SECRETARY, club=club)
    # the site reads fewer fields than this sheet sends (12 boards: 26 fields): it answers a bare 400
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 20
    settings.ROUND_SHEET_MAX_BOARDS = 5
    sheet = f"/nb/manage/events/{event.slug}/rounds/1/"
    browser.get(live_server.url + sheet)
    wait(browser, lambda d: focused(d, "name") == "username")
    browser.switch_to.active_element.send_keys("secretary", Keys.TAB, "pw", Keys.ENTER)
    wait(browser, lambda d: d.current_url.endswith(sheet) and focused(d, "id") == f"id_result_{games[0].pk}")
    typed = {}
    for number, game in enumerate(games, start=1):  # white wins on odd boards, black on even ones
        key, typed[game.pk] = ("1", Result.WHITE_WINS) if number % 2 else ("0", Result.BLACK_WINS)
        browser.switch_to.active_element.send_keys(key)
        if number < BOARDS:
            browser.switch_to.active_element.send_keys(Keys.TAB)
    assert focused(browser, "id") == f"id_result_{games[-1].pk}"
    browser.switch_to.active_element.send_keys(Keys.ENTER)  # Enter on the last board saves

    note = wait(browser, lambda d: d.find_element("css selector", "[data-not-saved]").is_displayed() and d)
    assert "Runden ble ikke lagret." in note.find_element("css selector", "[data-not-saved]").text
    assert browser.current_url.endswith(sheet)
    shown = {g.pk: Select(browser.find_element("id", f"id_result_{g.pk}")).first_selected_option for g in games}
    assert {pk: option.get_attribute("value") for pk, option in shown.items()} == typed
    assert not Game.objects.filter(pk__in=typed).exclude(result="").exists()  # nothing saved

    # the site reads the sheet again: the same values, Enter on the last board, saved
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
    settings.ROUND_SHEET_MAX_BOARDS = 1500
    browser.find_element("id", f"id_result_{games[-1].pk}").send_keys(Keys.ENTER)
    wait(browser, lambda d: "Runden er lagret." in d.find_element("id", "main").text)
    assert dict(Game.objects.filter(pk__in=typed).values_list("pk", "result")) == typed
    assert not browser.find_element("css selector", "[data-not-saved]").is_displayed()


def test_a_refused_match_card_keeps_what_was_typed(browser, live_server, settings):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    _event, match, games, (home_secretary, _away) = team_match(boards=4)
    home_secretary.username = "home-secretary"
    home_secretary.save()
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10  # the card sends 18 fields: a bare 400
    card = f"/en/manage/matches/{match.pk}/"
    browser.get(live_server.url + card)
    wait(browser, lambda d: focused(d, "name") == "username")
    browser.switch_to.active_element.send_keys("home-secretary", Keys.TAB, "pw", Keys.ENTER)
    wait(browser, lambda d: d.current_url.endswith(card) and focused(d, "class") == "result")
    for key in ("1", "=", "0", "1"):  # each key enters a board and moves on; then the submit button
        browser.switch_to.active_element.send_keys(key)
    browser.switch_to.active_element.send_keys(Keys.ENTER)

    note = wait(browser, lambda d: d.find_element("css selector", "[data-not-saved]").is_displayed() and d)
    assert "The card was not saved." in note.find_element("css selector", "[data-not-saved]").text
    chosen = [Select(browser.find_element("id", f"id_result_{g.pk}")).first_selected_option.text for g in games]
    assert chosen == ["1-0", "½-½", "0-1", "1-0"]  # from the home side
    assert browser.find_element("id", "match-score").text == "2.5 – 1.5"
    assert not Game.objects.filter(pk__in=[g.pk for g in games]).exclude(result="").exists()

    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
    browser.find_element("css selector", "form.card-form button[type=submit]").send_keys(Keys.ENTER)
    wait(browser, lambda d: "Match card saved." in d.find_element("id", "main").text)
    assert Game.objects.filter(pk__in=[g.pk for g in games]).exclude(result="").count() == 4
