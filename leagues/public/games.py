"""A game's page (its moves as a list a screen reader reads move by move, following a live board, and a board to
step through them: lichess-pgn-viewer, vendored in static/vendor/, started by static/game-viewer.js from the page's
PGN) and the PGN downloads of a game, a round, a match, an event and a season. Every read keeps the event's
transmission delay: the board gets the same moves as the list."""

import io

import chess.pgn
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path

from ..models import Game, GamePgn, Season
from ..services.games import (
    game_finished,
    game_headers,
    game_pgn,
    games_pgn,
    games_with_moves,
    public_games,
    result_difference,
    shown_moves,
)
from .views import _event_context, _event_or_404

PGN_TYPE = "application/x-chess-pgn; charset=utf-8"


def _move_list(version: GamePgn | None) -> list[dict]:
    """The moves as numbered pairs: [{"number": 1, "white": "e4", "black": "e5"}, ...] (a game set up with Black
    to move starts with an empty white half)."""
    if version is None:
        return []
    text = version.movetext
    if version.start_fen:
        text = f'[FEN "{version.start_fen}"]\n[SetUp "1"]\n\n{text}'
    parsed = chess.pgn.read_game(io.StringIO(text))
    if parsed is None:
        return []
    board = parsed.board()
    pairs: list[dict] = []
    for move in parsed.mainline_moves():
        san = board.san(move)
        if board.turn == chess.WHITE:
            pairs.append({"number": board.fullmove_number, "white": san, "black": ""})
        elif not pairs:
            pairs.append({"number": board.fullmove_number, "white": "", "black": san})
        else:
            pairs[-1]["black"] = san
        board.push(move)
    return pairs


def _game_or_404(slug: str, pk: int) -> Game:
    game = games_with_moves(public_games().filter(round__event__slug=slug, pk=pk)).first()
    if game is None:
        raise Http404
    return game


def game_page(request, slug, pk):
    event = _event_or_404(slug)
    game = _game_or_404(slug, pk)
    shown = shown_moves(game)
    newest = next(iter(game.pgn_versions.all()), None)
    finished = game_finished(game, newest)
    delay = event.transmission.delay_minutes if hasattr(event, "transmission") else 0
    moves = _move_list(shown)
    pgn = game_pgn(game, shown) if moves else ""
    context = _event_context(
        event,
        round=game.round,
        game=game,
        headers=game_headers(game),
        moves=moves,
        pgn=pgn,
        clocks="[%clk" in pgn,
        difference=result_difference(game, shown.result) if shown and shown.result != "*" else "",
        delay=delay if not finished else 0,
        live=not finished,
    )
    return render(request, "leagues/game.html", context)


def _download(body: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=PGN_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def game_pgn_download(request, slug, pk):
    game = _game_or_404(slug, pk)
    return _download(game_pgn(game, shown_moves(game)), f"{slug}-game-{pk}.pgn")


def _games_or_404(games):
    if not games.exists():
        raise Http404
    return games


def round_pgn(request, slug, number):
    games = _games_or_404(public_games().filter(round__event__slug=slug, round__number=number))
    return _download(games_pgn(games), f"{slug}-round-{number}.pgn")


def match_pgn(request, slug, pk):
    games = _games_or_404(public_games().filter(round__event__slug=slug, match_id=pk))
    return _download(games_pgn(games), f"{slug}-match-{pk}.pgn")


def event_pgn(request, slug):
    games = _games_or_404(public_games().filter(round__event__slug=slug))
    return _download(games_pgn(games), f"{slug}.pgn")


def season_pgn(request, league, slug):
    season = get_object_or_404(Season, league__slug=league, slug=slug)
    return _download(games_pgn(public_games().filter(round__event__season=season)), f"{league}-{slug}.pgn")


urlpatterns = [
    path("events/<slug:slug>/games/<int:pk>/", game_page, name="game"),
    path("events/<slug:slug>/games/<int:pk>.pgn", game_pgn_download, name="game-pgn"),
    path("events/<slug:slug>/rounds/<int:number>.pgn", round_pgn, name="round-pgn"),
    path("events/<slug:slug>/matches/<int:pk>.pgn", match_pgn, name="match-pgn"),
    path("events/<slug:slug>/games.pgn", event_pgn, name="event-pgn"),
    path("leagues/<slug:league>/seasons/<slug:slug>/games.pgn", season_pgn, name="season-pgn"),
]
