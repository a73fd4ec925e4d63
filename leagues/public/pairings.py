"""The published pairings of a round with each player's points before the round, as chess-results shows
the pairings of the next round (the round page shows the results)."""

from django.http import Http404
from django.shortcuts import render

from .. import selectors
from ..models import Event, RoundPairing
from ..services.round_pairings import changes_by_hand, last_paired_round, published_rows
from . import table_rows
from .views import _cached, _event_context, _event_or_404


def event_pairings_latest(request, slug):
    """The pairings of the last published round (none yet: the page says so), at an address that stays the same all
    tournament long (a reader follows no redirect)."""
    return _cached(request, slug, "pairings-latest", lambda: _latest_pairings(request, slug))


def _latest_pairings(request, slug):
    event = _event_or_404(slug)
    if event.is_team and not event.system == Event.System.SWISS:  # a team round robin has its schedule, a cup its draw
        raise Http404
    last = last_paired_round(event)
    if not last:
        return render(request, "leagues/pairings.html", _event_context(event, active="pairings", number=None))
    return _render_pairings(request, slug, last)


def event_pairings(request, slug, number):
    return _cached(request, slug, f"pairings-{number}", lambda: _render_pairings(request, slug, number))


def _render_pairings(request, slug, number):
    event = _event_or_404(slug)
    if (event.is_team and event.system != Event.System.SWISS) or not 1 <= number <= last_paired_round(event):
        raise Http404
    rows = published_rows(event, number)
    boards = [r for r in rows if r.black is not None]
    pairing = RoundPairing.objects.filter(round__event=event, round__number=number).first()
    context = _event_context(
        event,
        active="pairings",
        number=number,
        boards=boards,
        board_rows=table_rows.published_pairing_rows(
            boards,
            slug=event.slug,
            round_number=number,
            with_moves=frozenset(selectors.game_ids_with_moves(r.game.pk for r in boards if r.game is not None)),
        ),
        pab=[r for r in rows if r.black is None],
        pairing=pairing,
        changes=changes_by_hand(pairing) if pairing and pairing.changed_by_hand else [],
        byes=event.rounds.get(number=number)
        .games.filter(black__isnull=True)
        .exclude(result="bye:pab")
        .select_related("white__player")
        .order_by("board"),
    )
    return render(request, "leagues/pairings.html", context)
