"""Every game on the site (issue #34): the event's Chess-JSON export carries each game's PGN, the same text as the
game's own PGN download, read back by python-chess; a game played under a transmission delay leaks no move newer
than the delay, in the export as in the download; a team event's boards carry theirs too (the season's zip holds
the same Chess-JSON)."""

import io
import json
import zipfile
from datetime import timedelta
from pathlib import Path

import chess.pgn
import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import Event, Game, GamePgn, Result
from leagues.services.games import game_headers, pgn_attach, pgn_decode, pgn_put, transmission_delay_set
from tests.factories import (
    EntryFactory,
    EventFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    SeasonFactory,
    organiser_of,
)
from tests.helpers import played_division, present
from tests.pgn_event import event_from_pgn

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pgn"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

ANNOTATED = (
    '[White "Anderssen, Adolf"]\n[Black "Kieseritzky, Lionel"]\n[Result "1-0"]\n\n'
    "1. e4 {[%clk 1:59:58]} e5 2. f4 exf4 (2... d5 3. exd5) 3. Bc4 $1 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 1-0\n"
)


def read_one(text: str) -> chess.pgn.Game:
    stream = io.StringIO(text)
    game = chess.pgn.read_game(stream)
    assert game is not None and not game.errors and chess.pgn.read_game(stream) is None
    return game


def exported_pgn(client, slug) -> dict[tuple[int, int, int], str]:
    answer = client.get(f"/api/v1/events/{slug}/export.json")
    assert answer.status_code == 200
    (tournament,) = json.loads(answer.content)["event"]["tournaments"]
    return {(g["round"], g["white"]["cid"], g["black"]["cid"]): g["pgn"] for g in tournament["gameList"] if "pgn" in g}


def test_the_chess_json_export_carries_each_games_pgn_as_its_download_and_nothing_newer_than_the_delay():
    season = SeasonFactory()
    event = EventFactory(rounds_count=5, league=season.league, season=season, status=Event.Status.RUNNING)
    organiser = organiser_of(event.league)
    names = ["Anderssen, Adolf", "Kieseritzky, Lionel", "Ding, Liren", "Gukesh, D"]
    entries = [
        EntryFactory(event=event, start_number=n, player=PlayerFactory(name=name, fide_id=4100018 if n == 1 else None))
        for n, name in enumerate(names, start=1)
    ]
    rnd = RoundFactory(event=event, number=1)
    finished = GameFactory(round=rnd, board=1, white=entries[0], black=entries[1], result=Result.WHITE_WINS)
    live = GameFactory(round=rnd, board=2, white=entries[2], black=entries[3])
    pgn_attach(games=Game.objects.filter(pk=finished.pk), text=ANNOTATED, user=organiser)
    transmission_delay_set(event=event, minutes=15, user=organiser)
    now = timezone.now()
    for number, (moves, minutes_ago) in enumerate(
        (("1. d4", 40), ("1. d4 Nf6 2. c4", 20), ("1. d4 Nf6 2. c4 e6", 5)), 1
    ):
        pgn_put(game_id=live.pk, text=f"{moves} *", user=organiser)
        GamePgn.objects.filter(game=live, version=number).update(updated_at=now - timedelta(minutes=minutes_ago))
    Event.objects.filter(pk=event.pk).update(results_version=event.results_version + 1)  # renew the export's copy

    client = APIClient()
    exported = exported_pgn(client, event.slug)

    assert set(exported) == {(1, 1, 2), (1, 3, 4)}
    for key, game in (((1, 1, 2), finished), ((1, 3, 4), live)):
        download = client.get(f"/api/v1/games/{game.pk}/pgn/").content.decode()
        assert exported[key] == download
        read = read_one(exported[key])
        assert (read.headers["White"], read.headers["Black"], read.headers["Round"]) == (
            names[key[1] - 1],
            names[key[2] - 1],
            "1",
        )
    annotated = read_one(exported[(1, 1, 2)])
    assert annotated.headers["Result"] == "1-0" and annotated.headers["WhiteFideId"] == "4100018"
    assert [m.uci() for m in annotated.mainline_moves()][:3] == ["e2e4", "e7e5", "f2f4"]
    assert annotated is not None
    first = present(annotated.next())
    assert first.comment == "[%clk 1:59:58]" and len(present(present(first.next()).next()).variations) == 2
    delayed = read_one(exported[(1, 3, 4)])
    assert [m.uci() for m in delayed.mainline_moves()] == ["d2d4", "g8f6", "c2c4"]  # e6 of 5 minutes ago: not yet

    bundle = zipfile.ZipFile(io.BytesIO(client.get(f"/api/v1/seasons/{season.pk}/bundle.zip").content))
    (in_zip,) = json.loads(bundle.read(f"{event.slug}/{event.slug}.json"))["event"]["tournaments"]
    assert {g["pgn"] for g in in_zip["gameList"] if "pgn" in g} == set(exported.values())


