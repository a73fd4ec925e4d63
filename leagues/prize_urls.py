from django.urls import path

from . import prize_views

app_name = "prizes"
urlpatterns = [
    path("events/<slug:slug>/prizes/", prize_views.event_prizes, name="event-prizes"),
]
