from django.urls import include, path

from . import calendar, cups, follows, games, league_rules, pairings, prizes, registration, views

app_name = "leagues"
urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/", views.clubs, name="clubs"),
    path("players/", views.player_search, name="player-search"),
    path("players/<int:pk>/", views.player_profile, name="player-profile"),
    path("players/<int:pk>/initials/", views.player_anonymise, name="player-anonymise"),
    path("clubs/<slug:slug>/", views.club, name="club"),
    path("clubs/<slug:slug>/fixtures.ics", calendar.club_fixtures_ics, name="club-ics"),
    path("events/<slug:slug>/rounds.ics", calendar.event_rounds_ics, name="event-ics"),
    path("events/<slug:slug>/teams/<int:number>/fixtures.ics", calendar.team_fixtures_ics, name="team-ics"),
    path("leagues/<slug:league>/seasons/<slug:slug>/", views.season, name="season"),
    path("events/<slug:slug>/", cups.event_standings_or_bracket, name="event-standings"),  # a cup's: its bracket
    path("events/<slug:slug>/bracket/", cups.event_bracket, name="event-bracket"),
    path("events/<slug:slug>/standings.csv", views.event_standings_csv, name="event-standings-csv"),
    path("events/<slug:slug>/crosstable/", views.event_crosstable, name="event-crosstable"),
    path("events/<slug:slug>/rounds/<int:number>/", views.event_round, name="event-round"),
    path("events/<slug:slug>/pairings/", pairings.event_pairings_latest, name="event-pairings-latest"),
    path("events/<slug:slug>/rounds/<int:number>/pairings/", pairings.event_pairings, name="event-pairings"),
    path("events/<slug:slug>/players/<int:number>/", views.event_player, name="event-player"),
    path("events/<slug:slug>/teams/<int:number>/", views.event_team, name="event-team"),
    path("events/<slug:slug>/why/", views.event_why, name="event-why"),
    path("events/<slug:slug>/boards/", views.event_boards, name="event-boards"),
    path("events/<slug:slug>/prizes/", prizes.event_prizes, name="event-prizes"),
    path("players/<int:pk>/games.ics", calendar.player_games_ics, name="player-ics"),
    path("", include(games.urlpatterns)),
    path("", include(follows.urlpatterns)),
    path("", include(registration.urlpatterns)),
    path("", include(league_rules.urlpatterns)),
]
