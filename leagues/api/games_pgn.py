"""The moves of games in the API: one game's PGN (read, and written by a live board with PUT), the PGN of a round,
a match, an event and a season, and a PGN of the event's games attached to its boards (POST; a big one by a worker,
followed at /pgn-imports/{id}/). Every read keeps the event's transmission delay."""

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
from ..models import Event, Game, GamePgn, PgnImportJob, Scope, Season
from ..services.games import (
    game_pgn,
    games_pgn,
    games_with_moves,
    pgn_attach,
    pgn_etag,
    pgn_preview,
    pgn_put,
    public_games,
    result_difference,
    shown_moves,
)
from ..services.pgn_jobs import pgn_job_for, pgn_job_progress, pgn_job_queue, pgn_runs_in_worker
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

    parser_classes = (JSONParser, PgnParser)

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


class PgnAttachSerializer(serializers.Serializer):
    pgn = serializers.CharField(trim_whitespace=False, help_text="The PGN of any number of the event's games.")
    decisions = serializers.DictField(
        child=serializers.IntegerField(allow_null=True),
        required=False,
        help_text="A game of the file that matches no board (its number in the file, from 1, as a string) → the id"
        " of the game (board) to attach it to, or null to leave it out.",
    )
    check = serializers.BooleanField(
        default=False, help_text="Only say which boards the games go to and which wait for a decision; attach none."
    )


class MatchedGameSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The game's place in the file, from 1.")
    game = serializers.IntegerField(help_text="The game (board) of the site it goes to.")
    difference = serializers.CharField(help_text="How the moves' result differs from the recorded one, or empty.")


class WaitingGameSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The game's place in the file, from 1.")
    round = serializers.IntegerField(allow_null=True, help_text="The round its Round header names, if any.")
    white = serializers.CharField()
    black = serializers.CharField()
    reason = serializers.CharField(help_text="Why no board was chosen for it.")


class PgnAttachedSerializer(serializers.Serializer):
    attached = serializers.IntegerField(help_text="How many games' moves were attached (each a new version).")
    games = serializers.ListField(child=serializers.IntegerField(), help_text="The games (boards) given moves.")
    matched = MatchedGameSerializer(many=True, help_text="With `check`: the games matched to a board.")
    unmatched = WaitingGameSerializer(many=True, help_text="With `check`: the games waiting for a decision.")


class PgnImportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=PgnImportJob.Status.choices)
    progress = serializers.IntegerField(help_text="Percent done.")
    games = serializers.IntegerField(help_text="Games read in the file.")
    matched = serializers.IntegerField(help_text="Games of the file matched to a board.")
    attached = serializers.IntegerField(help_text="Games whose moves were attached (status done).")
    unmatched = WaitingGameSerializer(many=True, help_text="Games waiting for a decision (status checked).")
    problem = serializers.CharField(help_text="Why nothing was attached (status failed).")


def _import_data(job: PgnImportJob) -> dict:
    progress = pgn_job_progress(job)
    fields = ("games", "matched", "attached", "unmatched", "problem")
    return {"id": job.pk, "status": progress["status"], "progress": progress["progress"]} | {
        name: getattr(job, name) for name in fields
    }


class EventPgnView(APIView):
    parser_classes = (JSONParser, PgnParser)
    required_scope = Scope.RESULTS

    def get_permissions(self):
        if self.request.method == "POST":
            return [IsAuthenticated(), TokenScope()]
        return super().get_permissions()

    @_pgn_schema("Every game of the event as PGN.")
    def get(self, request, slug):
        games = _games_or_404(public_games().filter(round__event__slug=slug))
        return _pgn_answer(request, games_pgn(games), f"{slug}.pgn")

    @extend_schema(
        request={"application/json": PgnAttachSerializer, PGN_TYPE: OpenApiTypes.STR},
        responses={
            200: OpenApiResponse(PgnAttachedSerializer, description="Attached (with `check`: nothing, the plan)."),
            202: OpenApiResponse(PgnImportSerializer, description="A big file, handed to a worker: follow Location."),
            400: ErrorSerializer,
            403: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def post(self, request, slug):
        """Attach a PGN of the event's games to its boards (the results scope, within your roles): each game goes to
        the board of its players (FIDE ids, else names), the round and board settling several. A game matching no
        board refuses the whole file (`decision_needed`) unless `decisions` names its board or leaves it out; an
        illegal move refuses it naming the move; nothing is half attached. A file longer than the site's threshold
        is read by a worker: the answer is 202 with the import's address (`Location`), whose `status` ends `done`,
        `checked` (games waiting for a decision: send the file again with `decisions`) or `failed`."""
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise NotFound()
        body = PgnAttachSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        text, check = body.validated_data["pgn"], body.validated_data["check"]
        decisions = {}
        for number, game in body.validated_data.get("decisions", {}).items():
            if not str(number).isdecimal():
                raise ValidationError({"decisions": [_("Name each game by its number in the file.")]})
            decisions[int(number)] = game
        games = Game.objects.filter(round__event=event)
        if pgn_runs_in_worker(text):
            job = pgn_job_queue(
                event=event,
                user=request.user,
                text=text,
                source=GamePgn.Source.API,
                confirmed=not check,
                decisions=decisions,
            )
            address = f"/api/v1/pgn-imports/{job.pk}/"
            return Response(_import_data(job), status=202, headers={"Location": address})
        if check:
            plan = pgn_preview(games=games, text=text, user=request.user)
            matched = [
                {"number": m.file_game.number, "game": m.game.pk, "difference": m.difference} for m in plan.matched
            ]
            unmatched = [
                {
                    "number": u.file_game.number,
                    "round": u.file_game.round,
                    "white": u.file_game.white,
                    "black": u.file_game.black,
                    "reason": u.reason,
                }
                for u in plan.unmatched
            ]
            return Response({"attached": 0, "games": [], "matched": matched, "unmatched": unmatched})
        saved = pgn_attach(games=games, text=text, user=request.user, decisions=decisions, source=GamePgn.Source.API)
        attached = [version.game_id for version in saved]
        return Response({"attached": len(attached), "games": attached, "matched": [], "unmatched": []})


class PgnImportView(APIView):
    permission_classes = (IsAuthenticated, TokenScope)

    @extend_schema(responses={200: PgnImportSerializer, 404: ErrorSerializer})
    def get(self, request, pk):
        """A big PGN file of an event sent with POST: the worker's progress, then what it attached, which games wait
        for a decision, or why nothing was attached."""
        job = pgn_job_for(user=request.user, job_id=pk)
        if job is None:
            raise NotFound()
        return Response(_import_data(job))


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
    path("pgn-imports/<int:pk>/", PgnImportView.as_view(), name="pgn-import"),
    path("events/<slug:slug>/rounds/<int:number>/games.pgn", RoundPgnView.as_view(), name="round-pgn"),
    path("matches/<int:pk>/games.pgn", MatchPgnView.as_view(), name="match-pgn"),
    path("seasons/<int:pk>/games.pgn", SeasonPgnView.as_view(), name="season-pgn"),
]
