"""iCalendar feeds (RFC 5545) of an event's rounds, a team's fixtures and a club's fixtures.

A round with a date and a start time is a VEVENT starting then (DTSTART in UTC, from the site's TIME_ZONE); one
with a date only is an all-day VEVENT (DTSTART;VALUE=DATE, DTEND the next day); either at the round's venue
(LOCATION; the event's when the round has none). A UID
per round or match keeps a calendar client's copy updated instead of doubled when the feed changes.
"""

import datetime
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import selectors
from ..models import Club, Event, Game, Player, TeamMatch
from .views import _cached

PRODID = "-//chess-league//fixtures//EN"


@dataclass(frozen=True)
class Item:
    uid: str
    day: datetime.date
    summary: str
    url: str
    description: str = ""
    location: str = ""
    start: datetime.time | None = None  # the round's start time, in the site's TIME_ZONE


def _escape(text: str) -> str:
    """RFC 5545 3.3.11: backslash, semicolon, comma and newline in TEXT values."""
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _fold(line: str) -> str:
    """RFC 5545 3.1: lines longer than 75 octets continue on the next line after a space."""
    out: list[str] = []
    current = b""
    for char in line:
        encoded = char.encode()
        if len(current) + len(encoded) > (75 if not out else 74):
            out.append(current.decode())
            current = b""
        current += encoded
    out.append(current.decode())
    return "\r\n ".join(out)


def ics(name: str, items: list[Item], request) -> HttpResponse:
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    host = urlsplit(settings.SITE_URL).hostname  # the site's public address, whoever asked first (the feed is cached)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
    lines.append(f"X-WR-CALNAME:{_escape(name)}")
    for item in items:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{item.uid}@{host}",
            f"DTSTAMP:{stamp}",
            *_when(item),
            f"SUMMARY:{_escape(item.summary)}",
            f"URL:{settings.SITE_URL}{item.url}",
        ]
        if item.description:
            lines.append(f"DESCRIPTION:{_escape(item.description)}")
        if item.location:
            lines.append(f"LOCATION:{_escape(item.location)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    body = "".join(_fold(line) + "\r\n" for line in lines)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="calendar.ics"'
    return response


def _when(item: Item) -> list[str]:
    if item.start is None:
        return [
            f"DTSTART;VALUE=DATE:{item.day:%Y%m%d}",
            f"DTEND;VALUE=DATE:{item.day + datetime.timedelta(days=1):%Y%m%d}",
        ]
    local = datetime.datetime.combine(item.day, item.start, tzinfo=timezone.get_default_timezone())
    return [f"DTSTART:{local.astimezone(datetime.UTC):%Y%m%dT%H%M%SZ}"]


def _match_items(matches) -> list[Item]:
    items = []
    for match in matches:
        if match.round.date is None:
            continue
        event = match.round.event
        summary = _("%(home)s – %(away)s (round %(round)s)") % {
            "home": match.home.name,
            "away": match.away.name,
            "round": match.round.number,
        }
        items.append(
            Item(
                uid=f"match-{match.pk}",
                day=match.round.date,
                summary=summary,
                url=reverse("leagues:event-round", args=[event.slug, match.round.number]),
                description=event.name,
                location=match.round.place,
                start=match.round.start_time,
            )
        )
    return items


def _matches():
    return TeamMatch.objects.filter(round__event__in=Event.objects.public()).select_related(
        "round__event", "home__team", "away__team"
    )


def event_rounds_ics(request, slug):
    return _cached(request, slug, "rounds-ics", lambda: _render_rounds_ics(request, slug))


def _render_rounds_ics(request, slug):
    try:
        event = selectors.public_event(slug=slug)
    except Event.DoesNotExist:
        raise Http404 from None
    items = [
        Item(
            uid=f"round-{rnd.pk}",
            day=rnd.date,
            summary=_("%(event)s: round %(round)s") % {"event": event.name, "round": rnd.number},
            url=reverse("leagues:event-round", args=[event.slug, rnd.number]),
            location=rnd.place,
            start=rnd.start_time,
        )
        for rnd in event.rounds.select_related("event").order_by("number")
        if rnd.date is not None
    ]
    return ics(event.name, items, request)


def team_fixtures_ics(request, slug, number):
    return _cached(request, slug, f"team-{number}-ics", lambda: _render_team_ics(request, slug, number))


def _render_team_ics(request, slug, number):
    try:
        event = selectors.public_event(slug=slug)
    except Event.DoesNotExist:
        raise Http404 from None
    entry = event.entries.select_related("team").filter(start_number=number, team__isnull=False).first()
    if entry is None:
        raise Http404
    matches = _matches().filter(round__event=event).filter(home=entry) | _matches().filter(
        round__event=event, away=entry
    )
    return ics(entry.name, _match_items(matches.order_by("round__number")), request)


def club_fixtures_ics(request, slug):
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404
    matches = _matches().filter(home__team__club=club) | _matches().filter(away__team__club=club)
    return ics(club.name, _match_items(matches.order_by("round__date", "round__event__name")), request)


def player_games_ics(request, pk):
    """A player's games in every public event, as far as their rounds are dated (the opponent once paired)."""
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise Http404
    games = (
        Game.objects.filter(round__event__in=Event.objects.public(), round__date__isnull=False)
        .filter(selectors.player_games(player))
        .select_related("round__event", "white__player", "black__player", "white__team", "black__team")
        .order_by("round__date", "round__number")
    )
    items = []
    for game in games:
        day = game.round.date
        if day is None:
            raise RuntimeError("dated rounds only (round__date__isnull=False)")
        event, number = game.round.event, game.round.number
        white = game.white is not None and (game.white.player_id == player.pk or game.white_player_id == player.pk)
        opponent = game.black if white else game.white
        if opponent is None:
            summary = _("%(event)s: round %(round)s (bye)") % {"event": event.name, "round": number}
        else:
            summary = _("%(event)s: round %(round)s against %(opponent)s") % {
                "event": event.name,
                "round": number,
                "opponent": opponent.name,
            }
        items.append(
            Item(
                uid=f"game-{game.pk}-{player.pk}",
                day=day,
                summary=summary,
                url=reverse("leagues:event-round", args=[event.slug, number]),
                description=event.name,
                location=game.round.place,
                start=game.round.start_time,
            )
        )
    return ics(player.public_name, items, request)
