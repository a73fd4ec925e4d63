"""REST API v1: a round's pairing of an individual event. Anyone reads the published boards with each
player's points before the round; the organiser (or the event's arbiter) also sees the pairing being
made, asks for it (a worker pairs the round: 202, then read again) and publishes it."""

from decimal import Decimal

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import NotFound
from ..models import Event, Game, RoundPairing, Scope
from ..permissions import can_manage_event
from ..services.round_pairings import (
    REQUESTED_BYES,
    Seat,
    last_paired_round,
    pairing_edit,
    pairing_publish,
    preview_byes,
    preview_rows,
    published_rows,
    round_pair,
)
from ..services.start_numbers import start_numbers_sort
from .fide_check import FideCheckView
from .serializers import EntrySerializer, ErrorSerializer


class SeatSerializer(serializers.Serializer):
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Rating at the start of the event."))
    points = serializers.CharField(help_text=gettext_lazy("Points before the round, as a decimal string."))
    colours = serializers.CharField(help_text=gettext_lazy("Colours of the games played so far, e.g. wbw."))


class PairingBoardSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    white = SeatSerializer()
    black = SeatSerializer(allow_null=True, help_text=gettext_lazy("null: the pairing-allocated bye."))
    result = serializers.CharField(allow_null=True, help_text=gettext_lazy("null until published."))


class PairingByeSerializer(serializers.Serializer):
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    result = serializers.CharField()


class RoundPairingSerializer(serializers.Serializer):
    event = serializers.CharField()
    round = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=RoundPairing.Status.values,
        allow_null=True,
        help_text=gettext_lazy("The organiser sees every status; others see only published (or null)."),
    )
    progress = serializers.IntegerField(help_text=gettext_lazy("Percent of the worker's pairing done."))
    problem = serializers.CharField(help_text=gettext_lazy("Why the round could not be paired."))
    system = serializers.CharField()
    changed_by_hand = serializers.BooleanField()
    boards = PairingBoardSerializer(many=True)
    byes = PairingByeSerializer(many=True)


#: the kinds of bye a bye set by hand or a requested bye is (the schema's ByeKindEnum)
BYE_KINDS = sorted(REQUESTED_BYES)


class EditByeSerializer(serializers.Serializer):
    start_number = serializers.IntegerField(min_value=1)
    kind = serializers.ChoiceField(choices=BYE_KINDS)


class RoundEditSerializer(serializers.Serializer):
    """The whole round by hand (before it is published): every player of the round exactly once."""

    boards = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=2, max_length=2),
        help_text=gettext_lazy("[white, black] start numbers, in board order."),
    )
    pab = serializers.IntegerField(
        min_value=1, allow_null=True, required=False, help_text=gettext_lazy("Who has the pairing-allocated bye.")
    )
    byes = EditByeSerializer(many=True, required=False)
    reason = serializers.CharField(max_length=300)


def _seat(seat: Seat | None) -> dict | None:
    if seat is None:
        return None
    return {
        "start_number": seat.entry.start_number,
        "name": seat.entry.name,
        "rating": seat.entry.rating,
        "points": str(Decimal(seat.points.numerator) / Decimal(seat.points.denominator)),
        "colours": seat.colours,
    }


def _event(slug: str, user) -> Event:
    # a team round robin has its schedule, a cup its draw
    robins = (Event.System.ROUND_ROBIN, Event.System.DOUBLE_ROUND_ROBIN, Event.System.KNOCKOUT)
    event = Event.objects.filter(slug=slug).exclude(kind=Event.Kind.TEAM, system__in=robins).first()
    if event is None or (event.status == Event.Status.DRAFT and not can_manage_event(user, event)):
        raise NotFound(gettext_lazy("There is no individual event %(slug)s.") % {"slug": slug}, code="unknown_event")
    return event


