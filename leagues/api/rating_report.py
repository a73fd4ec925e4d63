"""REST API v1: the FIDE rating report of a team league (leagues/services/rating_report_teams.py), the same report
and the same problems as the organiser's page: the season's games from every match card as one TRF-26 file, and
every problem a rating officer would send back with the page where it is fixed. Organisers only (birth years and
sex are in it): a token needs the organiser's scope, even to read it."""

from django.conf import settings
from django.urls import path
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import NotFound
from ..models import Event, Scope
from ..permissions import can_see_event
from ..services.rating_report_teams import team_rating_report, team_rating_report_trf
from .serializers import ErrorSerializer


class ReportProblemSerializer(serializers.Serializer):
    #: the machine codes, as the service names them (not translated: they are the API's words)
    code = serializers.CharField(
        help_text="no_arbiter, no_start_date, no_round_date, no_time_control, no_venue, no_rated_games, "
        "card_disputed, card_empty, card_not_confirmed, no_result, unknown_result, no_player, no_fide_id, "
        "no_federation, bad_federation, no_birth_year, no_sex or name_not_latin."
    )
    message = serializers.CharField()
    fix_url = serializers.CharField(help_text=gettext_lazy("The page where it is fixed."))
    fix_page = serializers.CharField(help_text=gettext_lazy("That page's name."))


class ReportPlayerSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text=gettext_lazy("The player's start number in the TRF file."))
    name = serializers.CharField()
    team = serializers.CharField()
    fide_id = serializers.IntegerField(allow_null=True)
    federation = serializers.CharField()
    title = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    birth_year = serializers.IntegerField(allow_null=True)
    sex = serializers.CharField()
    rated_games = serializers.IntegerField()


class ReportRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)


class TeamRatingReportSerializer(serializers.Serializer):
    event = serializers.CharField()
    rated_games = serializers.IntegerField(help_text=gettext_lazy("Games played over the board: FIDE rates them."))
    unplayed_boards = serializers.IntegerField(
        help_text=gettext_lazy("Boards won or lost by default: in the file as forfeits, not rated.")
    )
    team_byes = serializers.IntegerField()
    arbiters = serializers.ListField(
        child=serializers.CharField(), help_text=gettext_lazy("The chief arbiter first, then the deputies.")
    )
    rounds = ReportRoundSerializer(many=True)
    problems = ReportProblemSerializer(many=True)
    players = ReportPlayerSerializer(many=True)
    trf = serializers.CharField(help_text=gettext_lazy("The report as a TRF-26 file."))


class TeamRatingReportView(APIView):
    """The FIDE rating report of a team event: its problems, its players and its TRF-26 file."""

    read_scope = Scope.ORGANISER

    @extend_schema(
        responses={200: TeamRatingReportSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}
    )
    def get(self, request, slug):
        event = Event.objects.filter(slug=slug).select_related("league", "season").first()
        if event is None or not can_see_event(request.user, event):
            raise NotFound(gettext_lazy("There is no event %(slug)s.") % {"slug": slug}, code="unknown_event")
        report = team_rating_report(event=event, user=request.user)
        data = {
            "event": event.slug,
            "rated_games": report.rated_games,
            "unplayed_boards": report.unplayed_boards,
            "team_byes": report.team_byes,
            "arbiters": report.arbiters,
            "rounds": [{"number": number, "date": date} for number, date in report.rounds],
            "problems": [
                {
                    "code": p.code,
                    "message": p.message,
                    "fix_url": f"{settings.SITE_URL}{p.fix_url}",
                    "fix_page": p.fix_label,
                }
                for p in report.problems
            ],
            "players": [
                {
                    "number": row.number,
                    "name": row.player.name,
                    "team": row.team,
                    "fide_id": row.player.fide_id,
                    "federation": row.player.federation,
                    "title": row.player.title,
                    "rating": row.player.rating,
                    "birth_year": row.player.birth_date.year if row.player.birth_date else row.player.birth_year,
                    "sex": row.player.sex,
                    "rated_games": row.rated_games,
                }
                for row in report.players
            ],
            "trf": team_rating_report_trf(event=event, user=request.user),
        }
        return Response(TeamRatingReportSerializer(data).data)


urlpatterns = [
    path("events/<slug:slug>/rating-report/", TeamRatingReportView.as_view(), name="event-rating-report"),
]
