"""The prize page: the fund, then line by line who receives what and why (the sentences:
leagues/prize_sentences.py, shared with the API and the organiser's preview)."""

from django.http import Http404
from django.shortcuts import render

from tiebreaks.money import money

from ..models import Event
from ..prize_sentences import lines_with_text, method_sentences, prize_rows
from ..services.prizes import prizes_for_event
from .views import _cached, _event_context


def event_prizes(request, slug):
    return _cached(request, slug, "prizes", lambda: _render_prizes(request, slug))


def _render_prizes(request, slug):
    try:
        prizes = prizes_for_event(slug=slug)
    except Event.DoesNotExist:
        raise Http404 from None
    event = prizes.event
    context = _event_context(event, active="prizes", prizes=prizes)  # the event menu keeps its Prizes tab
    if prizes.fund is not None:
        currency = prizes.fund.currency
        context.update(
            fund_total=money(prizes.fund.total, currency),
            prize_rows=prize_rows(prizes),
            method_sentences=method_sentences(prizes.fund),
            lines=lines_with_text(prizes, isolated=True),
            awards=[
                {
                    "place": prizes.places.get(award.entry.start_number, award.position),
                    "entry": award.entry,
                    "money": money(award.money, currency) if award.money else "",
                    "items": ", ".join(award.items),
                }
                for award in prizes.awards
            ],
            club_awards=[
                {
                    "slug": award["club"],
                    "name": award["name"],
                    "money": money(award["money"], currency) if award["money"] else "",
                    "items": ", ".join(award["items"]),
                }
                for award in (prizes.allocation.club_awards if prizes.allocation else [])
            ],
        )
        if prizes.allocation is not None:
            allocation = prizes.allocation
            context.update(
                total_paid=money(allocation.total_paid, allocation.currency),
                remainder=money(allocation.remainder, allocation.currency) if allocation.remainder else "",
                unawarded=money(allocation.unawarded, allocation.currency) if allocation.unawarded else "",
            )
    return render(request, "leagues/prizes.html", context)
