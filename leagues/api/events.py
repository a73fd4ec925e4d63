"""REST API v1: an organiser creates an event of their league (as a draft), with the same service as the new
event's form: the rule set and tiebreak order given, or the recommended order of its system."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tiebreaks.engine import RULE_SETS

from ..errors import NotFound
from ..models import Event, League, Scope, Season
from ..services.events import event_save
from .serializers import ErrorSerializer, EventSerializer

MAX_ROUNDS = 30


class EventCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=50)
    season = serializers.SlugField(
        required=False, allow_null=True, help_text=gettext_lazy("The address (slug) of one of the league's seasons.")
    )
    kind = serializers.ChoiceField(choices=Event.Kind.choices, default=Event.Kind.INDIVIDUAL)
    system = serializers.ChoiceField(choices=Event.System.choices, default=Event.System.SWISS)
    rounds_count = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS)
    starts_on = serializers.DateField(required=False, allow_null=True)
    venue = serializers.CharField(required=False, allow_blank=True, max_length=200)
    time_control = serializers.CharField(required=False, allow_blank=True, max_length=100)
    boards = serializers.IntegerField(required=False, min_value=1)
    primary_score = serializers.ChoiceField(choices=Event.PrimaryScore.choices, required=False)
    rule_set = serializers.ChoiceField(choices=sorted(RULE_SETS), required=False)
    tiebreak_criteria = serializers.ListField(
        child=serializers.CharField(max_length=30),
        required=False,
        max_length=20,
        help_text=gettext_lazy(
            'Criteria in order, e.g. ["BH/C1", "BH", "SB"]; empty or left out: the recommended order for the '
            "event's system, number of rounds and rule set."
        ),
    )


class LeagueEventsView(APIView):
    """Create an event of the league, as a draft (the organiser's scope)."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=EventCreateSerializer,
        responses={201: EventSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        league = get_object_or_404(League, slug=slug)
        given = EventCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        fields = dict(given.validated_data)
        if fields.get("season"):
            season = Season.objects.filter(league=league, slug=fields["season"]).first()
            if season is None:
                raise NotFound(
                    _("The league has no season “%(slug)s”.") % {"slug": fields["season"]}, code="unknown_season"
                )
            fields["season"] = season
        event = event_save(league=league, user=request.user, fields=fields)
        return Response(EventSerializer(event).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("leagues/<slug:slug>/events/", LeagueEventsView.as_view(), name="league-events"),
]
