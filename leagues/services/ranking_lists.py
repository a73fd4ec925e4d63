"""Clubs' ranking lists (Rangliste, as in the German Bundesliga or a team Olympiad): before the season each club
submits, for each of its teams, the players who may play for it in order; the rule "submitted ranking lists"
(services.league_rules) checks the cards against them.

* The season sets two days (``Season.ranking_deadline``, ``Season.nomination_deadline``). Until the first, the
  club's secretary submits and reorders each list freely. After it, until the second, players may only be
  nominated late: added at the end of a list, the list above them unchanged. After the second, the secretary
  changes nothing. The league's organiser may still change a list at any time (a settled dispute); a player
  nominated after the nomination deadline so breaks the rule on every card they play.
* A day a player was nominated is kept (``nominated_on``); a player already on the list keeps theirs.
* A list holds members of the team's club only, and a player is on one list of the club in the season.
* The lists are public once the first deadline has passed (the league's rules page links them); the organiser
  and each club's secretary see them before.
* An event without a season has no deadlines: its clubs' lists are open to changes and not public.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import PermissionDenied, ServiceError
from ..models import ClubMembership, Event, Player, RankingListEntry, Season, Team
from ..permissions import AnyUser, is_club_secretary, is_league_organiser, secretary_club_ids
from .league_rules import event_rules_rescan, season_teams


def deadlines_check(season: Season) -> None:
    """The season's two days (set with the season, services.leagues.season_save): late nominations end on or after
    the day the lists are due (empty: on that day); no end of late nominations without the first day."""
    ranking, nomination = season.ranking_deadline, season.nomination_deadline
    if ranking is None:
        if nomination is not None:
            raise ServiceError(_("Set the day the ranking lists are due first."), code="ranking_deadline_required")
        return
    if nomination is None:
        season.nomination_deadline = nomination = ranking
    if nomination < ranking:
        raise ServiceError(
            _("Late nominations end on or after the day the ranking lists are due."), code="bad_nomination_deadline"
        )


def deadlines_changed(season: Season) -> None:
    """The days changed: the saved cards of the season are checked again (a late nomination may now be one)."""
    for event in Event.objects.filter(season=season, kind=Event.Kind.TEAM):
        event_rules_rescan(event=event)


def can_edit(user: AnyUser, team: Team) -> bool:
    """The team's club's secretary or the league's organiser."""
    return is_league_organiser(user, team.event.league_id) or is_club_secretary(user, team.club_id)


def is_public(season: Season | None, today: datetime.date | None = None) -> bool:
    """The lists are public once the day they were due has passed."""
    today = today or timezone.localdate()
    return season is not None and season.ranking_deadline is not None and today > season.ranking_deadline


def ranking_list(team: Team) -> list[RankingListEntry]:
    return list(team.ranking_list.select_related("player").order_by("position"))


def ranking_list_set(*, team: Team, user: AnyUser, players: Sequence[Player | int]) -> list[RankingListEntry]:
    """Submit the team's ranking list (``players`` in order, the whole list). Before the season's ranking-list
    deadline any list; after it, until the nomination deadline, only the list as it was with players added at its
    end; after that, nothing (the organiser: anything, at any time). Then every saved card of the season is
    checked again against the rules (services.league_rules)."""
    ids = [p.pk if isinstance(p, Player) else int(p) for p in players]
    with transaction.atomic():
        team = Team.objects.select_for_update(of=("self",)).select_related("event__season").get(pk=team.pk)
        if not can_edit(user, team):
            raise PermissionDenied(_("Only the club's secretary or the league's organiser submits its ranking list."))
        if len(set(ids)) != len(ids):
            raise ServiceError(_("A player is on the list twice."), code="player_twice")
        members = set(
            ClubMembership.objects.filter(club_id=team.club_id, player_id__in=ids).values_list("player_id", flat=True)
        )
        strangers = [pk for pk in ids if pk not in members]
        if strangers:
            names = ", ".join(Player.objects.filter(pk__in=strangers).order_by("name").values_list("name", flat=True))
            raise ServiceError(
                _("Not members of the club: %(players)s.") % {"players": names or strangers}, code="not_member"
            )
        elsewhere = RankingListEntry.objects.filter(
            team__in=[t for t in season_teams(team.event) if t.club_id == team.club_id and t.pk != team.pk],
            player_id__in=ids,
        ).select_related("player", "team")
        if elsewhere:
            first = elsewhere[0]
            raise ServiceError(
                _("%(player)s is on the ranking list of %(team)s already.")
                % {"player": first.player.public_name, "team": first.team.name},
                code="on_another_list",
            )
        current = list(team.ranking_list.order_by("position").values_list("player_id", "nominated_on"))
        today = timezone.localdate()
        if not is_league_organiser(user, team.event.league_id):
            _within_deadlines(team.event.season, [pk for pk, _day in current], ids, today)
        nominated = dict(current)
        team.ranking_list.all().delete()
        entries = RankingListEntry.objects.bulk_create(
            RankingListEntry(team=team, player_id=pk, position=i, nominated_on=nominated.get(pk, today))
            for i, pk in enumerate(ids, start=1)
        )
        for event in {t.event for t in season_teams(team.event)}:
            event_rules_rescan(event=event)
    return entries


def _within_deadlines(season: Season | None, current: list[int], wanted: list[int], today: datetime.date) -> None:
    if season is None or season.ranking_deadline is None or today <= season.ranking_deadline:
        return
    if season.nomination_deadline is None or today > season.nomination_deadline:
        raise ServiceError(
            _("The last day of nominations has passed: only the league's organiser changes the list now."),
            code="nominations_closed",
        )
    if wanted[: len(current)] != current:
        raise ServiceError(
            _(
                "The ranking lists were due: players may only be added at the end of the list, the list above "
                "unchanged."
            ),
            code="late_list_changed",
        )


def lists_to_submit(user: AnyUser, today: datetime.date | None = None) -> list[Team]:
    """The teams of the user's clubs whose ranking list is still open to the club: in a season with a day the
    lists are due and nominations not yet closed (the dashboard)."""
    today = today or timezone.localdate()
    clubs = secretary_club_ids(user)
    return list(
        Team.objects.filter(
            club__in=clubs,
            event__kind=Event.Kind.TEAM,
            event__season__ranking_deadline__isnull=False,
            event__season__nomination_deadline__gte=today,
        )
        .select_related("event__season")
        .order_by("event__season__ranking_deadline", "event__name", "name")
    )


def club_members_for(team: Team) -> list[Player]:
    """The players the team's list may hold: the club's members not retired and not on another list of the club
    in the season, those on the list first (in its order), then by name."""
    others = RankingListEntry.objects.filter(
        team__in=[t for t in season_teams(team.event) if t.club_id == team.club_id and t.pk != team.pk]
    ).values_list("player_id", flat=True)
    listed = {e.player_id: e.position for e in team.ranking_list.all()}
    members = Player.objects.filter(clubs=team.club_id).exclude(pk__in=list(others)).distinct()
    players = [p for p in members if not p.retired or p.pk in listed]
    return sorted(players, key=lambda p: (listed.get(p.pk, 10**6), p.name))