def test_a_team_events_boards_carry_their_pgn_in_the_chess_json_export():
    event, _sides = played_division(2, boards=2)
    organiser = organiser_of(event.league)
    boards = list(Game.objects.filter(round__event=event).select_related("white_player", "black_player"))
    for game in boards:
        assert game.white_player is not None and game.black_player is not None
        text = f'[White "{game.white_player.name}"]\n[Black "{game.black_player.name}"]\n\n1. e4 e5 2. Nf3 1-0\n'
        pgn_attach(games=Game.objects.filter(pk=game.pk), text=text, user=organiser)
    Event.objects.filter(pk=event.pk).update(results_version=event.results_version + 1)

    client = APIClient()
    exported = exported_pgn(client, event.slug)

    assert len(exported) == 2
    downloads = {client.get(f"/api/v1/games/{game.pk}/pgn/").content.decode() for game in boards}
    assert set(exported.values()) == downloads
    for text in exported.values():
        read = read_one(text)
        assert read.headers["WhiteTeam"] and read.headers["BlackTeam"]
        assert [m.uci() for m in read.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]


def test_downloads_of_an_event_and_a_season_round_trip_real_annotated_files_through_python_chess_with_no_loss():
    """Two real files attached to two events of a season: the first 36 games of pychess's Dortmund file (the 1928
    tournament: Latin-1, CRLF, comments and NAGs) and the 1997 Kasparov–Deep Blue match. Every download of the
    events and the season (site and API) reads back through python-chess as the site's headers and the very
    moves, comments and NAGs stored."""
    season = SeasonFactory()
    dortmund = pgn_decode((FIXTURES / "dortmund-pychess.pgn").read_bytes())
    dortmund_1928 = dortmund[: dortmund.rindex("[Event ", 0, dortmund.index('[Date "1973'))]
    match = pgn_decode((FIXTURES / "kasparov-deep-blue-1997.pgn").read_bytes())
    events = []
    for text in (dortmund_1928, match):
        event = event_from_pgn(text, league=season.league, season=season)
        boards = Game.objects.filter(round__event=event)
        by_round: dict[int, int | None] = {
            game.round.number: game.pk for game in boards.select_related("round")
        }  # a match: one board
        decisions = by_round if text is match else {}  # the match's file names no round: the organiser decides
        pgn_attach(games=boards, text=text, user=organiser_of(event.league), decisions=decisions)
        events.append(event)
    stored = {
        (v.game.round.event.name, v.game.round.number, v.game.board): v
        for v in GamePgn.objects.select_related("game__round__event")
    }
    assert len(stored) == 36 + 6
    sites = {event.slug: f"/en/events/{event.slug}/games.pgn" for event in events}
    apis = {event.slug: f"/api/v1/events/{event.slug}/games.pgn" for event in events}
    season_downloads = [
        f"/en/leagues/{season.league.slug}/seasons/{season.slug}/games.pgn",
        f"/api/v1/seasons/{season.pk}/games.pgn",
    ]
    client = APIClient()
    for address in [*sites.values(), *apis.values(), *season_downloads]:
        answer = client.get(address)
        assert answer.status_code == 200, address
        stream, read = io.StringIO(answer.content.decode()), []
        while (game := chess.pgn.read_game(stream)) is not None:
            assert not game.errors, address
            read.append(game)
        first_event = address in (sites[events[0].slug], apis[events[0].slug])
        expected = 42 if address in season_downloads else (36 if first_event else 6)
        assert len(read) == expected, address
        for game in read:
            version = stored[(game.headers["Event"], int(game.headers["Round"]), int(game.headers["Board"]))]
            assert dict(game.headers) == game_headers(version.game), address
            game.headers["Result"] = "*"
            assert game.accept(chess.pgn.StringExporter(headers=False, columns=None)) == version.movetext, address
    colle = stored[(events[0].name, 1, 1)].movetext
    assert colle.startswith("{ Games of the first master tournament in Dortmund") and "$5" in colle
