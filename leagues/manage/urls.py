from django.urls import path

from . import views

app_name = "manage"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("events/<slug:slug>/rounds/<int:number>/", views.round_sheet, name="round-sheet"),
    path("events/<slug:slug>/policy/", views.policy, name="policy"),
    path("events/<slug:slug>/audit/", views.audit, name="audit"),
    path("events/<slug:slug>/fixtures/", views.fixtures, name="fixtures"),
    path("events/<slug:slug>/export.trf", views.export_trf, name="export-trf"),
    path("matches/<int:match_id>/", views.match_card, name="match-card"),
    path("matches/<int:match_id>/confirm/", views.match_confirm, name="match-confirm"),
    path("matches/<int:match_id>/dispute/", views.match_dispute, name="match-dispute"),
    path("leagues/<slug:league>/import/", views.import_trf, name="import-trf"),
]
