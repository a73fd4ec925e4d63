"""The player registry's rules: who may show a player by initials only, and that it reaches every page at once;
a player kept by several leagues changes through another league's file only when a league keeping it accepts.

The league's organiser writes its registry (``player_save``, the fields of ``player_fields``): checked that the
user organises the league, validated before writing, in one transaction, so a refused call changes nothing (field
errors, FieldError, carry ``field`` for the form); a changed rating, title or name moves the start numbers of the
league's events not yet started (services.start_numbers)."""

import datetime
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import FieldError, NotFound, PermissionDenied, ServiceError
from ..models import (
    Club,
    ClubMembership,
    Entry,
    Event,
    Game,
    League,
    Player,
    PlayerProposal,
    ResultChange,
    StandingsSnapshot,
    TeamMember,
)
from ..page_cache import pages_changed
from ..permissions import AnyUser, acting_user, is_league_organiser, secretary_club_ids
from .edits import _assign, _organiser, _validated
from .prizes import prizes_recompute
from .results import names_changed
from .start_numbers import _start_numbers_ranked, numbers_follow_ranking, round_one_published


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
            pages_changed(event_id=event_id)
    return player


def player_licence_set(*, player_id: int, until: datetime.date | None, user: AnyUser) -> Player:
    """Set the last day of the player's licence at the national federation (None: not on record): an organiser
    of a league whose registry holds the player, or the secretary of a club the player belongs to. The saved
    cards the player is on are checked again against the league's rules (services.league_rules)."""
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise NotFound(_("No such player."))
        organiser = any(is_league_organiser(user, league_id) for league_id in players_of_league_ids(player))
        clubs = set(ClubMembership.objects.filter(player=player).values_list("club_id", flat=True))
        if not organiser and not clubs & secretary_club_ids(user):
            raise PermissionDenied(_("Only the league's organiser or the player's club changes the licence."))
        if player.licence_until != until:
            player.licence_until = until
            player.save(update_fields=["licence_until"])
            licence_changed(player)
    return player


def players_of_league_ids(player: Player) -> set[int]:
    """The leagues whose registry holds the player (through a club or registered by the league)."""
    through_clubs = League.objects.filter(clubs__clubmembership__player=player).values_list("pk", flat=True)
    registered = League.objects.filter(players=player).values_list("pk", flat=True)
    return set(through_clubs) | set(registered)


def licence_changed(player: Player) -> None:
    """The saved cards the player is named on are checked again (the licence rules read the licence)."""
    from .league_rules import event_rules_rescan  # the rules import the registry's helpers: imported late

    named = Q(white_player=player) | Q(black_player=player)
    for event in Event.objects.filter(pk__in=Game.objects.filter(named, match__isnull=False).values("round__event_id")):
        event_rules_rescan(event=event)


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


def leagues_keeping(player_ids: Iterable[int]) -> dict[int, set[int]]:
    """Player id → the leagues that keep the player: those whose registry has it (a member of one of their clubs,
    or registered by the league itself) and those whose events it played in."""
    ids = list(player_ids)
    pairs = [
        *ClubMembership.objects.filter(player_id__in=ids).values_list("player_id", "club__leagues"),
        *League.players.through.objects.filter(player_id__in=ids).values_list("player_id", "league_id"),
        *Entry.objects.filter(player_id__in=ids).values_list("player_id", "event__league_id"),
        *TeamMember.objects.filter(player_id__in=ids).values_list("player_id", "team__event__league_id"),
    ]
    keeping: dict[int, set[int]] = {player_id: set() for player_id in ids}
    for player_id, league_id in pairs:
        if league_id is not None:
            keeping[player_id].add(league_id)
    return keeping


def registry_blanks_offered(*, league: League, user: AnyUser, blanks: dict[int, dict[str, Any]]) -> int:
    """Blank registry fields of stored players that `league` has values for (its TRF file): written for a player
    no other league keeps; for a player another league keeps too they are proposals, written only when an
    organiser of a league keeping it accepts them (`player_proposal_decide`). Returns the number of proposals."""
    blanks = {player_id: fields for player_id, fields in blanks.items() if fields}
    keeping = leagues_keeping(blanks)
    proposals = []
    for player_id, fields in blanks.items():
        if keeping[player_id] - {league.pk}:
            proposals += [
                PlayerProposal(
                    player_id=player_id,
                    league=league,
                    field=name,
                    value=str(value)[:200],
                    proposed_by=acting_user(user),
                )
                for name, value in sorted(fields.items())
            ]
        else:
            Player.objects.filter(pk=player_id).update(**fields)
    PlayerProposal.objects.bulk_create(proposals, ignore_conflicts=True)  # the same proposal waiting: once
    return len(proposals)


