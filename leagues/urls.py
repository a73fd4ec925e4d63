from django.urls import path

from . import views

app_name = "leagues"
urlpatterns = [
    path("", views.home, name="home"),
    path("events/<slug:slug>/", views.event_standings, name="event-standings"),
]
