from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import tokens, views, webhooks

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
    path("", include("leagues.api.prizes")),
    path("", include("leagues.api.pairings")),
    path("", include(router.urls)),
]
