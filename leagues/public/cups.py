"""A knock-out cup's bracket page: every round with its ties (teams, seeds, the cards' scores, who goes through and
why), as lists a screen reader reads in order and a phone shows one round under the other. A cup's standings are
its bracket: its address of the standings shows the bracket."""

from django.http import Http404
from django.shortcuts import render

from .. import selectors
from ..models import Cup
from .views import _cached, _event_context, _event_or_404, _standings_or_404, render_standings_of


def event_standings_or_bracket(request, slug):
    """The standings address: a cup's shows its bracket (known once the event is read for the render: a page
    from the cache costs no query)."""
    return _cached(request, slug, "standings", lambda: _render_standings_or_bracket(request, slug))


def _render_standings_or_bracket(request, slug):
    standings = _standings_or_404(slug, rows=True)
    if standings.event.is_knockout:
        return _bracket_of(request, standings.event)
    return render_standings_of(request, standings)


def event_bracket(request, slug):
    return _cached(request, slug, "bracket", lambda: _render_bracket(request, slug))


def _render_bracket(request, slug):
    event = _event_or_404(slug)
    if not event.is_knockout:
        raise Http404
    return _bracket_of(request, event)


def _bracket_of(request, event):
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
