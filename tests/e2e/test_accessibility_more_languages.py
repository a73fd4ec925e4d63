"""The accessibility check of tests/e2e/test_accessibility.py in the languages that file leaves to this one (a file
of their own, so the suite's other process checks the first ones meanwhile)."""

import pytest

from tests.e2e.test_accessibility import HERE, LANGUAGES, every_page_passes_axe_wcag21_aa

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang not in HERE])
def test_every_page_passes_axe_wcag21_aa(browser, live_server, lang):
    every_page_passes_axe_wcag21_aa(browser, live_server, lang)
