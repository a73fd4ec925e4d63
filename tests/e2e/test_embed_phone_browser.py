"""The widgets clubs put on their own sites (leagues/public/embed.py) on a 390 px phone (issue #33), in a real
Chromium, in English and Hebrew: the widget never scrolls sideways, every line of it (heading, row, cell, link) is
inside the screen with no text cut or running past its box, headings, places, points and scores are never broken
over two lines, the text is at least 12 px, and in Hebrew it reads from
the right (the place at the right edge, the points at the left). The demo's names are short, so one team and one
player get the longest names a league may give (a German club name with one 32-letter word, an unbroken name):
they must wrap, not push the widget wider. Screenshots go to ARTIFACTS_DIR (embed-<lang>-<widget>.png)."""

import pytest
from django.db.models import F

from leagues.models import Entry, Event, Player, Team
from leagues.recompute import standings_recompute_event
from tests.e2e.test_browser import phone, save_png, site  # noqa: F401 - the demo on the live server
from tests.helpers import present

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OPEN, TEAM = "demo-autumn-open", "demo-division-1"
WIDTH = 390
LONG_TEAM = "Schachgemeinschaftsvereinigungsbezirk Nordrhein-Westfalen Süd 1"
LONG_PLAYER = "Wolfeschlegelsteinhausenbergerdorff, Hubert Blaine"

WIDGETS = [
    f"events/{OPEN}/standings/?rows=50",
    f"events/{TEAM}/standings/",
    f"events/{OPEN}/results/",
    f"events/{TEAM}/results/",
    f"events/{TEAM}/teams/{{team}}/fixtures/",
]

# every element holding text: outside the screen, text running past its own box (cut or overflowing), or smaller
# than 12 px; as "what: why"
PROBLEMS = """
const width = document.documentElement.clientWidth, out = [];
for (const el of document.querySelectorAll('h1, h2, p, li, th, td, a, bdi, span')) {
  const b = el.getBoundingClientRect(), text = el.textContent.trim().slice(0, 40);
  if (!text || b.width === 0) continue;
  if (b.left < -0.5 || b.right > width + 0.5) out.push(text + ': ' + b.left + '..' + b.right);
  const style = getComputedStyle(el);
  if (style.display !== 'inline' && el.scrollWidth > el.clientWidth + 1) out.push(text + ': text runs past its box');
  if (parseFloat(style.fontSize) < 12) out.push(text + ': ' + style.fontSize);
}
// headings, places, points and scores on one line each (a long name wraps, a number or heading is never broken)
for (const el of document.querySelectorAll('th, td.num, td[dir=ltr], .score')) {
  const range = document.createRange();
  range.selectNodeContents(el);
  const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
  if (lines.size > 1) out.push(el.textContent.trim() + ': broken over ' + lines.size + ' lines');
}
return out;
"""
SCROLL_WIDTH = "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
# the first standings row's place, name and points cells: their left edges
ROW_LEFTS = "return [...document.querySelector('tbody tr').cells].map(c => c.getBoundingClientRect().left)"


@pytest.fixture
def long_names(site):  # noqa: F811 - the fixture's value
    team = present(Team.objects.filter(entry__event__slug=TEAM).order_by("entry__start_number").first())
    team.name = LONG_TEAM
    team.save(update_fields=["name"])
    player = present(Player.objects.filter(entry__event__slug=OPEN).order_by("pk").first())
    player.name = LONG_PLAYER
    player.save(update_fields=["name"])
    for event in Event.objects.filter(slug__in=[OPEN, TEAM]):  # the standings read the names from their snapshot
        Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
        assert standings_recompute_event(event.pk)
    return Entry.objects.get(team=team).start_number


@pytest.mark.parametrize("lang", ["en", "he"])
def test_every_widget_fits_a_phone(browser, site, long_names, lang):  # noqa: F811
    phone(browser)
    failures = []
    for widget in WIDGETS:
        path = widget.format(team=long_names)
        browser.get(f"{site}/embed/{lang}/{path}")
        direction = browser.find_element("tag name", "html").get_attribute("dir")
        if direction != ("rtl" if lang == "he" else "ltr"):
            failures.append(f"{path}: dir={direction!r}")
        scroll_width, width = browser.execute_script(SCROLL_WIDTH)
        assert width == WIDTH
        if scroll_width > WIDTH:
            failures.append(f"{path}: the widget scrolls sideways ({scroll_width} px)")
        failures += [f"{path}: {problem}" for problem in browser.execute_script(PROBLEMS)]
        save_png(browser, f"embed-{lang}-{path.split('?')[0].strip('/').replace('/', '-')}.png")
    assert failures == [], "\n".join([lang, *failures])


def test_the_long_names_are_on_the_widgets(browser, site, long_names):  # noqa: F811
    """The check above saw the long names (they are on the widgets it read), and the standings read from the right
    in Hebrew: place, name, points from the right edge."""
    phone(browser)
    browser.get(f"{site}/embed/en/events/{TEAM}/standings/")
    assert LONG_TEAM in browser.find_element("tag name", "table").text
    browser.get(f"{site}/embed/en/events/{TEAM}/teams/{long_names}/fixtures/")
    assert LONG_TEAM in browser.find_element("tag name", "h1").text
    browser.get(f"{site}/embed/en/events/{OPEN}/standings/?rows=50")
    assert LONG_PLAYER in browser.find_element("tag name", "table").text
    for lang in ("en", "he"):
        browser.get(f"{site}/embed/{lang}/events/{OPEN}/standings/")
        lefts = browser.execute_script(ROW_LEFTS)
        assert lefts == (sorted(lefts) if lang == "en" else sorted(lefts, reverse=True)), lang


def test_the_check_sees_a_widget_wider_than_the_phone(browser, site):  # noqa: F811
    """The control: a standings name that may not wrap pushes the widget past the screen, and the check says so."""
    phone(browser)
    browser.get(f"{site}/embed/en/events/{OPEN}/standings/")
    browser.execute_script(
        "const cell = document.querySelector('tbody td:nth-child(2)');"
        "cell.style.whiteSpace = 'nowrap'; cell.querySelector('bdi').textContent = 'W'.repeat(60);"
    )
    assert browser.execute_script(SCROLL_WIDTH)[0] > WIDTH or browser.execute_script(PROBLEMS)
