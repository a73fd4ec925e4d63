"""Organisers undo their mistakes: an event, club, player or entry without results is deleted; one with results
cannot be (the public record keeps every game) and is archived or retired instead: an archived event stays
readable at its address but leaves the lists, a retired club or player is no longer offered for new entries and
keeps its history. Every action is one transaction, checked by one function here whatever the door, and written
to the league's set-up log (SetupChange)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ..errors import PermissionDenied, ServiceError
from ..models import (
    Club,
    ClubMembership,
    Entry,
    Event,
    Game,
    League,
    Player,
    Result,
    ResultChange,
    SetupChange,
    Team,
)
from ..page_cache import pages_changed
from ..permissions import AnyUser, is_league_organiser
from .entries import entry_remove
from .players import players_of_league


def _organiser(user: AnyUser, league_id: int) -> None:
    if not is_league_organiser(user, league_id):
        raise PermissionDenied(_("Only the league's organisers may set the league up."))


def _logged(
    league: League, user: AnyUser, subject: str, action: str, name: str, source: str, event_name: str = ""
) -> None:
    SetupChange.objects.create(
        league=league,
        user=user if isinstance(user, User) else None,
        subject=subject,
        action=action,
        name=name,
        event_name=event_name,
        source=source,
    )


def _played(games: Q) -> bool:
    return Game.objects.filter(games).exclude(result=Result.PENDING).exists()


# ------------------------------------------------------------------------------------------ what has results


def event_has_results(event: Event) -> bool:
    return _played(Q(round__event=event))


def club_has_results(club: Club) -> bool:
    """A game of one of the club's teams has a result (a member's individual games are the player's own)."""
    teams = Team.objects.filter(club=club).values("entry")
    return _played(Q(white__in=teams) | Q(black__in=teams))


def player_has_results(player: Player) -> bool:
    entries = Entry.objects.filter(player=player).values("pk")
    return _played(Q(white__in=entries) | Q(black__in=entries) | Q(white_player=player) | Q(black_player=player))


def entry_has_results(entry: Entry) -> bool:
    return _played(Q(white=entry) | Q(black=entry))


def _has_results_refusal(name: str, instead: str) -> ServiceError:
    return ServiceError(
        _("%(name)s has results, so it cannot be deleted: %(instead)s") % {"name": name, "instead": instead},
        code="has_results",
    )


# ------------------------------------------------------------------------------------------ events


def event_delete(*, event: Event, user: AnyUser, source: str = ResultChange.Source.FORM) -> None:
    """Delete an event no game of which has a result: its rounds, pairings and entries go with it."""
    _organiser(user, event.league_id)
    with transaction.atomic():
        event = Event.objects.select_for_update().select_related("league").get(pk=event.pk)
        if event_has_results(event):
            raise _has_results_refusal(event.name, _("archive it instead; its pages stay readable."))
        league, name, slug = event.league, event.name, event.slug
        Game.objects.filter(round__event=event).delete()  # a game holds its entries (they go next)
        event.delete()
        _logged(league, user, SetupChange.Subject.EVENT, SetupChange.Action.DELETED, name, source)
        pages_changed(gone_slug=slug)  # no cached page outlives the event


def event_archive(
    *, event: Event, user: AnyUser, archived: bool = True, source: str = ResultChange.Source.FORM
) -> Event:
    """Archive an event (or bring it back): its pages, standings and games stay readable at their addresses
    and in the API; the lists (the league's, the season's, the API's list of events) no longer show it."""
    _organiser(user, event.league_id)
    with transaction.atomic():
        event = Event.objects.select_for_update().select_related("league").get(pk=event.pk)
        if event.archived == archived:
            return event
        event.archived = archived
        event.save(update_fields=["archived"])
        action = SetupChange.Action.ARCHIVED if archived else SetupChange.Action.RESTORED
        _logged(event.league, user, SetupChange.Subject.EVENT, action, event.name, source)
        pages_changed(event_id=event.pk)
        return event


# ------------------------------------------------------------------------------------------ clubs


def _league_club(league: League, club: Club) -> Club:
    club = Club.objects.select_for_update().get(pk=club.pk)
    if not league.clubs.filter(pk=club.pk).exists():
        raise PermissionDenied(_("This club does not play in the league."))
    return club


