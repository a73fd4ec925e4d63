"""A knock-out cup's bracket on a 390 px phone, in a real Chromium, in English and in Hebrew (right to left): a cup of
12 teams with long club names after round 1 (four byes, a 2-2 match decided by board count) and a quarter-final
played. The page never scrolls sideways, every tie is inside the screen, the rounds stand one under the other, and
axe-core finds no WCAG 2.1 AA or structure violation (the rounds are headed sections of ordered lists). Screenshots:
ARTIFACTS_DIR/cup-bracket-<lang>.png."""

import pytest

from leagues.models import CupTie, Event, Result
from leagues.services.cups import cup_draw
from leagues.services.match_cards import match_card_submit
from tests.e2e.test_accessibility import axe_violations, load_axe_into_every_page
from tests.e2e.test_browser import phone, save_png
from tests.factories import EntryFactory, EventFactory, TeamFactory, TeamMemberFactory, organiser_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH = 390

LAYOUT = """
const width = document.documentElement.clientWidth, out = [];
for (const tie of document.querySelectorAll('.bracket-tie')) {
  const b = tie.getBoundingClientRect();
  if (b.left < -0.5 || b.right > width + 0.5) out.push('tie ' + Math.round(b.left) + '..' + Math.round(b.right));
}
const rounds = [...document.querySelectorAll('section.bracket-round')].map(s => s.getBoundingClientRect());
for (let i = 1; i < rounds.length; i++) {
  if (rounds[i].top < rounds[i - 1].bottom - 0.5) out.push('round ' + (i + 1) + ' beside');
}
return {scroll: document.documentElement.scrollWidth, ties: document.querySelectorAll('.bracket-tie').length, out};
"""


def _card(user, match, home_points):
    results: dict[int, tuple[str, int]] = {}
    for game in match.games.order_by("board"):
        home = home_points[game.board - 1]
        home_white = game.white_id == match.home_id
        if home == 0.5:
            code = Result.DRAW
        else:
            code = Result.WHITE_WINS if (home == 1) == home_white else Result.BLACK_WINS
        results[game.pk] = (code, game.version)
    match_card_submit(match_id=match.pk, results=results, user=user, expected_version=match.version)


@pytest.fixture
def cup():
    event = EventFactory(kind=Event.Kind.TEAM, system=Event.System.KNOCKOUT, rounds_count=1, boards=4, slug="cup")
    for number in range(1, 13):
        team = TeamFactory(event=event, name=f"Schachgesellschaft Oberkirchen-Niederwald {number}")
        for board in range(1, 5):
            TeamMemberFactory(team=team, board_order=board)
        EntryFactory(event=event, start_number=number, player=None, team=team, rating=2400 - 10 * number)
    organiser = organiser_of(event.league)
    cup_draw(event=event, user=organiser, seeding="rating")
    for tie in CupTie.objects.filter(cup__event=event, match__isnull=False).order_by("position"):
        _card(organiser, tie.match, [1, 0.5, 0.5, 0] if tie.position == 2 else [1, 1, 0.5, 0])
    first = CupTie.objects.get(cup__event=event, round_number=2, position=1)  # made by round 1's last card
    _card(organiser, first.match, [1, 1, 1, 1])
    return event


@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_bracket_reads_on_a_phone(browser, live_server, cup, lang):
    phone(browser)
    load_axe_into_every_page(browser)
    browser.get(f"{live_server.url}/{lang}/events/{cup.slug}/bracket/")
    layout = browser.execute_script(LAYOUT)
    save_png(browser, f"cup-bracket-{lang}.png")
    assert layout["ties"] == 8 + 4 + 2 + 1
    assert layout["out"] == []
    assert layout["scroll"] <= WIDTH
    assert browser.find_element("css selector", "html").get_attribute("dir") == ("rtl" if lang == "he" else "ltr")
    assert axe_violations(browser) == []
