"""Every game on the site as PGN (issue #34): downloads of a game, a round, a match, an event and a season that
python-chess reads back with nothing lost; live boards written with PUT (a scoped token, If-Match, idempotent);
the organiser's transmission delay holding the moves back from every reader until the game ends; the game page
with its moves as a list; the game.pgn_updated webhook."""

import io
import json
from datetime import timedelta

import chess.pgn
import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import Game, GamePgn, Result, WebhookSubscription
from leagues.services.games import game_headers, pgn_attach, transmission_delay_set
from leagues.services.tokens import api_token_create
from tests.factories import (
    EntryFactory,
    EventFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    SeasonFactory,
    organiser_of,
)
from tests.helpers import team_match
from tests.webhooks import receiver, signature_is_valid

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

ANNOTATED = (
    '[White "Anderssen, Adolf"]\n[Black "Kieseritzky, Lionel"]\n[Result "1-0"]\n\n'
    "1. e4 {[%clk 1:59:58]} e5 2. f4 exf4 (2... d5 3. exd5) 3. Bc4 $1 Qh4+ 4. Kf1 b5 "
    "{the bishop is offered} 5. Bxb5 Nf6 1-0\n"
)


def board_of(name_white, name_black, *, fide=(None, None), **event_kwargs):
    event = EventFactory(rounds_count=5, **event_kwargs)
    event.season = SeasonFactory(league=event.league)
    event.save(update_fields=["season"])
    white = EntryFactory(event=event, start_number=1, player=PlayerFactory(name=name_white, fide_id=fide[0]))
    black = EntryFactory(event=event, start_number=2, player=PlayerFactory(name=name_black, fide_id=fide[1]))
    game = GameFactory(round=RoundFactory(event=event, number=1), board=1, white=white, black=black)
    return event, game


def read_all(text: str) -> list[chess.pgn.Game]:
    stream, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors
        games.append(game)
    return games


def test_every_download_reads_back_through_python_chess_with_the_sites_headers_and_every_move_and_comment():
    event, game = board_of("Anderssen, Adolf", "Kieseritzky, Lionel", fide=(4100018, None))
    Game.objects.filter(pk=game.pk).update(result=Result.WHITE_WINS, version=1)
    organiser = organiser_of(event.league)
    pgn_attach(games=Game.objects.filter(pk=game.pk), text=ANNOTATED, user=organiser)
    game.refresh_from_db()
    stored = GamePgn.objects.get(game=game).movetext
    season = event.season
    addresses = [
        f"/en/events/{event.slug}/games/{game.pk}.pgn",
        f"/en/events/{event.slug}/rounds/1.pgn",
        f"/en/events/{event.slug}/games.pgn",
        f"/en/leagues/{event.league.slug}/seasons/{season.slug}/games.pgn",
        f"/api/v1/games/{game.pk}/pgn/",
        f"/api/v1/events/{event.slug}/rounds/1/games.pgn",
        f"/api/v1/events/{event.slug}/games.pgn",
        f"/api/v1/seasons/{season.pk}/games.pgn",
    ]
    for address in addresses:
        answer = Client().get(address)
        assert answer.status_code == 200, address
        assert answer["Content-Type"].startswith("application/x-chess-pgn")
        (read,) = read_all(answer.content.decode())
        assert dict(read.headers) == game_headers(game) | {"Result": "1-0"}, address
        assert read.headers["WhiteFideId"] == "4100018" and read.headers["Board"] == "1"
        read.headers["Result"] = "*"
        assert read.accept(chess.pgn.StringExporter(headers=False, columns=None)) == stored, address
    assert "{ [%clk 1:59:58] }" in stored and "( 2... d5 3. exd5 )" in stored and "$1" in stored


def test_a_match_downloads_its_boards_with_the_teams():
    event, match, games, _secretaries = team_match(boards=2)
    organiser = organiser_of(event.league)
    white, black = games[0].white_player, games[0].black_player
    text = f'[White "{white.name}"]\n[Black "{black.name}"]\n\n1. d4 d5 *\n'
    pgn_attach(games=Game.objects.filter(match=match), text=text, user=organiser, decisions={})
    answer = Client().get(f"/api/v1/matches/{match.pk}/games.pgn")
    read = read_all(answer.content.decode())
    assert [g.headers["Board"] for g in read] == ["1", "2"]
    assert read[0].headers["WhiteTeam"] == games[0].white.team.name
    assert [m.uci() for m in read[0].mainline_moves()] == ["d2d4", "d7d5"]


def relay_and_reader(event, game):
    organiser = organiser_of(event.league)
    _, key = api_token_create(user=organiser, name="relay", scopes=["results"])
    relay = APIClient()
    relay.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return organiser, relay, APIClient()


def put(relay, game, pgn, etag=None):
    headers = {"HTTP_IF_MATCH": etag} if etag else {}
    return relay.put(f"/api/v1/games/{game.pk}/pgn/", {"pgn": pgn}, format="json", **headers)


