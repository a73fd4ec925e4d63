"""The few things only a real browser shows: right-to-left layout, the language switcher, the
calculator used by hand, and a phone-size screen without sideways scrolling.

Drives Debian's Chromium through chromedriver (no browser download). On CI a missing browser fails.

Screenshots are kept as test artifacts in the folder named by ARTIFACTS_DIR (default
/tmp/chess-league-artifacts): standings-en.png, standings-he.png, player-en.png, calculator-en.png
and player-he-phone.png.
"""

import os
from pathlib import Path

import pytest

from tests.e2e.demo import load_demo

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def artifact(name: str) -> Path:
    """Where a screenshot is kept: ARTIFACTS_DIR, or /tmp/chess-league-artifacts."""
    folder = Path(os.environ.get("ARTIFACTS_DIR") or "/tmp/chess-league-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def save_png(driver, name: str) -> Path:
    path = artifact(name)
    path.unlink(missing_ok=True)
    assert driver.save_screenshot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 1000
    return path


@pytest.fixture
def site(live_server):
    load_demo()
    return live_server.url


def phone(driver):
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    )


def x_of(driver, selector):
    return driver.execute_script(f"return document.querySelector('{selector}').getBoundingClientRect().left")


def test_hebrew_standings_read_right_to_left(browser, site):
    browser.get(f"{site}/he/events/demo-autumn-open/")
    table = browser.find_element("css selector", "table.standings")
    assert browser.execute_script("return getComputedStyle(arguments[0]).direction", table) == "rtl"
    # the rank column is the first column, so in Hebrew it is on the right of the name column
    assert x_of(browser, "table.standings thead th.rank") > x_of(browser, "table.standings thead th.name")
    # numbers keep their own order inside the right-to-left table
    cell = browser.find_element("css selector", "table.standings tbody td:last-child")  # a tie-break
    assert browser.execute_script("return getComputedStyle(arguments[0]).direction", cell) == "ltr"
    # the style sheet is really served (the table scrolls inside its wrapper)
    wrap = browser.find_element("css selector", ".table-wrap")
    assert browser.execute_script("return getComputedStyle(arguments[0]).overflowX", wrap) == "auto"
    save_png(browser, "standings-he.png")


def test_english_standings_read_left_to_right(browser, site):
    browser.get(f"{site}/en/events/demo-autumn-open/")
    assert x_of(browser, "table.standings thead th.rank") < x_of(browser, "table.standings thead th.name")
    save_png(browser, "standings-en.png")


def test_language_switcher_changes_the_language_and_keeps_the_page(browser, site):
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(f"{site}/en/events/demo-autumn-open/crosstable/")
    Select(browser.find_element("id", "language-select")).select_by_value("he")
    assert "/en/" in browser.current_url  # choosing in the menu changes nothing until the button
    browser.find_element("css selector", "form.language button").click()
    WebDriverWait(browser, 10).until(lambda d: "/he/" in d.current_url)
    assert browser.current_url.endswith("/he/events/demo-autumn-open/crosstable/")
    html = browser.find_element("tag name", "html")
    assert html.get_attribute("lang") == "he" and html.get_attribute("dir") == "rtl"
    Select(browser.find_element("id", "language-select")).select_by_value("nb")
    browser.find_element("css selector", "form.language button").click()
    WebDriverWait(browser, 10).until(lambda d: "/nb/" in d.current_url)
    assert browser.find_element("tag name", "html").get_attribute("dir") == "ltr"


def test_player_page_shows_the_explanation(browser, site):
    browser.get(f"{site}/en/events/demo-autumn-open/players/1/")
    sections = browser.find_elements("css selector", "section.explained")
    assert len(sections) == 3  # BH/C1, BH, SB: the demo's published list
    first = sections[0].text
    assert "Buchholz Cut-1" in first and "Round 1" in first
    assert browser.find_elements("css selector", "svg.chart")
    save_png(browser, "player-en.png")


