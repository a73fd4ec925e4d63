"""A game's page shows its board (issue #34): lichess-pgn-viewer, vendored in static/vendor/, steps through a real
game (tests/fixtures/pgn/saric-vachier-lagrave-2022-clocks.pgn, a broadcast with a clock after every move) with
the arrow keys, Home and End; the pieces on the screen are the position python-chess reaches after the same moves,
the clocks are the PGN's, and nothing breaks the Content-Security-Policy. On the Hebrew page the board and its
moves stay left to right; on a phone (390 px) the board fits the screen. During a live round the board shows only
the moves the transmission delay lets through, and follows the game when more are let through, to its end.

Drives Debian's Chromium through chromedriver (the `browser` fixture of tests/e2e/conftest.py)."""

import io
from datetime import timedelta
from pathlib import Path

import chess
import chess.pgn
import pytest
from django.utils import timezone

from leagues.models import Event, Game, GamePgn, Result
from leagues.services.export_cache import renew_revealed
from leagues.services.games import pgn_attach, pgn_put, transmission_delay_set
from tests.e2e.browsing import wait
from tests.factories import EntryFactory, EventFactory, GameFactory, PlayerFactory, RoundFactory, organiser_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pgn" / "saric-vachier-lagrave-2022-clocks.pgn"
TEXT = FIXTURE.read_text(encoding="utf-8")

# Every listener is in place before the page's own scripts run: the policy's violations are collected.
CSP_LISTENER = (
    "window.cspViolations = [];"
    "document.addEventListener('securitypolicyviolation', function (e) {"
    "  window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI); });"
)
# The pieces as the screen shows them: each piece's square from its place on the board (a8 top left when White
# is at the bottom), as a placement FEN; pieces fading out after a capture are leaving and are left out.
SHOWN_PLACEMENT = """
const board = document.querySelector('.game-viewer cg-board');
if (!board) return null;
const box = board.getBoundingClientRect(), size = box.width / 8;
if (size < 1) return null;  // not laid out yet
const rows = Array.from({length: 8}, () => Array(8).fill(''));
const letters = {pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k'};
for (const piece of board.querySelectorAll('piece')) {
  if (piece.classList.contains('fading') || piece.classList.contains('ghost')) continue;
  const r = piece.getBoundingClientRect();
  const file = Math.round((r.left - box.left) / size), rank = Math.round((r.top - box.top) / size);
  if (!(file >= 0 && file < 8 && rank >= 0 && rank < 8)) return null;  // a piece still moving in
  const role = Object.keys(letters).find(name => piece.classList.contains(name));
  const letter = letters[role];
  rows[rank][file] = piece.classList.contains('white') ? letter.toUpperCase() : letter;
}
return rows.map(row => row.map(c => c || '1').join('').replace(/1+/g, ones => String(ones.length))).join('/');
"""


def positions() -> list[chess.Board]:
    """The position before the first move and after each move of the fixture's game."""
    game = chess.pgn.read_game(io.StringIO(TEXT))
    assert game is not None
    board = game.board()
    boards = [board.copy()]
    for move in game.mainline_moves():
        board.push(move)
        boards.append(board.copy())
    return boards


def first_plies(count: int) -> str:
    """The fixture's game cut after `count` half-moves, clocks kept, as a live board sends it."""
    game = chess.pgn.read_game(io.StringIO(TEXT))
    assert game is not None
    cut = chess.pgn.Game()
    node: chess.pgn.GameNode = cut
    for played in list(game.mainline())[:count]:
        node = node.add_variation(played.move, comment=played.comment)
    return cut.accept(chess.pgn.StringExporter(headers=False))


def game_with_players(status=Event.Status.FINISHED, result=Result.BLACK_WINS):
    event = EventFactory(rounds_count=19, status=status)
    white = EntryFactory(event=event, start_number=1, player=PlayerFactory(name="Saric, Ivan"))
    black = EntryFactory(event=event, start_number=2, player=PlayerFactory(name="Vachier-Lagrave, Maxime"))
    game = GameFactory(round=RoundFactory(event=event, number=1), board=1, white=white, black=black, result=result)
    return event, game


def open_game(browser, url):
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_LISTENER})
    browser.get(url)
    wait(browser, lambda d: d.execute_script(SHOWN_PLACEMENT))


