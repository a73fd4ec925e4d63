"""A team event's teams and their rosters: a club's team, registered with the next start number (renamed, it is
named anew in the standings), and its roster in board order (the regular players, then the reserves; players of
the team's club only), each player new to the event with its rating of the event from round 1.

Every function checks that the user organises the league and that the event is not finished, validates
everything before writing, and writes in one transaction: a refused call changes nothing. Field errors
(FieldError) carry ``field`` so a form can show them next to the field."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..errors import FieldError, ServiceError
from ..models import Club, ClubMembership, Entry, Event, MemberRating, Player, Team, TeamMember
from ..page_cache import pages_changed
from ..permissions import AnyUser
from .events import _editable_event
from .ratings import rating_by_method
from .results import names_changed


def team_save(*, event: Event, user: AnyUser, club: Club, name: str, team: Team | None = None) -> Team:
    """A club's team in a team event, registered with the next start number."""
    with transaction.atomic():
        event = _editable_event(event, user)
        if not event.is_team:
            raise ServiceError(_("Teams play in team events only."), code="not_team_event")
        if not event.league.clubs.filter(pk=club.pk).exists():
            raise FieldError("club", _("This club does not play in the league."))
        if not name.strip():
            raise FieldError("name", _("The team needs a name."))
        if Team.objects.filter(event=event, name=name.strip()).exclude(pk__in=[team.pk] if team else []).exists():
            raise FieldError("name", _("The event has a team of this name already."))
        if team is None:
            team = Team.objects.create(event=event, club=club, name=name.strip())
            number = (Entry.objects.filter(event=event).aggregate(n=Max("start_number"))["n"] or 0) + 1
            Entry.objects.create(event=event, start_number=number, team=team)
        else:
            team.name, team.club = name.strip(), club
            team.save(update_fields=["name", "club"])
            names_changed(event_id=event.pk)  # the standings name the team anew
        pages_changed(event_id=event.pk)
        return team


def roster_set(*, team: Team, user: AnyUser, players: list[Player]) -> list[TeamMember]:
    """The team's roster in board order: the first ``event.boards`` are its regular players, the rest its
    reserves. Players of the team's club only, each once. A player new to the event gets the rating of the event
    from round 1 (the registry's under its rating method), which a later registry change no longer moves."""
    with transaction.atomic():
        _editable_event(team.event, user)
        ids = [p.pk for p in players]
        if len(ids) != len(set(ids)):
            raise FieldError("players", _("A player is on the roster twice."))
        members = set(ClubMembership.objects.filter(club=team.club_id, player__in=ids).values_list("player", flat=True))
        for player in players:
            if player.pk not in members:
                raise FieldError(
                    "players", _("%(player)s is not a player of %(club)s.") % {"player": player.name, "club": team.club}
                )
        TeamMember.objects.filter(team=team).delete()
        saved = TeamMember.objects.bulk_create(
            TeamMember(team=team, player=player, board_order=order) for order, player in enumerate(players, start=1)
        )
        # each player's rating of the event from round 1 (ratings per round: a newer list adds later rounds)
        event, method = team.event, team.event.rating_method
        MemberRating.objects.bulk_create(
            [MemberRating(event=event, player=p, from_round=1, rating=rating_by_method(p, method)) for p in players],
            ignore_conflicts=True,
        )
        pages_changed(event_id=team.event_id)
        return saved
