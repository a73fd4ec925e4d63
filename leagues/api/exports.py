"""Open data downloads of every public event and a season's bundle (read-only, anonymous, CORS-readable)."""

import json

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.views import APIView

from ..models import Event, Season
from ..services.exports import (
    crosstable_table,
    csv_text,
    event_chess_json,
    season_bundle,
    standings_table,
    xlsx_bytes,
)
from ..services.trf import event_export_trf
from .serializers import ErrorSerializer

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _download(body, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _public_event(slug: str) -> Event:
    event = Event.objects.public().filter(slug=slug).select_related("league").first()
    if event is None:
        raise NotFound()
    return event


def _binary(media_type: str, description: str):
    return extend_schema(
        responses={
            (200, media_type): OpenApiResponse(OpenApiTypes.BINARY, description=description),
            304: OpenApiResponse(description="Not modified"),
            404: ErrorSerializer,
        }
    )


class TrfExport(APIView):
    """Open data downloads of one public event: TRF, Chess-JSON, standings and crosstable as CSV and XLSX."""

    @_binary("text/plain", "The event as a TRF file (the tournament report format FIDE rates from).")
    def get(self, request, slug):
        event = _public_event(slug)
        return _download(event_export_trf(event=event), "text/plain; charset=utf-8", f"{slug}.trf")


class ChessJsonExport(APIView):
    @extend_schema(
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="The event in Chess-JSON (FIDE TEC)."),
            304: OpenApiResponse(description="Not modified"),
            404: ErrorSerializer,
        }
    )
    def get(self, request, slug):
        event = _public_event(slug)
        return _download(json.dumps(event_chess_json(event=event)), "application/json", f"{slug}.json")


class StandingsCsv(APIView):
    @_binary("text/csv", "The standings: rank, number, name, points and each tiebreak in order.")
    def get(self, request, slug):
        event = _public_event(slug)
        body = csv_text(standings_table(event=event), event.name)
        return _download(body, "text/csv; charset=utf-8", f"{slug}-standings.csv")


class StandingsXlsx(APIView):
    @_binary(XLSX, "The standings as a spreadsheet.")
    def get(self, request, slug):
        event = _public_event(slug)
        return _download(xlsx_bytes({"Standings": standings_table(event=event)}), XLSX, f"{slug}-standings.xlsx")


class CrosstableCsv(APIView):
    @_binary("text/csv", "The crosstable: each round as opponent number, colour and score.")
    def get(self, request, slug):
        event = _public_event(slug)
        body = csv_text(crosstable_table(event=event), event.name)
        return _download(body, "text/csv; charset=utf-8", f"{slug}-crosstable.csv")


class CrosstableXlsx(APIView):
    @_binary(XLSX, "The crosstable as a spreadsheet.")
    def get(self, request, slug):
        event = _public_event(slug)
        return _download(xlsx_bytes({"Crosstable": crosstable_table(event=event)}), XLSX, f"{slug}-crosstable.xlsx")


class SeasonBundle(APIView):
    """Every public event of one season in one zip, with a manifest."""

    @_binary("application/zip", "Every public event of the season: TRF, Chess-JSON, standings and crosstable.")
    def get(self, request, pk):
        season = Season.objects.filter(pk=int(pk) if pk.isascii() and pk.isdigit() and len(pk) < 10 else 0)
        season = season.select_related("league").first()
        if season is None:
            raise NotFound()
        return _download(season_bundle(season=season), "application/zip", f"{season.league.slug}-{season.slug}.zip")
