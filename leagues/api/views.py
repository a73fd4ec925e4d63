"""REST API v1: everything readable anonymously, results writable with the same services as the forms."""

import hashlib
import json
from contextlib import nullcontext
from typing import ClassVar

from django.db import IntegrityError, connection, transaction
from django.db.models import Prefetch, Q, TextField
from django.db.models.functions import Cast
from django.http import HttpResponse
from django.utils.http import quote_etag
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action, api_view, permission_classes
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors
from ..errors import Conflict, ServiceError
from ..errors import NotFound as ServiceNotFound
from ..errors import PermissionDenied as ServicePermissionDenied
from ..models import (
    Club,
    Entry,
    Event,
    Game,
    IdempotentRequest,
    League,
    Player,
    ResultChange,
    Round,
    Season,
    StandingsSnapshot,
    Team,
    TeamMatch,
)
from ..page_cache import cached_page
from ..permissions import can_see_event
from ..services.league_rules import RulesBroken, card_check, explain, lineup_with_stored
from ..services.match_cards import match_card_actions, match_card_confirm, match_card_dispute, match_card_submit
from ..services.results import result_record
from . import serializers as s
from .auth import TokenScope
from .cursor import CursorOrOffset


class FilteredReadOnly(viewsets.ReadOnlyModelViewSet):
    """Read-only, with equality filters from the query string (`filters` maps parameter → lookup)."""

    filters: ClassVar[dict[str, str]] = {}
    integer_filters = frozenset({"round"})
    event_path: str | None = None  # the lookup of the row's event: rows of draft events are not shown

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.event_path:
            queryset = queryset.exclude(**{f"{self.event_path}__status": Event.Status.DRAFT})
        for param, lookup in self.filters.items():
            value = self.request.query_params.get(param)
            if value in (None, ""):
                continue
            if "\x00" in value:
                raise ValidationError({param: [_("Null characters are not allowed.")]})
            if param in self.integer_filters:
                if not value.isascii() or not value.isdigit() or len(value) > 6:
                    raise ValidationError({param: [_("Expected a whole number.")]})
                value = int(value)
            queryset = queryset.filter(**{lookup: value})
        return queryset


def _filter_parameters(*names):
    return extend_schema(
        parameters=[
            OpenApiParameter(name, int if name in FilteredReadOnly.integer_filters else str, required=False)
            for name in names
        ]
    )


@_filter_parameters()
class LeagueViewSet(FilteredReadOnly):
    """Leagues (organisations running seasons and events)."""

    queryset = League.objects.all()
    serializer_class = s.LeagueSerializer
    lookup_field = "slug"


@_filter_parameters("league")
class SeasonViewSet(FilteredReadOnly):
    """Seasons of a league."""

    queryset = Season.objects.select_related("league")
    serializer_class = s.SeasonSerializer
    filters: ClassVar[dict[str, str]] = {"league": "league__slug"}


@_filter_parameters("league")
class ClubViewSet(FilteredReadOnly):
    """Clubs."""

    queryset = Club.objects.all()
    serializer_class = s.ClubSerializer
    lookup_field = "slug"
    filters: ClassVar[dict[str, str]] = {"league": "leagues__slug"}


@_filter_parameters("club", "name")
class PlayerViewSet(FilteredReadOnly):
    """Players."""

    queryset = Player.objects.all()
    serializer_class = s.PlayerSerializer
    pagination_class = CursorOrOffset
    filters: ClassVar[dict[str, str]] = {"club": "clubs__slug", "name": "name__icontains"}

    def get_queryset(self):
        # a player entered only in draft events is not shown before the event is published
        drafted = Entry.objects.filter(event__status=Event.Status.DRAFT, player__isnull=False).values("player_id")
        shown = Entry.objects.exclude(event__status=Event.Status.DRAFT).filter(player__isnull=False).values("player_id")
        queryset = super().get_queryset().exclude(Q(pk__in=drafted) & ~Q(pk__in=shown))
        if self.request.query_params.get("name"):
            queryset = queryset.filter(anonymised=False)  # an anonymised player's name is not searchable
        return queryset


@_filter_parameters("event", "club")
class TeamViewSet(FilteredReadOnly):
    """Clubs' teams in team events, with their rosters in board order."""

    queryset = Team.objects.select_related("club", "event").prefetch_related("members")
    serializer_class = s.TeamSerializer
    filters: ClassVar[dict[str, str]] = {"event": "event__slug", "club": "club__slug"}
    event_path = "event"