def test_calculator_works_end_to_end(browser, site):
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(f"{site}/en/tiebreaks/calculator/")
    Select(browser.find_element("id", "id_rounds_count")).select_by_value("3")
    browser.find_element("css selector", ".rounds-count button").click()
    WebDriverWait(browser, 10).until(lambda d: "rounds=3" in d.current_url)
    assert len(browser.find_elements("css selector", "table.calc tbody tr")) == 3
    # a mistake first: a win against an opponent who supposedly scored 7 in 3 rounds
    Select(browser.find_element("id", "id_kind_1")).select_by_value("win")
    browser.find_element("id", "id_opponent_1").send_keys("7")
    Select(browser.find_element("id", "id_kind_2")).select_by_value("hpb")
    Select(browser.find_element("id", "id_kind_3")).select_by_value("draw")
    browser.find_element("id", "id_opponent_3").send_keys("2")
    browser.find_element("css selector", "form.calculator button.primary").click()
    error = WebDriverWait(browser, 10).until(lambda d: d.find_element("id", "id_opponent_1_error"))
    assert "cannot score more than 3" in error.text
    # the form keeps what was entered; correct the one field
    field = browser.find_element("id", "id_opponent_1")
    field.clear()
    field.send_keys("2")
    browser.find_element("css selector", "form.calculator button.primary").click()
    result = WebDriverWait(browser, 10).until(lambda d: d.find_element("id", "result")).text
    # by hand: score 1 + ½ + ½ = 2; BH = 2 + min(2, ½ x 3) + 2 = 5.5
    assert "Your score: 2\n" in result
    assert "Buchholz: 5.5" in result
    assert "16.4.2" in result


def test_calculator_recomputes_as_you_type(browser, site):
    """The script fetches the same page with the form's query string and swaps the result in:
    no submit, no page load. A half-point bye shows the dummy capped at ½ × rounds (16.4.2)."""
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(f"{site}/en/tiebreaks/calculator/?rounds=3")
    browser.execute_script("window.stillTheSamePage = true;")
    result = browser.find_element("id", "calculator-result")
    assert "Your score" not in result.text
    Select(browser.find_element("id", "id_kind_1")).select_by_value("win")
    browser.find_element("id", "id_opponent_1").send_keys("2")
    Select(browser.find_element("id", "id_kind_2")).select_by_value("hpb")
    Select(browser.find_element("id", "id_kind_3")).select_by_value("draw")
    browser.find_element("id", "id_opponent_3").send_keys("2")

    def shown(driver):
        text = driver.find_element("id", "calculator-result").text
        return text if "Buchholz: 5.5" in text else False

    # by hand: score 1 + ½ + ½ = 2; the bye's dummy min(2, ½ × 3) = 1.5; BH = 2 + 1.5 + 2 = 5.5
    text = WebDriverWait(browser, 10).until(shown)
    assert "Your score: 2\n" in text
    assert "own score, 2, capped at half a point per round: 1.5 (Article 16.4.2)" in text
    assert browser.execute_script("return window.stillTheSamePage === true")  # no submit, no reload
    assert "kind_2=hpb" in browser.current_url  # the address follows: a reload shows the same values
    # typing again updates again: a loss in round 1 instead of a win (score 1, dummy min(1, 1.5) = 1)
    Select(browser.find_element("id", "id_kind_1")).select_by_value("loss")
    field = browser.find_element("id", "id_opponent_1")
    field.clear()
    field.send_keys("3")
    # BH = 3 + min(1, 1.5) + 2 = 6
    text = WebDriverWait(browser, 10).until(
        lambda d: (
            "Buchholz: 6\n" in d.find_element("id", "calculator-result").text
            and d.find_element("id", "calculator-result").text
        )
    )
    assert "Your score: 1\n" in text
    assert browser.execute_script("return window.stillTheSamePage === true")
    save_png(browser, "calculator-en.png")


PHONE_PAGES = [
    "/he/events/demo-autumn-open/",
    "/he/events/demo-autumn-open/players/1/",
    "/en/events/demo-autumn-open/crosstable/",
    "/en/events/demo-division-1/",
    "/en/events/demo-division-1/rounds/1/",
    "/he/tiebreaks/",
    "/en/tiebreaks/unplayed-rounds/",
    "/en/tiebreaks/calculator/?rounds=5",
    "/en/tiebreaks/sonneborn-berger/",
    "/he/events/demo-autumn-open/why/?a=1&b=2",
    "/en/events/demo-division-1/teams/1/",
    "/nb/clubs/oslo-sk/",
]

OVERFLOW = """
const width = document.documentElement.clientWidth;
const out = [];
for (const el of document.querySelectorAll('body *')) {
  if (el.closest('.table-wrap')) continue;
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.right > width + 1 || r.left < -1) out.push(el.tagName + '.' + el.className + ' ' + r.left + '..' + r.right);
}
return [document.documentElement.scrollWidth, width, out.slice(0, 5)];
"""


@pytest.mark.parametrize("page", PHONE_PAGES)
def test_phone_screen_has_no_sideways_scrolling_outside_tables(browser, site, page):
    phone(browser)
    browser.get(site + page)
    scroll_width, width, outside = browser.execute_script(OVERFLOW)
    assert width == 390
    assert scroll_width <= width, outside
    assert outside == []
    if page.endswith("/players/1/"):
        save_png(browser, "player-he-phone.png")
