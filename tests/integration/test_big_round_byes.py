"""A round of more than 1,000 boards keeps its byes apart from its boards: an open of 2,005 players imported from
a TRF file has 1,002 boards in round 1 and the top seed's half-point bye (byes were stored on board 1000 + start
number: the top seed's bye on board 1,001, which such a round already has, and the import failed)."""

import pytest

from leagues.models import Game, Result
from leagues.services.start_numbers import BYE_BOARD
from leagues.services.trf import event_import_trf
from tests.factories import LeagueFactory, organiser_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

BOARDS = 1002
PLAYERS = 2 * BOARDS + 1  # the top seed asked for a half-point bye


def _line(number: int, game: str, points: str) -> str:
    player = f"{number:4d} m    {f'Player{number:04}, Test':<33} {2400 - number // 2:4d} NOR"
    return f"001 {player} {'':11} {'':10} {points:>4} {number:4d}  {game}"


def _file() -> bytes:
    lines = [
        "012 Big Open 2026",
        "042 2026/04/04",
        "052 2026/04/04",
        f"062 {PLAYERS}",
        "092 Individual: Swiss-System",
        "XXR 9",
    ]
    lines.append(_line(1, "0000 - H", "0.5"))
    for board in range(1, BOARDS + 1):
        white, black = 1 + board, 1 + BOARDS + board
        lines.append(_line(white, f"{black:4d} w 1", "1.0"))
        lines.append(_line(black, f"{white:4d} b 0", "0.0"))
    return ("\n".join(lines) + "\n").encode()


def test_an_open_of_2005_players_keeps_its_1002_boards_and_the_top_seeds_bye():
    league = LeagueFactory()
    event = event_import_trf(league=league, name="Big Open", slug="big-open", data=_file(), user=organiser_of(league))
    games = Game.objects.filter(round__event=event, round__number=1)
    boards = sorted(games.filter(black__isnull=False).values_list("board", flat=True))
    assert boards == list(range(1, BOARDS + 1))
    bye = games.get(black__isnull=True)
    assert bye.white is not None
    assert (bye.white.start_number, bye.board, bye.result) == (1, BYE_BOARD + 1, Result.HALF_POINT_BYE)
    assert bye.board > BOARDS