def pairing_data(event: Event, number: int, user) -> dict:
    pairing = RoundPairing.objects.filter(round__event=event, round__number=number).first()
    manager = can_manage_event(user, event)
    is_published = last_paired_round(event) >= number
    data = {
        "event": event.slug,
        "round": number,
        "status": None,
        "progress": 0,
        "problem": "",
        "system": "",
        "changed_by_hand": False,
        "boards": [],
        "byes": [],
    }
    if pairing is not None:
        data["system"] = pairing.system
        data["changed_by_hand"] = pairing.changed_by_hand
    if is_published:
        data["status"] = RoundPairing.Status.PUBLISHED
        data["boards"] = [
            {
                "board": r.number,
                "white": _seat(r.white),
                "black": _seat(r.black),
                "result": r.game.result if r.game else r.score,
            }
            for r in published_rows(event, number)
        ]
    if manager and pairing is not None and pairing.status != RoundPairing.Status.PUBLISHED:
        data.update(status=pairing.status, progress=pairing.progress, problem=pairing.problem)
        if pairing.status == RoundPairing.Status.READY:
            data["boards"] = [
                {"board": r.number, "white": _seat(r.white), "black": _seat(r.black), "result": None}
                for r in preview_rows(pairing)
            ]
            data["byes"] = [
                {"start_number": bye.seat.entry.start_number, "name": bye.seat.entry.name, "result": bye.result}
                for bye in preview_byes(pairing)
            ]
            return data
    byes = Game.objects.filter(round__event=event, round__number=number, black__isnull=True).exclude(result="bye:pab")
    shown = []
    for bye in byes.select_related("white__player").order_by("board"):
        if bye.white is None:
            raise RuntimeError("a bye's player is White")
        shown.append({"start_number": bye.white.start_number, "name": bye.white.name, "result": bye.result})
    data["byes"] = shown
    return data


class RoundPairingView(APIView):
    """A round's pairing: the published boards with points before the round (the organiser also sees
    the pairing being made); POST asks a worker to pair the round (organiser or arbiter)."""

    required_scope = Scope.ORGANISER  # a token pairs rounds only with the organiser scope

    @extend_schema(responses={200: RoundPairingSerializer, 404: ErrorSerializer})
    def get(self, request, slug, number):
        event = _event(slug, request.user)
        return Response(pairing_data(event, number, request.user), headers={"Cache-Control": "no-cache"})

    @extend_schema(
        request=None,
        responses={202: RoundPairingSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug, number):
        event = _event(slug, request.user)
        round_pair(event=event, round_number=number, user=request.user)
        return Response(pairing_data(event, number, request.user), status=status.HTTP_202_ACCEPTED)


class RoundPairingEditView(APIView):
    """Set the previewed round by hand, with a reason (audited): its boards, the pairing-allocated bye and
    the other byes. Refused (400, nothing saved) unless every player of the round is there exactly once."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=RoundEditSerializer,
        responses={200: RoundPairingSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug, number):
        event = _event(slug, request.user)
        pairing = get_object_or_404(RoundPairing, round__event=event, round__number=number)
        body = RoundEditSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        pairing_edit(
            pairing=pairing,
            boards=data["boards"],
            pab=data.get("pab"),
            byes=[(b["start_number"], b["kind"]) for b in data.get("byes", [])],
            reason=data["reason"],
            user=request.user,
        )
        return Response(pairing_data(event, number, request.user))


class RoundPairingPublishView(APIView):
    """Publish the round's previewed pairing: its boards become the round's games, open for results."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=None,
        responses={200: RoundPairingSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug, number):
        event = _event(slug, request.user)
        pairing = get_object_or_404(RoundPairing, round__event=event, round__number=number)
        pairing_publish(pairing=pairing, user=request.user)
        return Response(pairing_data(event, number, request.user))


class StartNumbersSortView(APIView):
    """Sort the event's start numbers by FIDE's initial ranking (rating, then title, then name) before
    round 1 is published (organiser or arbiter); refused (400, nothing changed) once it is. Answers the
    entries by their start numbers."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=None,
        responses={200: EntrySerializer(many=True), 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        event = _event(slug, request.user)
        entries = start_numbers_sort(event=event, user=request.user)
        return Response(EntrySerializer(entries, many=True).data)


# included from leagues/api/urls.py, so the pairing API lives in this one module (with the check of an event's
# pairings and tie-breaks by FIDE's tools)
urlpatterns = [
    path("events/<slug:slug>/fide-check/", FideCheckView.as_view(), name="event-fide-check"),
    path("events/<slug:slug>/start-numbers/sort/", StartNumbersSortView.as_view(), name="start-numbers-sort"),
    path("events/<slug:slug>/rounds/<int:number>/pairing/", RoundPairingView.as_view(), name="round-pairing"),
    path(
        "events/<slug:slug>/rounds/<int:number>/pairing/edit/",
        RoundPairingEditView.as_view(),
        name="round-pairing-edit",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/pairing/publish/",
        RoundPairingPublishView.as_view(),
        name="round-pairing-publish",
    ),
]