def policy_kept(browser) -> bool:
    """No script, style or image was refused. The one refusal allowed is the viewer's icon font, embedded in its
    stylesheet as a data: URL (font-src is 'self' only): it draws the viewer's own buttons, which the page
    replaces with its own, so nothing on the screen needs it."""
    violations = browser.execute_script("return window.cspViolations")
    return [v for v in violations if v != "font-src data"] == []


def placement(board: chess.Board) -> str:
    return board.board_fen()


def shown(browser) -> str:
    return browser.execute_script(SHOWN_PLACEMENT)


def current_move(browser) -> str:
    script = "const m = document.querySelector('.lpv__moves move.current'); return m && m.textContent"
    return browser.execute_script(script)


def press(browser, *keys):
    for key in keys:
        browser.switch_to.active_element.send_keys(key)


def see(browser, board: chess.Board, move: str | None):
    wait(browser, lambda d: shown(d) == placement(board) and current_move(d) == move)


@pytest.mark.parametrize("lang", ["en", "he"])
def test_the_arrow_keys_step_through_a_real_game_on_the_board(browser, live_server, lang):
    from selenium.webdriver.common.keys import Keys

    event, game = game_with_players()
    pgn_attach(games=Game.objects.filter(pk=game.pk), text=TEXT, user=organiser_of(event.league))
    boards = positions()
    open_game(browser, f"{live_server.url}/{lang}/events/{event.slug}/games/{game.pk}/")

    see(browser, boards[0], None)  # a finished game opens on its start position
    browser.find_element("css selector", ".game-viewer .lpv__board").click()  # the board takes the keys
    press(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    see(browser, boards[3], "Nf3")
    status = browser.find_element("css selector", "[data-game-viewer-status]")
    assert status.get_attribute("textContent") == "2. Nf3"  # announced to a screen reader
    press(browser, Keys.ARROW_LEFT)
    see(browser, boards[2], "c5")
    assert status.get_attribute("textContent") == "1… c5"
    press(browser, Keys.END)
    see(browser, boards[-1], "a2")
    clocks = [c.text for c in browser.find_elements("css selector", ".lpv__player__clock")]
    assert sorted(clocks) == ["00:03", "00:14"]  # 62. Rg1 {0:00:03} 62... a2 {0:00:14}
    press(browser, Keys.HOME)
    see(browser, boards[0], None)

    # the buttons step too, and their names are in the page's language
    next_button = browser.find_element("css selector", '.game-viewer-controls button[data-go="next"]')
    assert next_button.get_attribute("aria-label") == {"en": "Next move", "he": "המסע הבא"}[lang]
    next_button.click()
    see(browser, boards[1], "e4")

    # board and moves left to right on the Hebrew page too: a1 bottom left (checked above), the moves' list ltr
    assert browser.execute_script("return document.documentElement.dir") == ("rtl" if lang == "he" else "ltr")
    assert browser.execute_script("return getComputedStyle(document.querySelector('.lpv')).direction") == "ltr"
    # the page's own list of moves is still there, as text, for a screen reader
    items = browser.find_elements("css selector", "ol.moves li")
    assert len(items) == 62 and items[0].text == "e4 c5" and items[-1].text == "Rg1 a2"
    assert policy_kept(browser)


def test_on_a_phone_the_board_fits_and_its_buttons_step(browser, live_server):
    event, game = game_with_players()
    pgn_attach(games=Game.objects.filter(pk=game.pk), text=TEXT, user=organiser_of(event.league))
    boards = positions()
    browser.set_window_size(390, 844)
    open_game(browser, f"{live_server.url}/he/events/{event.slug}/games/{game.pk}/")
    width = browser.execute_script("return document.documentElement.clientWidth")
    board = browser.execute_script("return document.querySelector('.game-viewer cg-board').getBoundingClientRect()")
    assert board["left"] >= 0 and board["right"] <= width and board["width"] >= 300
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width  # no sideways scrolling
    for _ in range(4):
        browser.find_element("css selector", '.game-viewer-controls button[data-go="next"]').click()
    see(browser, boards[4], "d6")
    browser.find_element("css selector", '.game-viewer-controls button[data-go="last"]').click()
    see(browser, boards[-1], "a2")
    browser.find_element("css selector", ".game-viewer-controls button[data-flip]").click()  # Black at the bottom
    turned = boards[-1].transform(chess.flip_vertical).transform(chess.flip_horizontal)
    wait(browser, lambda d: shown(d) == placement(turned))


# Every fetch of the page (static/live.js asks with it) waits until the test calls window.letAskingGo().
HOLD_THE_ASKING = """
(function () {
  var fetched = window.fetch, held = [];
  window.fetch = function () {
    var args = arguments;
    if (held === null) return fetched.apply(window, args);
    return new Promise(function (go) { held.push(go); }).then(function () { return fetched.apply(window, args); });
  };
  window.letAskingGo = function () { var waiting = held; held = null; waiting.forEach(function (go) { go(); }); };
})();
"""


def a_live_game_with_moves_held_back(browser, live_server):
    """A running game's page open on its first 20 half-moves, the next 20 held back by a 15-minute delay; the
    game, its organiser and the held-back PGN."""
    event, game = game_with_players(status=Event.Status.RUNNING, result=Result.PENDING)
    organiser = organiser_of(event.league)
    transmission_delay_set(event=event, minutes=15, user=organiser)
    pgn_put(game_id=game.pk, text=first_plies(20), user=organiser)
    GamePgn.objects.filter(game=game).update(updated_at=timezone.now() - timedelta(minutes=30))
    newer = pgn_put(game_id=game.pk, text=first_plies(40), user=organiser)  # held back for 15 minutes

    open_game(browser, f"{live_server.url}/en/events/{event.slug}/games/{game.pk}/")
    see(browser, positions()[20], "Nbd7")  # a live game opens on the newest move readers may see
    return game, organiser, newer


def let_through(newer) -> None:
    newer.updated_at = timezone.now() - timedelta(minutes=16)  # the delay has passed for the newer moves
    newer.save(update_fields=["updated_at"])
    renew_revealed(now=timezone.now() + timedelta(minutes=16))  # the sweep after the delay renews the event's pages


def test_a_live_board_shows_only_the_moves_the_delay_lets_through_and_follows_the_game(browser, live_server):
    game, organiser, newer = a_live_game_with_moves_held_back(browser, live_server)
    boards = positions()
    assert len(browser.find_elements("css selector", ".lpv__moves move:not(.empty)")) == 20
    assert len(browser.find_elements("css selector", "ol.moves li")) == 10

    let_through(newer)
    # the page asks every LIVE_REFRESH_SECONDS (static/live.js): a loaded machine may need a few asks before the
    # renewed page answers
    wait(browser, lambda d: shown(d) == placement(boards[40]) and current_move(d) == "Be5", timeout=130)
    assert len(browser.find_elements("css selector", ".lpv__moves move:not(.empty)")) == 40

    pgn_put(game_id=game.pk, text=TEXT, user=organiser)  # the game ends (0-1): no delay any more, every move
    wait(browser, lambda d: shown(d) == placement(boards[-1]) and current_move(d) == "a2", timeout=130)
    assert len(browser.find_elements("css selector", "ol.moves li")) == 62  # the list too, without a reload
    assert policy_kept(browser)


def test_moves_let_through_before_the_pages_first_ask_are_shown(browser, live_server):
    """The moves let through after the page was loaded and before its first ask for a newer one (a busy site, a slow
    network) are shown: the page does not take that change's ETag as its own (a HEAD asked at load did, and the
    page then never changed again: the 304s said it was current)."""
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOLD_THE_ASKING})
    _, _, newer = a_live_game_with_moves_held_back(browser, live_server)

    let_through(newer)
    browser.execute_script("window.letAskingGo()")
    wait(browser, lambda d: shown(d) == placement(positions()[40]) and current_move(d) == "Be5", timeout=130)


@pytest.mark.parametrize(("lang", "width"), [("en", 1280), ("he", 390)])
def test_the_board_passes_axe_wcag21_aa(browser, live_server, lang, width):
    from tests.e2e.test_accessibility import axe_violations, load_axe_into_every_page, set_width

    event, game = game_with_players()
    pgn_attach(games=Game.objects.filter(pk=game.pk), text=TEXT, user=organiser_of(event.league))
    browser.set_script_timeout(60)
    load_axe_into_every_page(browser)
    set_width(browser, width)
    open_game(browser, f"{live_server.url}/{lang}/events/{event.slug}/games/{game.pk}/")
    browser.find_element("css selector", '.game-viewer-controls button[data-go="last"]').click()
    see(browser, positions()[-1], "a2")
    failures = [(v["id"], [node["target"] for node in v["nodes"]][:3]) for v in axe_violations(browser)]
    assert failures == [], failures
