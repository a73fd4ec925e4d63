from django.urls import path

from . import embed

app_name = "embed"
urlpatterns = [
    path("events/<slug:slug>/standings/", embed.embed_standings, name="standings"),
    path("events/<slug:slug>/results/", embed.embed_latest_results, name="results"),
    path("events/<slug:slug>/teams/<int:number>/fixtures/", embed.embed_team_fixtures, name="team-fixtures"),
]
