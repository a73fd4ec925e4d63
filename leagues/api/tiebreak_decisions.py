"""REST API v1: orders of players still tied after the whole tie-break list, each with its reason (FIDE's 2026
checklist Q205/207), and play-off games deciding places before the tie-breaks, by the manage pages' service
(services/tiebreak_decisions.py). A refused order (players the
list separates, a tie not named whole, no reason) answers 400 with the service's code and changes nothing."""

from django.urls import path
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from ..models import Event, ResultChange, Scope
from ..services.tiebreak_decisions import (
    DECIDED_BY,
    PLAYOFF_RESULTS,
    entry_ids_of_numbers,
    external_value_remove,
    external_value_set,
    playoff_game_add,
    playoff_game_remove,
    tied_order_remove,
    tied_order_set,
    ties_left,
)
from .event_settings import _managed_event
from .serializers import ErrorSerializer


class TiedOrderSerializer(serializers.Serializer):
    number = serializers.IntegerField(read_only=True, help_text=gettext_lazy("The decision's number (1 = first)."))
    start_numbers = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=2,
        help_text=gettext_lazy("Every player of the tie, by start number, first to last."),
    )
    decided_by = serializers.ChoiceField(choices=list(DECIDED_BY))
    reason = serializers.CharField(max_length=300, help_text=gettext_lazy("Why: shown publicly."))
    on = serializers.CharField(read_only=True, help_text=gettext_lazy("The date it was recorded."))
    who = serializers.CharField(read_only=True, help_text=gettext_lazy("Who recorded it."))


class TiedOrdersSerializer(serializers.Serializer):
    decisions = TiedOrderSerializer(many=True)
    ties = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text=gettext_lazy("The groups of players sharing a place now, by start number."),
    )


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300)


def _data(event: Event) -> dict:
    numbers = dict(event.entries.values_list("id", "start_number"))
    return {
        "decisions": [
            {
                "number": number,
                "start_numbers": [numbers[e] for e in d["entries"] if e in numbers],
                "decided_by": d.get("by", ""),
                "reason": d.get("reason", ""),
                "on": d.get("on", ""),
                "who": d.get("who", ""),
            }
            for number, d in enumerate(event.tiebreak_decisions or [], start=1)
        ],
        "ties": [[entry.start_number for entry in group] for group in ties_left(event)],
    }


