"""REST API v1: clubs' ranking lists and players' licences, with the services of the pages.

* ``GET /teams/{id}/ranking-list/``: the team's list (its club's secretary and the league's organiser; everyone
  once the day the lists were due has passed); ``PUT`` the whole list in order (``players``: ids), as
  services.ranking_lists allows it on that day.
* ``GET /seasons/{id}/ranking-lists/``: every list of the season (the organiser; everyone once public).
* ``PUT /players/{id}/licence/``: the last day of a player's licence (the organiser or the player's club).
"""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import NotFound, PermissionDenied
from ..models import Event, RankingListEntry, Scope, Season, Team
from ..permissions import is_league_organiser
from ..services.league_rules import season_teams
from ..services.players import player_licence_set
from ..services.ranking_lists import can_edit, is_public, ranking_list, ranking_list_set
from .auth import TokenScope
from .serializers import ErrorSerializer


class RankingEntrySerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.public_name", read_only=True)

    class Meta:
        model = RankingListEntry
        fields = ("position", "player", "player_name", "nominated_on")


class RankingListSerializer(serializers.Serializer):
    team = serializers.IntegerField()
    team_name = serializers.CharField()
    event = serializers.CharField()
    entries = RankingEntrySerializer(many=True)


class RankingListInputSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=500)


class LicenceSerializer(serializers.Serializer):
    licence_until = serializers.DateField(allow_null=True)


def _answer(team: Team) -> dict:
    entries = RankingEntrySerializer(ranking_list(team), many=True).data
    return {"team": team.pk, "team_name": team.name, "event": team.event.slug, "entries": entries}


ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


class TeamRankingListView(APIView):
    def _team(self, team_id: int) -> Team:
        return get_object_or_404(Team.objects.select_related("event__season", "event__league"), pk=team_id)

    @extend_schema(responses={200: RankingListSerializer, **ERRORS}, operation_id="team_ranking_list")
    def get(self, request, team_id):
        """The team's ranking list in order, with the day each player was nominated."""
        team = self._team(team_id)
        if not (can_edit(request.user, team) or is_public(team.event.season)):
            raise PermissionDenied(_("The ranking lists are not public yet."))
        return Response(_answer(team))

    @extend_schema(
        request=RankingListInputSerializer,
        responses={200: RankingListSerializer, **ERRORS},
        operation_id="team_ranking_list_set",
    )
    def put(self, request, team_id):
        """Submit the whole list in order; after the day the lists were due only players added at its end."""
        body = RankingListInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        team = self._team(team_id)
        ranking_list_set(team=team, user=request.user, players=body.validated_data["players"])
        return Response(_answer(team))


class SeasonRankingListsView(APIView):
    @extend_schema(responses={200: RankingListSerializer(many=True), **ERRORS}, operation_id="season_ranking_lists")
    def get(self, request, season_id):
        """Every ranking list of the season: the league's organiser; everyone once the lists are public."""
        season = get_object_or_404(Season, pk=season_id)
        if not (is_league_organiser(request.user, season.league_id) or is_public(season)):
            raise PermissionDenied(_("The ranking lists are not public yet."))
        event = season.events.filter(kind=Event.Kind.TEAM).exclude(status=Event.Status.DRAFT).first()
        if event is None:
            raise NotFound(_("The season has no team event."))
        return Response([_answer(team) for team in season_teams(event) if team.event.status != Event.Status.DRAFT])


class PlayerLicenceView(APIView):
    permission_classes = (IsAuthenticated, TokenScope)
    required_scope = Scope.RESULTS

    @extend_schema(
        request=LicenceSerializer, responses={200: LicenceSerializer, **ERRORS}, operation_id="player_licence"
    )
    def put(self, request, player_id):
        """Set the last day of the player's licence (null: not on record)."""
        body = LicenceSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        player = player_licence_set(player_id=player_id, until=body.validated_data["licence_until"], user=request.user)
        return Response({"licence_until": player.licence_until})


urlpatterns = [
    path("teams/<int:team_id>/ranking-list/", TeamRankingListView.as_view(), name="team-ranking-list"),
    path("seasons/<int:season_id>/ranking-lists/", SeasonRankingListsView.as_view(), name="season-ranking-lists"),
    path("players/<int:player_id>/licence/", PlayerLicenceView.as_view(), name="player-licence"),
]
