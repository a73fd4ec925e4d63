"""The prize form shows only the fields each kind of prize uses, and follows a change of kind (issue 38)."""

import pytest
from selenium.webdriver.support.select import Select

from tests.e2e.test_accessibility import log_in
from tests.e2e.test_browser import site  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shown(fieldset) -> set[str]:
    return {
        field.find_element("css selector", "input, select").get_attribute("name").rsplit("-", 1)[1]
        for field in fieldset.find_elements("css selector", ".field")
        if field.is_displayed()
    }


def test_the_prize_form_shows_the_fields_of_the_kind_chosen(browser, site):  # noqa: F811
    log_in(browser, site, "organiser")
    browser.get(f"{site}/en/manage/events/demo-autumn-open/prizes/")
    fieldset = browser.find_elements("css selector", "fieldset.prize")[-1]  # a new prize: a place prize
    kind = Select(fieldset.find_element("css selector", "select[name$='-kind']"))
    assert shown(fieldset) == {"kind", "place", "amount", "item", "DELETE"}
    kind.select_by_value("category")
    assert shown(fieldset) == {
        "kind", "category", "eligibility_kind", "eligibility_value", "rank", "amount", "item", "DELETE"
    }  # fmt: skip
    kind.select_by_value("club_team")
    assert shown(fieldset) == {"kind", "rank", "amount", "item", "team_size", "DELETE"}
