"""The player registry's rules: who may show a player by initials only, and that it reaches every page at once."""

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from ..errors import NotFound, PermissionDenied
from ..models import League, Player, ResultChange, StandingsSnapshot
from ..page_cache import event_pages_changed_after_commit
from ..permissions import AnyUser, is_league_organiser
from .prizes import prizes_recompute


def players_of_league(league: League) -> QuerySet[Player]:
    """The league's player registry: its clubs' members and the players it registered itself (a player
    without a club, or one entered from a list); retired players too (their history stays)."""
    return Player.objects.filter(Q(clubmembership__club__leagues=league) | Q(registry_leagues=league)).distinct()


def leagues_of_player(player: Player) -> QuerySet[League]:
    """The leagues whose events the player played in (individually or on a team's roster)."""
    return League.objects.filter(
        Q(events__entries__player=player) | Q(events__teams__members__player=player)
    ).distinct()


def player_set_anonymised(*, player_id: int, anonymised: bool, user: AnyUser) -> Player:
    """Show the player by initials (or by name again) on every page, snapshot and API answer, at once.

    An organiser of a league the player played in decides. The stored standings, the corrections' effects
    and the prize split are rewritten in the same transaction, and every page of those events gets a new
    cache stamp when it commits, so no page keeps showing the other name."""
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise NotFound(_("No such player."))
        if not any(is_league_organiser(user, league.pk) for league in leagues_of_player(player)):
            raise PermissionDenied(_("Only an organiser of a league this player played in may do this."))
        if player.anonymised == anonymised:
            return player
        before = player.public_name
        player.anonymised = anonymised
        player.save(update_fields=["anonymised"])
        entries = player.entry_set.select_related("event")
        for entry in entries:
            _rename_in_snapshot(entry.event_id, entry.start_number, player.public_name)
            _rename_in_corrections(entry.event_id, entry.start_number, before, player.public_name)
            prizes_recompute(entry.event_id)
        team_events = set(player.teammember_set.values_list("team__event_id", flat=True))
        for event_id in {entry.event_id for entry in entries} | team_events:
            event_pages_changed_after_commit(event_id=event_id)
    return player


def _rename_in_snapshot(event_id: int, start_number: int, name: str) -> None:
    snapshot = StandingsSnapshot.objects.select_for_update().filter(event_id=event_id).first()
    if snapshot is None:
        return
    for row in snapshot.rows:
        if row.get("start_number") == start_number:
            row["name"] = name
    snapshot.save(update_fields=["rows"])


def _rename_in_corrections(event_id: int, start_number: int, before: str, name: str) -> None:
    """What a correction changed in the standings names the players moved: rename this one there too."""
    for change in ResultChange.objects.filter(game__round__event_id=event_id, standings_impact__isnull=False):
        moved = [
            m for m in change.standings_impact or [] if m.get("number") == start_number and m.get("name") == before
        ]
        for m in moved:
            m["name"] = name
        if moved:
            change.save(update_fields=["standings_impact"])
