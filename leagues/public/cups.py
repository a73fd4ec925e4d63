"""A knock-out cup's bracket page: every round with its ties (teams, seeds, the cards' scores, who goes through and
why), as lists a screen reader reads in order and a phone shows one round under the other. A cup's standings are
its bracket: its address of the standings shows the bracket."""

from django.http import Http404
from django.shortcuts import render

from .. import selectors
from ..models import Cup, Event
from .views import _cached, _event_context, _event_or_404, event_standings


def event_standings_or_bracket(request, slug):
    if Event.objects.filter(slug=slug, system=Event.System.KNOCKOUT).exists():
        return event_bracket(request, slug)
    return event_standings(request, slug)


def event_bracket(request, slug):
    return _cached(request, slug, "bracket", lambda: _render_bracket(request, slug))


def _render_bracket(request, slug):
    event = _event_or_404(slug)
    if not event.is_knockout:
        raise Http404
    bracket = selectors.cup_bracket(event)
    resolution = dict(Cup.Resolution.choices)
    return render(
        request,
        "leagues/bracket.html",
        _event_context(
            event,
            active="bracket",
            bracket=bracket,
            resolution=[str(resolution[code]) for code in (bracket.cup.tie_resolution if bracket.cup else [])],
        ),
    )
