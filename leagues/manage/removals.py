"""Undoing a mistake: the confirmation page of deleting an event, club, player or entry without results, or of
archiving (retiring) one with results, and of bringing it back (leagues/services/removals.py decides and
writes)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import PermissionDenied, ServiceError
from ..models import Club, Entry, Event, League
from ..permissions import is_league_organiser
from ..services import removals
from ..services.players import players_of_league


def _target(league: League, subject: str, pk: int):
    """(the row, its name, whether it has results, whether it is archived/retired, where to go afterwards)."""
    if subject == "event":
        event = get_object_or_404(Event, pk=pk, league=league)
        return event, event.name, removals.event_has_results(event), event.archived, ("manage:league", league.slug)
    if subject == "club":
        club = get_object_or_404(Club, pk=pk, leagues=league)
        return club, club.name, removals.club_has_results(club), club.retired, ("manage:clubs", league.slug)
    if subject == "player":
        player = get_object_or_404(players_of_league(league), pk=pk)
        return player, player.name, removals.player_has_results(player), player.retired, ("manage:players", league.slug)
    if subject == "entry":
        entry = get_object_or_404(Entry.objects.select_related("event", "player"), pk=pk, event__league=league)
        return entry, entry.name, removals.entry_has_results(entry), False, ("manage:entries", entry.event.slug)
    raise Http404


def _act(request, league: League, subject: str, row, action: str) -> None:
    user = request.user
    if action == "delete":
        if subject == "event":
            removals.event_delete(event=row, user=user)
        elif subject == "club":
            removals.club_delete(league=league, club=row, user=user)
        elif subject == "player":
            removals.player_delete(league=league, player=row, user=user)
        else:
            removals.entry_delete(entry=row, user=user)
        return
    archived = action == "archive"
    if action not in ("archive", "restore") or subject == "entry":
        raise ServiceError(_("Choose what to do."), code="bad_action")
    if subject == "event":
        removals.event_archive(event=row, user=user, archived=archived)
    elif subject == "club":
        removals.club_retire(league=league, club=row, user=user, retired=archived)
    else:
        removals.player_retire(league=league, player=row, user=user, retired=archived)


DONE = {
    "delete": gettext_lazy("%(name)s is deleted."),
    "archive": gettext_lazy("%(name)s is archived: its results stay public, the lists no longer show it."),
    "restore": gettext_lazy("%(name)s is back in the lists."),
}


@login_required
def remove(request, slug, subject, pk):
    league = get_object_or_404(League, slug=slug)
    if not is_league_organiser(request.user, league.pk):
        raise DjangoPermissionDenied
    row, name, has_results, archived, back = _target(league, subject, pk)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            _act(request, league, subject, row, action)
        except PermissionDenied:
            raise DjangoPermissionDenied from None
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = 400
        else:
            messages.success(request, str(DONE[action]) % {"name": name})
            return redirect(*back)
    return render(
        request,
        "leagues/manage/remove.html",
        {
            "league": league,
            "subject": subject,
            "row": row,
            "name": name,
            "has_results": has_results,
            "archived": archived,
            "back": back,
        },
        status=status,
    )
