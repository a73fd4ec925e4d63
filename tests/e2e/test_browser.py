"""The few things only a real browser shows: right-to-left layout, the language switcher, the
calculator used by hand, and a phone-size screen without sideways scrolling.

Drives Debian's Chromium through chromedriver (no browser download). On CI a missing browser fails.
"""

import shutil
import tempfile
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.conftest import require

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOT = Path(tempfile.gettempdir()) / "standings-he.png"
PHONE_SCREENSHOT = Path(tempfile.gettempdir()) / "player-he-phone.png"


@pytest.fixture
def browser():
    require(
        Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists(),
        "Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)",
    )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="chromium-e2e-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--window-size=1280,900",
        "--lang=en-US",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def site(live_server):
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
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
    cell = browser.find_element("css selector", "table.standings tbody td.num bdi")
    assert browser.execute_script("return getComputedStyle(arguments[0]).direction", cell) == "ltr"
    # the style sheet is really served (the table scrolls inside its wrapper)
    wrap = browser.find_element("css selector", ".table-wrap")
    assert browser.execute_script("return getComputedStyle(arguments[0]).overflowX", wrap) == "auto"
    browser.save_screenshot(str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 0


def test_english_standings_read_left_to_right(browser, site):
    browser.get(f"{site}/en/events/demo-autumn-open/")
    assert x_of(browser, "table.standings thead th.rank") < x_of(browser, "table.standings thead th.name")


def test_language_switcher_changes_the_language_and_keeps_the_page(browser, site):
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(f"{site}/en/events/demo-autumn-open/crosstable/")
    Select(browser.find_element("id", "language-select")).select_by_value("he")
    WebDriverWait(browser, 10).until(lambda d: "/he/" in d.current_url)
    assert browser.current_url.endswith("/he/events/demo-autumn-open/crosstable/")
    html = browser.find_element("tag name", "html")
    assert html.get_attribute("lang") == "he" and html.get_attribute("dir") == "rtl"
    Select(browser.find_element("id", "language-select")).select_by_value("nb")
    WebDriverWait(browser, 10).until(lambda d: "/nb/" in d.current_url)
    assert browser.find_element("tag name", "html").get_attribute("dir") == "ltr"


def test_player_page_shows_the_explanation(browser, site):
    browser.get(f"{site}/en/events/demo-autumn-open/players/1/")
    sections = browser.find_elements("css selector", "section.explained")
    assert len(sections) == 3  # BH/C1, BH, SB: the demo's published list
    first = sections[0].text
    assert "Buchholz Cut-1" in first and "Round 1" in first
    assert browser.find_elements("css selector", "svg.chart")


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
        browser.save_screenshot(str(PHONE_SCREENSHOT))