def test_a_live_board_is_written_with_a_scoped_token_idempotently_and_a_stale_if_match_gets_412():
    event, game = board_of("Carlsen, Magnus", "Nakamura, Hikaru")
    organiser, relay, reader = relay_and_reader(event, game)

    first = put(relay, game, "1. e4 *")
    assert first.status_code == 200 and first["ETag"] == '"p1.0"'
    again = put(relay, game, "1. e4 *", etag='"p0.0"')  # a retry of the first PUT after its answer was lost
    assert again.status_code == 200 and again["ETag"] == '"p1.0"'  # the same moves again: no change
    second = put(relay, game, "1. e4 e5 *", etag=first["ETag"])
    assert second.status_code == 200 and second.json()["version"] == 2
    stale = put(relay, game, "1. e4 c5 *", etag=first["ETag"])
    assert stale.status_code == 412 and stale["ETag"] == '"p2.0"'
    illegal = put(relay, game, "1. e4 e5 2. Ke3 *", etag=second["ETag"])
    assert illegal.status_code == 400
    assert illegal.json()["message"] == "Game 1 (? – ?): move 2. Ke3 is not a legal move."
    bad_position = put(relay, game, '[FEN "not a position"]\n\n1. e4 *', etag=second["ETag"])
    assert bad_position.status_code == 400 and bad_position.json()["code"] == "bad_pgn"
    for not_pgn in ("{ the moves follow", "5"):  # python-chess reads no game in these: the moves stay
        assert put(relay, game, not_pgn, etag=second["ETag"]).status_code == 400
    _, read_only = api_token_create(user=organiser, name="reader", scopes=["read"])
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {read_only}")
    assert put(reader, game, "1. d4 *").status_code == 403
    assert GamePgn.objects.filter(game=game).count() == 2


def test_with_a_15_minute_delay_a_polling_reader_sees_nothing_newer_than_15_minutes_until_the_game_ends():
    event, game = board_of("Ding, Liren", "Gukesh, D")
    organiser, relay, reader = relay_and_reader(event, game)
    transmission_delay_set(event=event, minutes=15, user=organiser)
    now = timezone.now()
    moves = ["1. d4", "1. d4 Nf6", "1. d4 Nf6 2. c4", "1. d4 Nf6 2. c4 e6", "1. d4 Nf6 2. c4 e6 3. Nc3"]
    minutes_ago = [40, 30, 20, 10, 5]  # when each PUT arrived (stored, as the relay's PUTs are)
    etag, seen = None, []
    for number, (pgn, ago) in enumerate(zip(moves, minutes_ago, strict=True), start=1):
        assert put(relay, game, f"{pgn} *").status_code == 200
        GamePgn.objects.filter(game=game, version=number).update(updated_at=now - timedelta(minutes=ago))
        answer = reader.get(f"/api/v1/games/{game.pk}/pgn/", HTTP_IF_NONE_MATCH=etag or "")
        if answer.status_code == 304:
            continue
        etag = answer["ETag"]
        (read,) = read_all(answer.content.decode())
        seen.append(len(list(read.mainline_moves())))
    assert seen == [1, 2, 3]  # the moves of 10 and 5 minutes ago were never shown
    first_look = Client().get(f"/en/events/{event.slug}/games/{game.pk}/")
    page = first_look.content.decode()
    assert "<span>c4</span>" in page and "<span>e6</span>" not in page and 'data-live-region="moves"' in page
    polled = Client().get(f"/en/events/{event.slug}/games/{game.pk}/", HTTP_IF_NONE_MATCH=first_look["ETag"])
    assert polled.status_code == 304  # the page's live refresh asks with its ETag: nothing new shown yet
    assert "The moves are shown 15 minutes late while the game is played." in page
    (in_round,) = read_all(Client().get(f"/en/events/{event.slug}/rounds/1.pgn").content.decode())
    assert len(list(in_round.mainline_moves())) == 3

    assert put(relay, game, "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 1/2-1/2").status_code == 200  # the game ends
    (read,) = read_all(reader.get(f"/api/v1/games/{game.pk}/pgn/").content.decode())
    assert len(list(read.mainline_moves())) == 6


def test_the_game_page_lists_the_moves_and_the_round_page_links_each_result_to_its_game():
    event, game = board_of("Morphy, Paul", "Duke, Karl")
    Game.objects.filter(pk=game.pk).update(result=Result.WHITE_WINS, version=1)
    organiser = organiser_of(event.league)
    pgn_attach(games=Game.objects.filter(pk=game.pk), text="1. e4 e5 2. Nf3 d6 1-0", user=organiser)

    round_page = Client().get(f"/en/events/{event.slug}/rounds/1/").content.decode()
    assert f'href="/en/events/{event.slug}/games/{game.pk}/"' in round_page
    page = Client().get(f"/en/events/{event.slug}/games/{game.pk}/").content.decode()
    assert '<ol class="moves" dir="ltr"><li value="1"><span>e4</span> <span>e5</span></li>' in page
    assert '<li value="2"><span>Nf3</span> <span>d6</span></li></ol>' in page
    assert "data-live-region" not in page  # a finished game is not polled


def test_new_moves_reach_a_webhook_subscriber_as_game_pgn_updated(tmp_path):
    event, game = board_of("Tal, Mikhail", "Botvinnik, Mikhail")
    organiser, relay, _reader = relay_and_reader(event, game)
    with receiver(tmp_path) as hook:
        WebhookSubscription.objects.create(
            owner=organiser, url=hook.url, secret="whsec_pgn", events=["game.pgn_updated"], event=event
        )
        assert put(relay, game, "1. e4 *").status_code == 200
        sent = [r for r in hook.received() if r["headers"]["X-Chess-League-Event"] == "game.pgn_updated"]
    assert len(sent) == 1 and signature_is_valid("whsec_pgn", sent[0])
    data = json.loads(sent[0]["body"])["data"]
    assert data["game"] == game.pk and data["version"] == 1
