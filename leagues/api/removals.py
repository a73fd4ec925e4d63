"""REST API v1: an organiser undoes a mistake (the organiser's scope), with the services of the pages
(leagues/services/removals.py): delete an event, club, player or entry without results, archive (retire) one
with results, or bring it back. A refusal (``has_results``: archive instead) changes nothing."""

from typing import ClassVar

from django.shortcuts import get_object_or_404
from django.urls import re_path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from ..models import Club, Entry, Event, League, ResultChange, Scope
from ..services import removals
from ..services.players import players_of_league
from .serializers import ErrorSerializer

API = ResultChange.Source.API


class RemovalAnswerSerializer(serializers.Serializer):
    done = serializers.ChoiceField(choices=["deleted", "archived", "restored"])


class _Removal(APIView):
    required_scope = Scope.ORGANISER
    responses: ClassVar[dict[int, type[serializers.Serializer]]] = {
        200: RemovalAnswerSerializer,
        400: ErrorSerializer,
        403: ErrorSerializer,
        404: ErrorSerializer,
    }


class EventRemovalView(_Removal):
    """Delete an event without results; with results the answer is 400 ``has_results`` (archive it)."""

    @extend_schema(request=None, responses=_Removal.responses, operation_id="event_delete_archive_restore")
    def post(self, request, slug, action):
        event = get_object_or_404(Event, slug=slug)
        if action == "delete":
            removals.event_delete(event=event, user=request.user, source=API)
            return Response({"done": "deleted"})
        removals.event_archive(event=event, user=request.user, archived=action == "archive", source=API)
        return Response({"done": "archived" if action == "archive" else "restored"})


class ClubRemovalView(_Removal):
    @extend_schema(request=None, responses=_Removal.responses, operation_id="club_delete_retire_restore")
    def post(self, request, slug, pk, action):
        league = get_object_or_404(League, slug=slug)
        club = get_object_or_404(Club, pk=pk, leagues=league)
        if action == "delete":
            removals.club_delete(league=league, club=club, user=request.user, source=API)
            return Response({"done": "deleted"})
        removals.club_retire(league=league, club=club, user=request.user, retired=action == "archive", source=API)
        return Response({"done": "archived" if action == "archive" else "restored"})


class PlayerRemovalView(_Removal):
    @extend_schema(request=None, responses=_Removal.responses, operation_id="player_delete_retire_restore")
    def post(self, request, slug, pk, action):
        league = get_object_or_404(League, slug=slug)
        player = get_object_or_404(players_of_league(league), pk=pk)
        if action == "delete":
            removals.player_delete(league=league, player=player, user=request.user, source=API)
            return Response({"done": "deleted"})
        removals.player_retire(league=league, player=player, user=request.user, retired=action == "archive", source=API)
        return Response({"done": "archived" if action == "archive" else "restored"})


class EntryRemovalView(_Removal):
    """Take a player without results off an event (before round 1); with results: 400 ``has_results``."""

    @extend_schema(request=None, responses=_Removal.responses, operation_id="entry_delete")
    def post(self, request, slug, start_number):
        entry = get_object_or_404(Entry.objects.select_related("event"), event__slug=slug, start_number=start_number)
        removals.entry_delete(entry=entry, user=request.user, source=API)
        return Response({"done": "deleted"})


ACTIONS = "(?P<action>(?:delete|archive|restore))"
urlpatterns = [
    re_path(rf"^events/(?P<slug>[-\w]+)/{ACTIONS}/$", EventRemovalView.as_view(), name="event-removal"),
    re_path(r"^events/(?P<slug>[-\w]+)/entries/(?P<start_number>\d+)/delete/$", EntryRemovalView.as_view()),
    re_path(rf"^leagues/(?P<slug>[-\w]+)/clubs/(?P<pk>\d+)/{ACTIONS}/$", ClubRemovalView.as_view()),
    re_path(rf"^leagues/(?P<slug>[-\w]+)/players/(?P<pk>\d+)/{ACTIONS}/$", PlayerRemovalView.as_view()),
]
