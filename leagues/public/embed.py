"""Widgets for clubs' own websites, under /embed/<lang>/...: the standings, a team's next fixtures, the latest
results. Small pages of their own (no site header, one small stylesheet, no script), no cookies, and framable
by any site: their own frame-ancestors policy instead of the site's "never in a frame"."""

from django.conf import settings
from django.db.models import Q
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone, translation
from django.views.decorators.clickjacking import xframe_options_exempt

from tiebreaks.explanations import fmt

from .. import selectors
from ..dates import event_dates
from ..models import Event, Game, Result, TeamMatch
from ..page_cache import cached_page

FRAMABLE = "frame-ancestors *; default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'"
MAX_ROWS = 50


def _language(lang: str) -> str:
    if lang not in {code for code, _name in settings.LANGUAGES}:
        raise Http404
    return lang


def _widget(request, lang: str, slug: str, name: str, render_page):
    """A widget served like the event's pages (cached until the event changes, ETag) and framable by any site;
    it never sets a cookie: nothing here reads the session or a form token."""
    with translation.override(_language(lang)):
        response = cached_page(
            slug=slug,
            name=f"embed-{name}-{lang}",
            database_stamp=lambda: selectors.event_stamp(slug=slug),
            render=lambda: event_dates(slug, render_page),
            request=request,
        )
    response["Content-Security-Policy"] = FRAMABLE
    return response


def _event(slug: str) -> Event:
    try:
        return selectors.public_event(slug=slug)
    except Event.DoesNotExist:
        raise Http404 from None


def _rows(request) -> int:
    value = request.GET.get("rows", "")
    return min(int(value), MAX_ROWS) if value.isdecimal() and int(value) > 0 else 10


@xframe_options_exempt
def embed_standings(request, lang, slug):
    rows = _rows(request)

    def page():
        try:
            standings = selectors.event_standings(slug=slug)
        except Event.DoesNotExist:
            raise Http404 from None
        table = [
            {"place": row["place"], "name": row["name"], "points": fmt(row["points"])} for row in standings.table[:rows]
        ]
        context = {
            "event": standings.event,
            "table": table,
            "lang": lang,
            "round_progress": selectors.round_progress(standings.event),
        }
        return render(request, "leagues/embed/standings.html", context)

    return _widget(request, lang, slug, f"standings-{rows}", page)


@xframe_options_exempt
def embed_team_fixtures(request, lang, slug, number):
    def page():
        event = _event(slug)
        entry = event.entries.select_related("team").filter(start_number=number, team__isnull=False).first()
        if entry is None:
            raise Http404
        today = timezone.localdate()
        matches = (
            TeamMatch.objects.filter(round__event=event)
            .filter(Q(home=entry) | Q(away=entry))
            .select_related("round", "home__team", "away__team")
            .order_by("round__number")
        )
        upcoming = [m for m in matches if m.round.date is None or m.round.date >= today][:5]
        return render(
            request, "leagues/embed/fixtures.html", {"event": event, "entry": entry, "matches": upcoming, "lang": lang}
        )

    return _widget(request, lang, slug, f"fixtures-{number}", page)


@xframe_options_exempt
def embed_latest_results(request, lang, slug):
    def page():
        event = _event(slug)
        number = selectors.completed_rounds(event)
        context = {"event": event, "number": number, "lang": lang, "cards": [], "games": []}
        if number and event.is_team:
            context["cards"] = selectors.match_cards(event, round_number=number)
        elif number:
            context["games"] = list(
                Game.objects.filter(round__event=event, round__number=number, black__isnull=False)
                .exclude(result=Result.PENDING)
                .select_related("white__player", "black__player")
                .order_by("board")
            )
        return render(request, "leagues/embed/results.html", context)

    return _widget(request, lang, slug, "results", page)
