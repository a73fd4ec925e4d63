from django.urls import path

from . import views

app_name = "tiebreaks"
urlpatterns = [
    path("tiebreaks/", views.guides, name="guides"),
    path("tiebreaks/calculator/", views.calculator, name="calculator"),
    path("tiebreaks/<slug:slug>/", views.guide, name="guide"),
]
