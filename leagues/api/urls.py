from django.urls import include, path, re_path
from rest_framework.routers import DefaultRouter

from . import (
    bulk_entry,
    cups,
    event_settings,
    events,
    exports,
    games_pgn,
    ranking_lists,
    rating_report,
    registration,
    removals,
    tiebreak_decisions,
    tokens,
    views,
    webhooks,
)

router = DefaultRouter()
router.register("leagues", views.LeagueViewSet)
router.register("seasons", views.SeasonViewSet)
router.register("clubs", views.ClubViewSet)
router.register("players", views.PlayerViewSet)
router.register("teams", views.TeamViewSet)
router.register("events", views.EventViewSet)
router.register("games", views.GameViewSet)
router.register("matches", views.TeamMatchViewSet)
router.register("webhooks", webhooks.WebhookViewSet, basename="webhook")

urlpatterns = [
    path("tokens/", tokens.TokenListView.as_view(), name="tokens"),
    path("tokens/<str:prefix>/", tokens.TokenDetailView.as_view(), name="token-detail"),
    path("events/<slug:slug>/standings/", views.StandingsView.as_view(), name="event-standings"),
    path("events/<slug:slug>/export.trf", exports.TrfExport.as_view(), name="event-trf"),
    path("events/<slug:slug>/export.json", exports.ChessJsonExport.as_view(), name="event-chess-json"),
    path("events/<slug:slug>/standings.csv", exports.StandingsCsv.as_view(), name="event-standings-csv"),
    path("events/<slug:slug>/standings.xlsx", exports.StandingsXlsx.as_view(), name="event-standings-xlsx"),
    path("events/<slug:slug>/crosstable.csv", exports.CrosstableCsv.as_view(), name="event-crosstable-csv"),
    path("events/<slug:slug>/crosstable.xlsx", exports.CrosstableXlsx.as_view(), name="event-crosstable-xlsx"),
    path("seasons/<str:pk>/bundle.zip", exports.SeasonBundle.as_view(), name="season-bundle"),
    path("", include("leagues.api.prizes")),
    path("", include("leagues.api.pairings")),
    path("", include(events.urlpatterns)),
    path("", include(games_pgn.urlpatterns)),
    path("", include(event_settings.urlpatterns)),
    path("", include(tiebreak_decisions.urlpatterns)),
    path("", include(rating_report.urlpatterns)),
    path("", include(cups.urlpatterns)),
    path("", include(removals.urlpatterns)),
    path("", include(bulk_entry.urlpatterns)),
    path("", include(registration.urlpatterns)),
    path("", include(ranking_lists.urlpatterns)),
    path("", include(router.urls)),
    re_path(r"^.*$", views.unknown_route),  # anything else under the API: a JSON 404, not the site's page
]
