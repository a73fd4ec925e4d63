"""The pairing screen in a real browser with a real worker: the organiser pairs round 1 (the page
follows the worker's progress by itself, from static/progress.js), exchanges two players by hand with a
reason, sets the round by hand (a refused round first: nothing saved), publishes; the public pairings
page then shows the boards.

Screenshots (ARTIFACTS_DIR, default /tmp/chess-league-artifacts): pairing-preview-en.png,
pairing-public-he.png.
"""

import os
from pathlib import Path

import pytest

from leagues.models import Game, PairingChange, RoundPairing
from tests.e2e.browsing import wait
from tests.factories import EntryFactory, EventFactory, PlayerFactory, RoleFactory, UserFactory
from tests.helpers import present

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _screenshot(driver, name):
    folder = Path(os.environ.get("ARTIFACTS_DIR") or "/tmp/chess-league-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(folder / name))


def test_pair_swap_by_hand_and_publish_in_the_browser(browser, live_server, worker):
    from selenium.webdriver.support.ui import Select

    event = EventFactory(rounds_count=5, status="published", name="Browser Open", slug="browser-open")
    for n in range(1, 11):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(name=f"Player {n:02d}"), rating=2300 - 20 * n)
    organiser = UserFactory(username="organiser")  # password "pw"
    RoleFactory(user=organiser, league=event.league)
    screen = f"/en/manage/events/{event.slug}/pairing/1/"

    browser.get(live_server.url + screen)
    wait(browser, lambda d: "/accounts/login/" in d.current_url, timeout=30)
    browser.find_element("name", "username").send_keys("organiser")
    browser.find_element("name", "password").send_keys("pw\n")
    wait(browser, lambda d: d.current_url.endswith(screen), timeout=30)

    pair = "//button[normalize-space()='Pair round 1']"
    wait(browser, lambda d: d.find_elements("xpath", pair), timeout=30)[0].click()  # the page after the login loads
    # the worker pairs the round; the page follows it and shows the preview without a click
    wait(browser, lambda d: d.find_elements("css selector", "section.pairing-preview table.pairings"), timeout=120)
    pairing = RoundPairing.objects.get(round__event=event)
    assert pairing.status == RoundPairing.Status.READY
    rows = browser.find_elements("css selector", "section.pairing-preview table.pairings tbody tr")
    assert len(rows) == 5
    # each side of a board: start number, name, rating (the entries are rated 2300 - 20 × start number)
    first_board = [cell.text for cell in rows[0].find_elements("tag name", "td")]
    white, black = pairing.boards[0]
    assert first_board[1:4] == [str(white), f"Player {white:02d}", str(2300 - 20 * white)]
    assert first_board[6:9] == [str(black), f"Player {black:02d}", str(2300 - 20 * black)]
    _screenshot(browser, "pairing-preview-en.png")

    # exchange the black players of boards 1 and 2, with a reason
    (white1, black1), (white2, black2) = pairing.boards[:2]
    Select(browser.find_element("name", "swap-first")).select_by_value(str(black1))
    Select(browser.find_element("name", "swap-second")).select_by_value(str(black2))
    browser.find_element("name", "swap-reason").send_keys("brothers asked not to play on neighbouring boards")
    browser.find_element("xpath", "//button[normalize-space()='Exchange']").click()
    notice = wait(browser, lambda d: d.find_elements("css selector", "p.changed-by-hand"), timeout=30)
    assert notice[0].text == "This round was changed by hand."
    assert PairingChange.objects.get().reason.startswith("brothers")

    # set the round by hand: board 5's players leave it, one for a half-point bye, one for a zero-point bye
    white5, black5 = pairing.boards[4]

    def type_into(name, value):
        field = browser.find_element("name", name)
        field.clear()
        if value:
            field.send_keys(value)

    type_into("edit-white_5", "")
    type_into("edit-black_5", "")
    type_into("edit-reason", "two players leave early")
    browser.find_element("xpath", "//button[normalize-space()='Save the round']").click()
    error = wait(browser, lambda d: d.find_elements("css selector", "ul.messages li.error"), timeout=30)
    assert "has neither a board nor a bye in round 1" in error[0].text  # nothing saved
    assert PairingChange.objects.count() == 1
    type_into("edit-white_5", "")
    type_into("edit-black_5", "")
    type_into("edit-bye_1", str(white5))
    Select(browser.find_element("name", "edit-bye_kind_1")).select_by_value("half")
    type_into("edit-bye_2", str(black5))
    Select(browser.find_element("name", "edit-bye_kind_2")).select_by_value("zero")
    type_into("edit-reason", "two players leave early")
    browser.find_element("xpath", "//button[normalize-space()='Save the round']").click()
    wait(browser, lambda d: "The round was set by hand." in d.find_element("css selector", "ul.messages").text, 30)
    assert browser.find_element("css selector", "p.changed-by-hand").text == "This round was changed by hand."
    assert len(browser.find_elements("css selector", "section.pairing-preview table.pairings tbody tr.bye")) == 2
    assert PairingChange.objects.count() == 2

    browser.find_element("xpath", "//button[normalize-space()='Publish round 1']").click()
    published = wait(browser, lambda d: d.find_elements("css selector", "section.published"), timeout=30)
    assert "results can be entered" in browser.find_element("css selector", "ul.messages").text
    assert published[0].find_element("link text", "Enter the results")
    boards = [
        (present(g.white).start_number, present(g.black).start_number)
        for g in Game.objects.filter(round__event=event, black__isnull=False).order_by("board")
    ]
    assert boards[:2] == [(white1, black2), (white2, black1)] and len(boards) == 4
    byes = Game.objects.filter(round__event=event, black__isnull=True)
    assert {(present(g.white).start_number, g.result) for g in byes} == {(white5, "bye:half"), (black5, "bye:zero")}

    browser.get(f"{live_server.url}/he/events/{event.slug}/rounds/1/pairings/")
    table = browser.find_element("css selector", "table.pairings")
    assert browser.execute_script("return getComputedStyle(arguments[0]).direction", table) == "rtl"
    shown = [
        (int(row.find_elements("tag name", "td")[1].text), int(row.find_elements("tag name", "td")[9].text))
        for row in table.find_elements("css selector", "tbody tr")
    ]
    assert shown == boards
    _screenshot(browser, "pairing-public-he.png")
