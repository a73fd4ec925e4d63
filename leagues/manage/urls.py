from django.urls import path

from . import account, pairings, setup_views, views

app_name = "manage"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("account/", account.account, name="account"),
    path("events/<slug:slug>/", setup_views.event, name="event"),
    path("events/<slug:slug>/status/", setup_views.event_status, name="event-status"),
    path("events/<slug:slug>/entries/", setup_views.entries, name="entries"),
    path("events/<slug:slug>/teams/<int:team_id>/roster/", setup_views.roster, name="roster"),
    path("events/<slug:slug>/prizes/", setup_views.prizes, name="prizes"),
    path("events/<slug:slug>/rounds/<int:number>/", views.round_sheet, name="round-sheet"),
    path("events/<slug:slug>/pairing/", pairings.pairing_start, name="pairing-start"),
    path("events/<slug:slug>/pairing/<int:number>/", pairings.pairing, name="pairing"),
    path("events/<slug:slug>/pairing/<int:number>/status/", pairings.pairing_status, name="pairing-status"),
    path("events/<slug:slug>/policy/", views.policy, name="policy"),
    path("events/<slug:slug>/audit/", views.audit, name="audit"),
    path("events/<slug:slug>/fixtures/", views.fixtures, name="fixtures"),
    path("events/<slug:slug>/export.trf", views.export_trf, name="export-trf"),
    path("matches/<int:match_id>/", views.match_card, name="match-card"),
    path("matches/<int:match_id>/confirm/", views.match_confirm, name="match-confirm"),
    path("matches/<int:match_id>/dispute/", views.match_dispute, name="match-dispute"),
    path("matches/<int:match_id>/settle/", setup_views.dispute, name="dispute"),
    path("leagues/<slug:slug>/", setup_views.league, name="league"),
    path("leagues/<slug:slug>/seasons/new/", setup_views.season_edit, name="season-new"),
    path("leagues/<slug:slug>/seasons/<int:season_id>/", setup_views.season_edit, name="season-edit"),
    path("leagues/<slug:slug>/events/new/", setup_views.event_edit, name="event-new"),
    path("leagues/<slug:slug>/events/<slug:event_slug>/edit/", setup_views.event_edit, name="event-edit"),
    path("leagues/<slug:slug>/clubs/", setup_views.clubs, name="clubs"),
    path("leagues/<slug:slug>/clubs/<int:club_id>/", setup_views.clubs, name="club-edit"),
    path("leagues/<slug:slug>/players/", setup_views.players, name="players"),
    path("leagues/<slug:slug>/players/<int:player_id>/", setup_views.players, name="player-edit"),
    path("leagues/<slug:slug>/people/", setup_views.people, name="people"),
    path("leagues/<slug:slug>/people/<int:role_id>/remove/", setup_views.role_delete, name="role-remove"),
    path("leagues/<slug:slug>/disputes/", setup_views.disputes, name="disputes"),
    path("leagues/<slug:league>/import/", views.import_trf, name="import-trf"),
]