def club_delete(*, league: League, club: Club, user: AnyUser, source: str = ResultChange.Source.FORM) -> None:
    """Take a club without results out of the league; the club itself is deleted when no other league has it
    (its memberships go with it, its players stay in the registry)."""
    _organiser(user, league.pk)
    with transaction.atomic():
        club = _league_club(league, club)
        if club_has_results(club):
            raise _has_results_refusal(club.name, _("retire it instead; its history stays."))
        if Team.objects.filter(club=club, event__league=league).exists():
            raise ServiceError(
                _("%(name)s has teams in the league's events: take them off first.") % {"name": club.name},
                code="has_teams",
            )
        pages_changed(club_id=club.pk)  # its members' entries no longer name it (read before it goes)
        league.clubs.remove(club)
        if not League.objects.filter(clubs=club).exists() and not Team.objects.filter(club=club).exists():
            club.delete()
        _logged(league, user, SetupChange.Subject.CLUB, SetupChange.Action.DELETED, club.name, source)


def club_retire(
    *, league: League, club: Club, user: AnyUser, retired: bool = True, source: str = ResultChange.Source.FORM
) -> Club:
    """Retire a club (or bring it back): it keeps its teams, results and page, and is no longer offered for
    new teams or players."""
    _organiser(user, league.pk)
    with transaction.atomic():
        club = _league_club(league, club)
        if club.retired == retired:
            return club
        club.retired = retired
        club.save(update_fields=["retired"])
        action = SetupChange.Action.ARCHIVED if retired else SetupChange.Action.RESTORED
        _logged(league, user, SetupChange.Subject.CLUB, action, club.name, source)
        pages_changed(club_id=club.pk)
        return club


# ------------------------------------------------------------------------------------------ players


def _league_player(league: League, player: Player) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not players_of_league(league).filter(pk=player.pk).exists():
        raise PermissionDenied(_("This player is not in the league's registry."))
    return player


def player_delete(*, league: League, player: Player, user: AnyUser, source: str = ResultChange.Source.FORM) -> None:
    """Take a player without results out of the league's registry; the player is deleted when no other league
    has them."""
    _organiser(user, league.pk)
    with transaction.atomic():
        player = _league_player(league, player)
        if player_has_results(player):
            raise _has_results_refusal(player.name, _("retire them instead; their results stay."))
        if Entry.objects.filter(player=player).exists() or player.teammember_set.exists():
            raise ServiceError(
                _("%(name)s is entered in an event or on a roster: take them off first.") % {"name": player.name},
                code="entered",
            )
        league.players.remove(player)
        ClubMembership.objects.filter(player=player, club__leagues=league).delete()
        if not player.clubs.exists() and not League.objects.filter(players=player).exists():
            player.delete()
        _logged(league, user, SetupChange.Subject.PLAYER, SetupChange.Action.DELETED, player.name, source)


def player_retire(
    *, league: League, player: Player, user: AnyUser, retired: bool = True, source: str = ResultChange.Source.FORM
) -> Player:
    """Retire a player (or bring them back): their results, profile and standings stay; they are no longer
    offered for new entries and rosters."""
    _organiser(user, league.pk)
    with transaction.atomic():
        player = _league_player(league, player)
        if player.retired == retired:
            return player
        player.retired = retired
        player.save(update_fields=["retired"])
        action = SetupChange.Action.ARCHIVED if retired else SetupChange.Action.RESTORED
        _logged(league, user, SetupChange.Subject.PLAYER, action, player.name, source)
        pages_changed(player_id=player.pk)
        return player


# ------------------------------------------------------------------------------------------ entries


def entry_delete(*, entry: Entry, user: AnyUser, source: str = ResultChange.Source.FORM) -> None:
    """Take a player without results off an event (services.entries.entry_remove: before round 1 is published;
    the start numbers close up). A player with results withdraws instead."""
    _organiser(user, entry.event.league_id)
    with transaction.atomic():
        entry = Entry.objects.select_related("event__league", "player").get(pk=entry.pk)
        if entry_has_results(entry):
            raise _has_results_refusal(entry.name, _("withdraw the player instead; the results stay."))
        event, name = entry.event, entry.name
        entry_remove(entry=entry, user=user)
        _logged(event.league, user, SetupChange.Subject.ENTRY, SetupChange.Action.DELETED, name, source, event.name)
