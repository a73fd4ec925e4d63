from django.http import Http404
from django.shortcuts import render

from . import selectors
from .models import Event


def home(request):
    return render(request, "leagues/home.html", {"leagues": selectors.leagues_with_events()})


def event_standings(request, slug):
    try:
        standings = selectors.event_standings(slug=slug)
    except Event.DoesNotExist:
        raise Http404 from None
    return render(request, "leagues/standings.html", {"standings": standings, "event": standings.event})
