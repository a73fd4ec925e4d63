"""Every public page type on a 390 px phone (issue #33), in a real Chromium, in English and Hebrew (right to left):
the page never scrolls sideways and nothing on it leaves the screen, except inside a table's own scrolling wrapper
(.table-wrap: the standings and crosstables, whose rank and name stay on the screen, as
tests/e2e/test_phone_tables_browser.py checks with the key columns of each narrow table). The page types are the
accessibility test's list (tests/e2e/test_accessibility.py: public_pages), so a new public page is checked here too;
AXE_PAGES=register,rules checks only the pages whose path contains one of these, as there."""

import pytest

from tests.e2e.demo import load_demo
from tests.e2e.test_accessibility import ONLY, address, page_types_data, public_pages
from tests.e2e.test_browser import OVERFLOW, phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("lang", ["en", "he"])
def test_no_public_page_scrolls_sideways_on_a_phone(browser, live_server, lang):
    load_demo()
    page_types_data()
    phone(browser)
    failures = []
    pages = public_pages()
    for path in pages:
        if ONLY and not any(part in path for part in ONLY):  # AXE_PAGES, as the accessibility test reads it
            continue
        browser.get(address(live_server.url, lang, path))
        browser.execute_script("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        scroll_width, width, outside = browser.execute_script(OVERFLOW)
        assert width == 390
        if scroll_width > width or outside:
            failures.append(f"{path}: page {scroll_width} px wide; outside the screen: {outside}")
    assert len(pages) > 30  # the list still names every page type
    assert failures == [], "\n".join([lang, *failures])