@_filter_parameters("league", "season", "status", "kind")
class EventViewSet(FilteredReadOnly):
    """Published events: individual and team, Swiss and round robin."""

    queryset = Event.objects.public().select_related("league", "season")
    serializer_class = s.EventSerializer
    lookup_field = "slug"
    filters: ClassVar[dict[str, str]] = {
        "league": "league__slug",
        "season": "season__slug",
        "status": "status",
        "kind": "kind",
    }

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action == "list":  # an archived event is read at its address, not listed
            queryset = queryset.filter(archived=False)
        return queryset

    @extend_schema(responses=s.EntrySerializer(many=True))
    @action(detail=True)
    def entries(self, request, slug=None):
        """The event's participants by start number."""
        entries = Entry.objects.filter(event=self.get_object()).select_related("player", "team")
        return self._page(entries, s.EntrySerializer)

    @extend_schema(responses=s.RoundSerializer(many=True))
    @action(detail=True)
    def rounds(self, request, slug=None):
        """The event's rounds."""
        return self._page(Round.objects.filter(event=self.get_object()).select_related("event"), s.RoundSerializer)

    def _page(self, queryset, serializer_class):
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(serializer_class(page, many=True).data)


@_filter_parameters("event", "round")
class GameViewSet(FilteredReadOnly):
    """Games and byes with their result codes."""

    queryset = Game.objects.select_related("round__event", "white", "black")
    serializer_class = s.GameSerializer
    pagination_class = CursorOrOffset
    filters: ClassVar[dict[str, str]] = {"event": "round__event__slug", "round": "round__number"}
    event_path = "round__event"

    def retrieve(self, request, *args, **kwargs):
        response = super().retrieve(request, *args, **kwargs)
        response["ETag"] = quote_etag(f"v{response.data['version']}")
        return response

    @extend_schema(
        request=s.ResultWriteSerializer,
        parameters=[
            OpenApiParameter(
                "If-Match",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="The game's ETag; a stale one gets 412 with the current state.",
            ),
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="Retrying a POST with the same key returns the first answer.",
            ),
        ],
        responses={
            200: s.GameSerializer,
            400: s.ErrorSerializer,
            403: s.ErrorSerializer,
            404: s.ErrorSerializer,
            409: s.ErrorSerializer,
            412: s.ErrorSerializer,
            422: s.ErrorSerializer,
        },
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, TokenScope])
    def result(self, request, pk=None):
        """Record or correct a game's result (corrections need a reason)."""
        key = request.headers.get("Idempotency-Key", "").strip()
        if len(key) > IDEMPOTENCY_KEY_LENGTH or not key.isprintable():
            raise ValidationError(
                {"Idempotency-Key": [_("At most %(n)s printable characters.") % {"n": IDEMPOTENCY_KEY_LENGTH}]}
            )
        body = s.ResultWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        expected = _version_from_if_match(request.headers.get("If-Match"))
        try:
            # with a key, its record is saved in the result's transaction; without one, the service's own
            # transaction is the request's (no savepoint inside another)
            with transaction.atomic() if key else nullcontext():
                if key:  # a parallel retry with this key waits here for the first, then gets its answer
                    _lock_idempotency_key(request.user.pk, key)
                    replay = IdempotentRequest.objects.filter(user=request.user, key=key).first()
                    if replay:
                        return _replay(replay, request)
                game = result_record(
                    game_id=_int_or_404(pk),
                    result=body.validated_data["result"],
                    user=request.user,
                    source=ResultChange.Source.API,
                    expected_version=expected,
                    reason=body.validated_data.get("reason", ""),
                    later_pairing=body.validated_data.get("later_pairing", ""),
                )
                data = s.GameSerializer(game).data
                if key:
                    IdempotentRequest.objects.create(
                        user=request.user, key=key, fingerprint=_fingerprint(request), status=200, body=data
                    )
        except Conflict as exc:
            current = s.GameSerializer(exc.current).data
            return Response(
                {"code": exc.code, "message": exc.message, "current": current},
                status=status.HTTP_412_PRECONDITION_FAILED,
                headers={"ETag": f'"v{current["version"]}"'},
            )
        except IntegrityError:  # the same key raced in from a parallel retry: answer as it did
            return _replay(IdempotentRequest.objects.get(user=request.user, key=key), request)
        return Response(data, headers={"ETag": quote_etag(f"v{data['version']}")})


IDEMPOTENCY_KEY_LENGTH = 200