def player_proposals_for(league: League) -> QuerySet[PlayerProposal]:
    """The proposals of other leagues waiting for a decision about players `league` keeps."""
    return (
        PlayerProposal.objects.filter(status=PlayerProposal.Status.PENDING, player__in=players_kept_by(league))
        .exclude(league=league)
        .select_related("player", "league")
    )


def players_kept_by(league: League) -> QuerySet[Player]:
    """The players `league` keeps: its registry and the players of its events."""
    return Player.objects.filter(
        Q(pk__in=players_of_league(league).values("pk"))
        | Q(entry__event__league=league)
        | Q(teammember__team__event__league=league)
    ).distinct()


def player_proposal_decide(*, proposal_id: int, accept: bool, user: AnyUser) -> PlayerProposal:
    """An organiser of a league keeping the player (not the league that proposed) accepts the proposal, which
    writes the field, or declines it, which writes nothing. Raises NotFound, PermissionDenied or ServiceError."""
    with transaction.atomic():
        proposal = PlayerProposal.objects.select_for_update().filter(pk=proposal_id).first()
        if proposal is None:
            raise NotFound(_("No such proposal."))
        deciders = leagues_keeping([proposal.player_id])[proposal.player_id] - {proposal.league_id}
        if not any(is_league_organiser(user, league_id) for league_id in deciders):
            raise PermissionDenied(_("Only an organiser of a league that keeps this player may decide."))
        if proposal.status != PlayerProposal.Status.PENDING:
            raise ServiceError(_("This proposal was decided already."), code="proposal_decided")
        if accept:
            player = Player.objects.select_for_update().get(pk=proposal.player_id)
            field = Player._meta.get_field(proposal.field)
            setattr(player, proposal.field, field.to_python(proposal.value))  # type: ignore[union-attr]
            player.save(update_fields=[proposal.field])
            names_changed(player_id=player.pk)  # the standings and pages of its events show the new value
        proposal.status = PlayerProposal.Status.ACCEPTED if accept else PlayerProposal.Status.DECLINED
        proposal.decided_by, proposal.decided_at = acting_user(user), timezone.now()
        proposal.save(update_fields=["status", "decided_by", "decided_at"])
        return proposal


# ------------------------------------------------------------------------------------------ the organiser's writes


def player_fields() -> list[str]:
    """The player registry's fields this installation has, in form order."""
    names = {f.name for f in Player._meta.get_fields()}
    order = [
        "name",
        "fide_id",
        "federation",
        "title",
        "rating",
        "rating_rapid",
        "rating_blitz",
        "rating_national",
        "national_id",
        "licence_until",
        "birth_year",
        "birth_date",
        "sex",
        "fide_games",
        "k_factor",
        "anonymised",
    ]
    return [name for name in order if name in names]


def player_save(
    *, league: League, user: AnyUser, fields: dict[str, Any], club: Club | None, player: Player | None = None
) -> Player:
    """Create or edit a player of the league; ``club`` adds a membership. A new player without a club is
    allowed when the league allows players without a club (its setting, on by default)."""
    _organiser(user, league.pk)
    with transaction.atomic():
        if club is not None and not league.clubs.filter(pk=club.pk).exists():
            raise FieldError("club", _("This club does not play in the league."))
        if player is not None and not players_of_league(league).filter(pk=player.pk).exists():
            raise PermissionDenied(_("This player is not in the league's registry."))
        if player is None and club is None and not league.players_without_club:
            raise FieldError("club", _("The league enters players of its clubs only: choose the club."))
        before = (player.rating, player.title, player.name) if player is not None else None
        licence_before = player.licence_until if player is not None else None
        player = player or Player()
        _assign(player, fields, set(player_fields()))
        if player.federation:
            player.federation = player.federation.upper()
        if player.birth_date:  # one birth, the year follows the date
            player.birth_year = player.birth_date.year
        _validated(player)
        player.save()
        if club is not None:
            ClubMembership.objects.get_or_create(player=player, club=club)
        league.players.add(player)
        if before is not None and before != (player.rating, player.title, player.name):
            _player_ranking_changed(player, league, old_rating=before[0])
        if before is not None:
            names_changed(player_id=player.pk)  # the standings and pages of its events show it anew
            if licence_before != player.licence_until:
                licence_changed(player)
        return player


def _player_ranking_changed(player: Player, league: League, *, old_rating: int | None) -> None:
    """A player's rating, title or name changed: in the league's events not yet started (round 1 not
    published) an entry that took its rating from the registry takes the new one, and the start numbers
    follow the initial ranking again."""
    for entry in Entry.objects.filter(player=player, event__league=league).select_related("event"):
        event = Event.objects.select_for_update().get(pk=entry.event_id)
        if round_one_published(event) or event.status == Event.Status.FINISHED:
            continue
        if entry.rating == old_rating and entry.rating != player.rating:
            entry.rating = player.rating
            entry.save(update_fields=["rating"])
        if numbers_follow_ranking(event):
            _start_numbers_ranked(event)
