"""Issue 38's keyboard and screen-reader findings, used as a keyboard user would: "Why is A above B?" chosen by
typing a name and answered where the focus lands; the menus left out of the part the skip link jumps to; a
refused form named in one summary that has the focus, each error tied to its field."""

import pytest
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from tests.e2e.browsing import focused, wait
from tests.e2e.test_accessibility import log_in
from tests.e2e.test_browser import site  # noqa: F401 (the fixture)
from tests.helpers import present

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
OPEN = "demo-autumn-open"


def test_why_form_is_chosen_by_name_and_its_answer_gets_the_focus(browser, site):  # noqa: F811
    browser.get(f"{site}/en/events/{OPEN}/why/")
    player_a, player_b = Select(browser.find_element("id", "why-a")), Select(browser.find_element("id", "why-b"))
    # it opens on two different players: Compare straight away answers a real question
    number_a = player_a.first_selected_option.get_attribute("value")
    assert number_a != player_b.first_selected_option.get_attribute("value")
    # typing the start of a name in the list chooses that player
    last = player_b.options[-1]
    name = last.text.split(",")[0]
    browser.find_element("id", "why-b").send_keys(name)
    assert player_b.first_selected_option.text == last.text
    browser.find_element("css selector", ".why-form button[type=submit]").click()
    wait(browser, lambda d: focused(d, "id") == "verdict")
    assert "is listed above" in browser.switch_to.active_element.text
    # the same player twice: the error has the focus too
    Select(browser.find_element("id", "why-b")).select_by_value(present(number_a))
    browser.find_element("css selector", ".why-form button[type=submit]").click()
    wait(browser, lambda d: focused(d, "id") == "verdict")
    assert "Choose two different players." in browser.switch_to.active_element.text


def test_skip_link_leads_past_the_menus(browser, site):  # noqa: F811
    browser.get(f"{site}/en/events/{OPEN}/why/")
    body = browser.find_element("css selector", "body")
    body.send_keys(Keys.TAB)
    assert focused(browser, "class") == "skip-link"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    browser.switch_to.active_element.send_keys(Keys.TAB)
    assert focused(browser, "id") == "why-a"  # the form's first field, not the site's and the event's menus
    for path in (f"/en/events/{OPEN}/", "/en/tiebreaks/buchholz/", "/en/clubs/"):
        browser.get(site + path)
        assert browser.find_elements("css selector", "main nav") == []
        assert browser.find_elements("css selector", "nav.site-nav")
    log_in(browser, site, "organiser")
    browser.get(f"{site}/en/manage/")
    assert browser.find_elements("css selector", "main nav") == []
    assert browser.find_elements("css selector", "nav.manage-nav")


def test_a_refused_form_names_its_errors_in_one_summary_that_has_the_focus(browser, site):  # noqa: F811
    log_in(browser, site, "organiser")
    browser.get(f"{site}/en/manage/leagues/demo-league/seasons/new/")
    browser.find_element("css selector", "main form button[type=submit]").click()
    wait(browser, lambda d: "error-summary" in focused(d, "class"))
    summary = browser.switch_to.active_element
    assert "Nothing was saved." in summary.text
    links = summary.find_elements("css selector", "a")
    assert links
    assert browser.find_elements("css selector", "[role=alert] .field-error, .field-error[role=alert]") == []
    # every input's aria-describedby names what is on the page: the field's own error under it
    missing = browser.execute_script(
        "return [...document.querySelectorAll('[aria-describedby]')].flatMap("
        "e => e.getAttribute('aria-describedby').split(/\\s+/).filter(id => !document.getElementById(id)))"
    )
    assert missing == []
    # a link of the summary leads to its field, which is described by its error
    field_id = links[0].get_attribute("href").split("#")[1]
    links[0].click()
    assert focused(browser, "id") == field_id
    described_by = browser.switch_to.active_element.get_attribute("aria-describedby").split()
    assert f"{field_id}_error" in described_by
    assert browser.find_element("id", f"{field_id}_error").text in links[0].text