def _lock_idempotency_key(user_id: int, key: str) -> None:
    """Hold this user's key until the transaction ends (PostgreSQL; SQLite writes one at a time anyway)."""
    if connection.vendor != "postgresql":
        return
    number = int.from_bytes(hashlib.sha256(f"{user_id}:{key}".encode()).digest()[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [number])


def _int_or_404(pk):
    try:
        return int(pk)
    except (TypeError, ValueError):
        raise ServiceError(_("There is no game %(id)s.") % {"id": pk}, code="unknown_game") from None


def _fingerprint(request) -> str:
    return hashlib.sha256((request.path + json.dumps(request.data, sort_keys=True, default=str)).encode()).hexdigest()


def _replay(stored, request):
    if stored.fingerprint != _fingerprint(request):
        return Response(
            {"code": "idempotency_key_reused", "message": _("This Idempotency-Key was used for a different request.")},
            status=status.HTTP_422_UNPROCESSABLE_ENTITY,
        )
    return Response(stored.body, status=stored.status, headers={"Idempotent-Replay": "true"})


def _version_from_if_match(header):
    if not header:
        return None
    tag = header.strip().removeprefix("W/").strip('"')
    if not tag.startswith("v") or not tag[1:].isdecimal():
        raise ValidationError({"If-Match": [_('Expected the game\'s ETag, like "v3".')]})
    return int(tag[1:])


class StandingsView(APIView):
    """The latest standings snapshot of an event, with ETag / Last-Modified (304 when unchanged)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("explain", bool, required=False, description="Include every tiebreak's explanation trace.")
        ],
        responses={
            200: s.StandingsSerializer,
            304: OpenApiResponse(description="Not modified"),
            404: s.ErrorSerializer,
        },
    )
    def get(self, request, slug):
        explain = request.query_params.get("explain") in ("1", "true", "yes")
        return cached_page(
            slug=slug,
            name=f"api-standings-{int(explain)}",
            request=request,
            database_stamp=lambda: selectors.event_stamp(slug=slug),
            render=lambda: self._render(slug, explain),
            explained=explain,
        )

    def _render(self, slug, explain):
        event = (
            Event.objects.public()
            .filter(slug=slug)
            .values("pk", "slug", "rule_set", "tiebreak_criteria", "results_version")
            .first()
        )
        if event is None:
            raise NotFound()
        snapshots = StandingsSnapshot.objects.filter(event_id=event["pk"])
        meta = snapshots.values("version", "computed_at", "rules").first()
        version = meta["version"] if meta else 0
        # the stored JSON goes out as it is: no decoding and re-encoding of a 1,000-row table
        parts = {
            "rows": "[]",
            "notes": "[]",
            "criteria": json.dumps(event["tiebreak_criteria"]),
            "rules": json.dumps(event["rule_set"]),
        }
        fields = ["rows", "notes", "criteria"] + (["explanations"] if explain else [])
        if meta:
            stored = (
                snapshots.annotate(**{f"{f}_json": Cast(f, TextField()) for f in fields})
                .values(*(f"{f}_json" for f in fields))
                .first()
            )
            parts = {f: stored[f"{f}_json"] for f in fields} | {"rules": json.dumps(meta["rules"])}
            if explain:  # the compact traces read as they always did
                parts["explanations"] = selectors.explanations_text(parts["explanations"])
        elif explain:
            parts["explanations"] = "{}"
        head = {
            "event": event["slug"],
            "version": version,
            "results_version": event["results_version"],
            "being_updated": event["results_version"] > version,
            "computed_at": meta["computed_at"].isoformat().replace("+00:00", "Z") if meta else None,
        }
        body = json.dumps(head)[:-1] + "".join(f', "{key}": {value}' for key, value in parts.items()) + "}"
        return HttpResponse(body, content_type="application/json")


@_filter_parameters("event", "round")
class TeamMatchViewSet(FilteredReadOnly):
    """Team matches with their board games; secretaries submit, confirm and dispute match cards."""

    queryset = TeamMatch.objects.select_related("round__event", "home", "away").prefetch_related(
        "games__round__event", "games__white", "games__black"
    )
    serializer_class = s.TeamMatchSerializer
    filters: ClassVar[dict[str, str]] = {"event": "round__event__slug", "round": "round__number"}
    event_path = "round__event"

    @staticmethod
    def _card(pk: int) -> TeamMatch:
        """The card as stored now, read for its answer in two queries (the match with its round, event and sides,
        then its games with their sides, given the match's round), not one or more for each board."""
        games = Game.objects.select_related("white", "black")
        match = (
            TeamMatch.objects.select_related("round__event", "home", "away")
            .prefetch_related(Prefetch("games", queryset=games))
            .get(pk=pk)
        )
        for game in match.games.all():
            game.round = match.round
        return match

    def _answer(self, action, *, saved_boards: bool = False):
        """The card `action` returns, as stored now (`saved_boards`: the service returned it with its boards as saved,
        as match_card_submit does; otherwise read again)."""
        try:
            match = action()
        except Conflict as exc:
            current = s.TeamMatchSerializer(self._card(exc.current.pk)).data
            return Response(
                {"code": exc.code, "message": exc.message, "current": current},
                status=status.HTTP_412_PRECONDITION_FAILED,
            )
        except TeamMatch.DoesNotExist:
            raise ServiceNotFound(_("There is no such match."), code="unknown_match") from None
        return Response(s.TeamMatchSerializer(match if saved_boards else self._card(match.pk)).data)

    @extend_schema(
        request=s.MatchCardSerializer, responses={200: s.TeamMatchSerializer, 412: s.MatchConflictSerializer}
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, TokenScope])
    def card(self, request, pk=None):
        """Submit the card's board results (`version` = the card version you saw; corrections need a reason)."""
        body = s.MatchCardSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        results = {b["game"]: (b["result"], b["version"]) for b in data["boards"]}
        lineup = {b["board"]: (b["home_player"], b["away_player"]) for b in data.get("lineup", [])}
        saved: list[TeamMatch] = []

        def submit() -> TeamMatch:
            match = match_card_submit(
                match_id=_int_or_404(pk),
                results=results,
                user=request.user,
                expected_version=data["version"],
                reason=data.get("reason", ""),
                source=ResultChange.Source.API,
                later_pairing=data.get("later_pairing", ""),
                lineup=lineup or None,
            )
            saved.append(match)
            return match

        try:
            answer = self._answer(submit, saved_boards=True)
        except RulesBroken as exc:
            return Response(
                {"code": exc.code, "message": exc.message, "violations": explain(exc.violations)},
                status=status.HTTP_400_BAD_REQUEST,
            )
        if answer.status_code == 200:  # what the saved card still breaks (warnings, or the organiser's inbox)
            answer.data["rule_violations"] = explain(card_check(match=saved[0]))
        return answer

    @extend_schema(request=s.LineupCheckSerializer, responses={200: s.LineupCheckAnswerSerializer})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, TokenScope])
    def check(self, request, pk=None):
        """What a line-up (or the stored card, without one) breaks of the league's rules; nothing is saved."""
        body = s.LineupCheckSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        match = TeamMatch.objects.select_related("round__event", "home__team", "away__team").filter(pk=_int_or_404(pk))
        card = match.first()
        if card is None or not can_see_event(request.user, card.round.event):
            raise ServiceNotFound(_("There is no such match."), code="unknown_match")
        if "edit" not in match_card_actions(request.user, card):
            raise ServicePermissionDenied(_("You may not enter results for this match."))
        lineup = {b["board"]: (b["home_player"], b["away_player"]) for b in body.validated_data.get("lineup", [])}
        violations = card_check(match=card, lineup=lineup_with_stored(card, lineup))
        return Response({"blocked": any(v.blocks for v in violations), "violations": explain(violations)})

    @extend_schema(
        request=s.CardVersionSerializer, responses={200: s.TeamMatchSerializer, 412: s.MatchConflictSerializer}
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, TokenScope])
    def confirm(self, request, pk=None):
        """The other club's secretary (or the organiser) confirms a submitted card (`version` = the one you saw)."""
        body = s.CardVersionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self._answer(
            lambda: match_card_confirm(
                match_id=_int_or_404(pk), user=request.user, expected_version=body.validated_data["version"]
            )
        )

    @extend_schema(request=s.DisputeSerializer, responses={200: s.TeamMatchSerializer, 412: s.MatchConflictSerializer})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, TokenScope])
    def dispute(self, request, pk=None):
        """The other club's secretary disputes a submitted card, saying why (`version` = the one you saw)."""
        body = s.DisputeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self._answer(
            lambda: match_card_dispute(
                match_id=_int_or_404(pk),
                user=request.user,
                reason=body.validated_data["reason"],
                expected_version=body.validated_data["version"],
            )
        )


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@permission_classes([AllowAny])
def unknown_route(request):
    """Any API address that names nothing answers 404 in the API's error shape."""
    raise NotFound(_("There is no such address in the API."))
