"""Open data downloads of every public event and a season's bundle (read-only, anonymous, CORS-readable), served from
the page cache and built by a worker (leagues/services/export_cache.py), under their own lower rate per address."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.views import APIView

from ..models import Season
from ..services.export_cache import XLSX, event_export, season_export
from .serializers import ErrorSerializer
from .throttling import AnonThrottle, ExportThrottle, UserThrottle

BEING_BUILT = OpenApiResponse(
    ErrorSerializer,
    description="No copy of this download is built yet (the first request after the site started, or after the"
    " cache was emptied): a worker builds it. Ask again after `Retry-After` seconds (`code: export_being_built`).",
)
THROTTLED = OpenApiResponse(
    ErrorSerializer,
    description="Too many downloads from this address (a lower rate than other reads): wait `Retry-After` seconds.",
)


def _schema(media_type: str, description: str, kind=OpenApiTypes.BINARY):
    return extend_schema(
        description="Served from a copy renewed with every result and new standings. While a newer copy is being"
        " built, the previous one is sent, marked `X-Export-Stale: true` with `Retry-After`; `X-Export-Built` says"
        " when the copy sent was built.",
        responses={
            (200, media_type): OpenApiResponse(kind, description=description),
            304: OpenApiResponse(description="Not modified"),
            404: ErrorSerializer,
            429: THROTTLED,
            503: BEING_BUILT,
        },
    )


class _EventExport(APIView):
    kind = ""
    throttle_classes = (AnonThrottle, UserThrottle, ExportThrottle)

    def get(self, request, slug):
        response = event_export(request, slug=slug, kind=self.kind)
        if response is None:
            raise NotFound()
        return response


class TrfExport(_EventExport):
    """Open data downloads of one public event: TRF, Chess-JSON, standings and crosstable as CSV and XLSX."""

    kind = "trf"

    @_schema("text/plain", "The event as a TRF file (the tournament report format FIDE rates from).")
    def get(self, request, slug):
        return super().get(request, slug)


class ChessJsonExport(_EventExport):
    kind = "json"

    @_schema(
        "application/json",
        "The event in Chess-JSON (FIDE TEC): its players, its games and matches by round, each game with its PGN"
        " (`pgn`), the same text as the game's own PGN download: while a game is played under the event's"
        " transmission delay, its moves as they were that many minutes ago.",
        OpenApiTypes.OBJECT,
    )
    def get(self, request, slug):
        return super().get(request, slug)


class StandingsCsv(_EventExport):
    kind = "standings-csv"

    @_schema("text/csv", "The standings: rank, number, name, points and each tiebreak in order.")
    def get(self, request, slug):
        return super().get(request, slug)


class StandingsXlsx(_EventExport):
    kind = "standings-xlsx"

    @_schema(XLSX, "The standings as a spreadsheet.")
    def get(self, request, slug):
        return super().get(request, slug)


class CrosstableCsv(_EventExport):
    kind = "crosstable-csv"

    @_schema("text/csv", "The crosstable: each round as opponent number, colour and score.")
    def get(self, request, slug):
        return super().get(request, slug)


class CrosstableXlsx(_EventExport):
    kind = "crosstable-xlsx"

    @_schema(XLSX, "The crosstable as a spreadsheet.")
    def get(self, request, slug):
        return super().get(request, slug)


class SeasonBundle(APIView):
    """Every public event of one season in one zip, with a manifest."""

    throttle_classes = (AnonThrottle, UserThrottle, ExportThrottle)

    @_schema("application/zip", "Every public event of the season: TRF, Chess-JSON, standings and crosstable.")
    def get(self, request, pk):
        season = (
            Season.objects.filter(pk=int(pk) if pk.isascii() and pk.isdigit() and len(pk) < 10 else 0)
            .select_related("league")
            .first()
        )
        if season is None:
            raise NotFound()
        return season_export(request, season=season)
