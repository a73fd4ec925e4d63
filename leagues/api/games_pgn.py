"""The moves of games in the API: one game's PGN (read, and written by a live board with PUT), and the PGN of a
round, a match, an event and a season. Every read keeps the event's transmission delay."""

import re

from django.http import HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.parsers import BaseParser, JSONParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import Conflict
from ..models import Game, Scope, Season
from ..services.games import (
    game_pgn,
    games_pgn,
    games_with_moves,
    pgn_etag,
    pgn_put,
    public_games,
    result_difference,
    shown_moves,
)
from .auth import TokenScope
from .serializers import ErrorSerializer

PGN_TYPE = "application/x-chess-pgn"


class PgnParser(BaseParser):
    """A PUT's body as PGN text."""

    media_type = PGN_TYPE

    def parse(self, stream, media_type=None, parser_context=None):
        return {"pgn": stream.read().decode("utf-8-sig", errors="replace")}


class PgnWriteSerializer(serializers.Serializer):
    pgn = serializers.CharField(trim_whitespace=False, help_text="The game's moves so far as PGN (one game).")


class PgnWrittenSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The version of the moves; the ETag names it.")
    moves_result = serializers.CharField(help_text="The result the moves end with (* while the game runs).")
    difference = serializers.CharField(help_text="How the moves' result differs from the recorded one, or empty.")


def _pgn_answer(request, body: str, filename: str, etag: str | None = None) -> HttpResponse:
    if etag and request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
        response["ETag"] = etag
        return response
    response = HttpResponse(body, content_type=f"{PGN_TYPE}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    if etag:
        response["ETag"] = etag
    return response


def _pgn_schema(description: str, **extra):
    return extend_schema(
        responses={
            (200, PGN_TYPE): OpenApiResponse(OpenApiTypes.STR, description=description),
            304: OpenApiResponse(description="Not modified"),
            404: ErrorSerializer,
        },
        **extra,
    )


def _version_from_if_match(header: str | None) -> int | None:
    if not header:
        return None
    found = re.fullmatch(r'(?:W/)?"p(\d+)(?:\.\d+)?"', header.strip())
    if not found:
        raise ValidationError({"If-Match": [_('Expected the ETag of the game\'s moves, like "p3.1".')]})
    return int(found.group(1))


class GamePgnView(APIView):
    """One game's PGN: the site's headers and the moves as readers may see them now."""

    parser_classes = [JSONParser, PgnParser]

    def get_permissions(self):
        if self.request.method == "PUT":
            return [IsAuthenticated(), TokenScope()]
        return super().get_permissions()

    def _game(self, pk: int) -> Game:
        game = games_with_moves(public_games().filter(pk=pk)).first()
        if game is None:
            raise NotFound()
        return game

    @_pgn_schema("The game as PGN; while it runs under a transmission delay, the moves as they were that long ago.")
    def get(self, request, pk):
        game = self._game(pk)
        shown = shown_moves(game)
        return _pgn_answer(request, game_pgn(game, shown), f"game-{game.pk}.pgn", pgn_etag(game, shown))

    @extend_schema(
        request={"application/json": PgnWriteSerializer, PGN_TYPE: OpenApiTypes.STR},
        parameters=[
            OpenApiParameter(
                "If-Match",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="The ETag of the moves this change builds on; a stale one gets 412.",
            )
        ],
        responses={
            200: PgnWrittenSerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            404: ErrorSerializer,
            412: ErrorSerializer,
        },
    )
    def put(self, request, pk):
        """A live board's moves so far (the results scope, within your roles). Sending the same moves again changes
        nothing; an illegal move is refused with its move number."""
        body = PgnWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        expected = _version_from_if_match(request.headers.get("If-Match"))
        try:
            saved = pgn_put(game_id=pk, text=body.validated_data["pgn"], user=request.user, expected_version=expected)
        except Conflict as exc:
            current = exc.current
            game = Game.objects.get(pk=pk)
            return Response(
                {"code": exc.code, "message": exc.message},
                status=412,
                headers={"ETag": pgn_etag(game, current)},
            )
        game = saved.game
        data = {
            "game": game.pk,
            "version": saved.version,
            "moves_result": saved.result,
            "difference": result_difference(game, saved.result),
        }
        return Response(data, headers={"ETag": pgn_etag(game, saved)})

    required_scope = Scope.RESULTS


def _games_or_404(games):
    if not games.exists():
        raise NotFound()
    return games


class EventPgnView(APIView):
    @_pgn_schema("Every game of the event as PGN.")
    def get(self, request, slug):
        games = _games_or_404(public_games().filter(round__event__slug=slug))
        return _pgn_answer(request, games_pgn(games), f"{slug}.pgn")


class RoundPgnView(APIView):
    @_pgn_schema("Every game of one round as PGN.")
    def get(self, request, slug, number):
        games = _games_or_404(public_games().filter(round__event__slug=slug, round__number=number))
        return _pgn_answer(request, games_pgn(games), f"{slug}-round-{number}.pgn")


class MatchPgnView(APIView):
    @_pgn_schema("The boards of one team match as PGN.")
    def get(self, request, pk):
        games = _games_or_404(public_games().filter(match_id=pk))
        return _pgn_answer(request, games_pgn(games), f"match-{pk}.pgn")


class SeasonPgnView(APIView):
    @_pgn_schema("Every game of the season's public events as PGN.")
    def get(self, request, pk):
        season = Season.objects.filter(pk=pk).select_related("league").first()
        if season is None:
            raise NotFound()
        games = public_games().filter(round__event__season=season)
        return _pgn_answer(request, games_pgn(games), f"{season.league.slug}-{season.slug}.pgn")


urlpatterns = [
    path("games/<int:pk>/pgn/", GamePgnView.as_view(), name="game-pgn"),
    path("events/<slug:slug>/games.pgn", EventPgnView.as_view(), name="event-pgn"),
    path("events/<slug:slug>/rounds/<int:number>/games.pgn", RoundPgnView.as_view(), name="round-pgn"),
    path("matches/<int:pk>/games.pgn", MatchPgnView.as_view(), name="match-pgn"),
    path("seasons/<int:pk>/games.pgn", SeasonPgnView.as_view(), name="season-pgn"),
]