class TiedOrdersView(APIView):
    """The event's orders of players still tied and the ties left (GET); a new order (POST, the organiser's
    scope): every player of one tie, first to last, who decided and why."""

    required_scope = Scope.ORGANISER

    @extend_schema(responses={200: TiedOrdersSerializer, 403: ErrorSerializer, 404: ErrorSerializer})
    def get(self, request, slug):
        return Response(_data(_managed_event(slug, request.user)))

    @extend_schema(
        request=TiedOrderSerializer,
        responses={201: TiedOrdersSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        event = _managed_event(slug, request.user)
        given = TiedOrderSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        event = tied_order_set(
            event_id=event.pk,
            entry_ids=entry_ids_of_numbers(event, data["start_numbers"]),
            reason=data["reason"],
            decided_by=data["decided_by"],
            user=request.user,
            source=ResultChange.Source.API,
        )
        return Response(_data(event), status=201)


class TiedOrderView(APIView):
    """Withdraw one order, with a reason (DELETE): its players are tied again."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=ReasonSerializer,
        responses={200: TiedOrdersSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def delete(self, request, slug, number):
        event = _managed_event(slug, request.user)
        given = ReasonSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        event = tied_order_remove(
            event_id=event.pk,
            number=number,
            user=request.user,
            reason=given.validated_data["reason"],
            source=ResultChange.Source.API,
        )
        return Response(_data(event))


class PlayoffGameSerializer(serializers.Serializer):
    place = serializers.IntegerField(min_value=1, help_text=gettext_lazy("The place the play-off decides (1 = first)."))
    number = serializers.IntegerField(read_only=True, help_text=gettext_lazy("The game's number in its play-off."))
    white = serializers.IntegerField(min_value=1, help_text=gettext_lazy("White's start number."))
    black = serializers.IntegerField(min_value=1, help_text=gettext_lazy("Black's start number."))
    result = serializers.ChoiceField(choices=list(PLAYOFF_RESULTS))
    armageddon = serializers.BooleanField(
        required=False, default=False, help_text=gettext_lazy("true: a draw counts as a win for Black.")
    )


class PlayoffsSerializer(serializers.Serializer):
    games = PlayoffGameSerializer(many=True)


def _playoffs_data(event: Event) -> dict:
    numbers = dict(event.entries.values_list("id", "start_number"))
    return {
        "games": [
            {
                "place": playoff["place"],
                "number": number,
                "white": numbers.get(g["white"]),
                "black": numbers.get(g["black"]),
                "result": g["result"],
                "armageddon": bool(g.get("armageddon")),
            }
            for playoff in event.playoffs or []
            for number, g in enumerate(playoff["games"], start=1)
        ]
    }


class PlayoffsView(APIView):
    """The event's play-off games (GET); a new one (POST, the organiser's scope) between two players tied on points
    for the place it decides. They are not rounds: they count for no points and no tie-break."""

    required_scope = Scope.ORGANISER

    @extend_schema(responses={200: PlayoffsSerializer, 403: ErrorSerializer, 404: ErrorSerializer})
    def get(self, request, slug):
        return Response(_playoffs_data(_managed_event(slug, request.user)))

    @extend_schema(
        request=PlayoffGameSerializer,
        responses={201: PlayoffsSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        event = _managed_event(slug, request.user)
        given = PlayoffGameSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        white, black = entry_ids_of_numbers(event, [data["white"], data["black"]])
        event = playoff_game_add(
            event_id=event.pk,
            place=data["place"],
            white_id=white,
            black_id=black,
            result=data["result"],
            armageddon=data["armageddon"],
            user=request.user,
            source=ResultChange.Source.API,
        )
        return Response(_playoffs_data(event), status=201)


class PlayoffGameView(APIView):
    """Delete one play-off game entered wrongly, with a reason (DELETE)."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=ReasonSerializer,
        responses={200: PlayoffsSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def delete(self, request, slug, place, number):
        event = _managed_event(slug, request.user)
        given = ReasonSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        event = playoff_game_remove(
            event_id=event.pk,
            place=place,
            number=number,
            user=request.user,
            reason=given.validated_data["reason"],
            source=ResultChange.Source.API,
        )
        return Response(_playoffs_data(event))


class ExternalValueSerializer(serializers.Serializer):
    number = serializers.IntegerField(read_only=True, help_text=gettext_lazy("The value's number (1 = first)."))
    start_number = serializers.IntegerField(min_value=1)
    criterion = serializers.CharField(max_length=30, help_text=gettext_lazy("A tie-break of the event's list."))
    value = serializers.CharField(max_length=20, help_text=gettext_lazy("A number, e.g. 12.5 or 25/2."))
    decided_by = serializers.ChoiceField(choices=list(DECIDED_BY))
    reason = serializers.CharField(max_length=300, help_text=gettext_lazy("Why: shown publicly."))
    on = serializers.CharField(read_only=True, help_text=gettext_lazy("The date it was recorded."))
    who = serializers.CharField(read_only=True, help_text=gettext_lazy("Who recorded it."))


class ExternalValuesSerializer(serializers.Serializer):
    values = ExternalValueSerializer(many=True)


def _external_data(event: Event) -> dict:
    numbers = dict(event.entries.values_list("id", "start_number"))
    return {
        "values": [
            {
                "number": number,
                "start_number": numbers.get(v["entry"]),
                "criterion": v["criterion"],
                "value": v["value"],
                "decided_by": v.get("by", ""),
                "reason": v.get("reason", ""),
                "on": v.get("on", ""),
                "who": v.get("who", ""),
            }
            for number, v in enumerate(event.tiebreak_external or [], start=1)
        ]
    }


class ExternalValuesView(APIView):
    """The event's tie-break values set from outside the computation (GET); a new one (POST, the organiser's
    scope): a player's value of one tie-break of the list, who decided and why. It replaces the computed value."""

    required_scope = Scope.ORGANISER

    @extend_schema(responses={200: ExternalValuesSerializer, 403: ErrorSerializer, 404: ErrorSerializer})
    def get(self, request, slug):
        return Response(_external_data(_managed_event(slug, request.user)))

    @extend_schema(
        request=ExternalValueSerializer,
        responses={201: ExternalValuesSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        event = _managed_event(slug, request.user)
        given = ExternalValueSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        (entry_id,) = entry_ids_of_numbers(event, [data["start_number"]])
        event = external_value_set(
            event_id=event.pk,
            entry_id=entry_id,
            criterion=data["criterion"],
            value=data["value"],
            reason=data["reason"],
            decided_by=data["decided_by"],
            user=request.user,
            source=ResultChange.Source.API,
        )
        return Response(_external_data(event), status=201)


class ExternalValueView(APIView):
    """Withdraw one value set from outside, with a reason (DELETE): the computed value counts again."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=ReasonSerializer,
        responses={200: ExternalValuesSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def delete(self, request, slug, number):
        event = _managed_event(slug, request.user)
        given = ReasonSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        event = external_value_remove(
            event_id=event.pk,
            number=number,
            user=request.user,
            reason=given.validated_data["reason"],
            source=ResultChange.Source.API,
        )
        return Response(_external_data(event))


urlpatterns = [
    path("events/<slug:slug>/tied-orders/", TiedOrdersView.as_view(), name="event-tied-orders"),
    path("events/<slug:slug>/tied-orders/<int:number>/", TiedOrderView.as_view(), name="event-tied-order"),
    path("events/<slug:slug>/playoffs/", PlayoffsView.as_view(), name="event-playoffs"),
    path("events/<slug:slug>/external-values/", ExternalValuesView.as_view(), name="event-external-values"),
    path("events/<slug:slug>/external-values/<int:number>/", ExternalValueView.as_view(), name="event-external-value"),
    path("events/<slug:slug>/playoffs/<int:place>/<int:number>/", PlayoffGameView.as_view(), name="event-playoff-game"),
]
