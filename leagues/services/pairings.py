"""Making pairings: one game (or bye) of a round, checked before it is stored.

The hard errors, each with a stable code (the admin form shows the same checks):

* ``same_player``: white and black are the same entry (or, in a team event, the same player).
* ``player_not_in_event``: an entry of another event; in a team event, a game whose teams are not the
  match's two teams, or a board player who belongs to neither the team's roster nor its club.
* ``player_twice_in_round``: an entry (individual events) or a board player (team events) who already
  has a game or bye in this round.
* ``event_finished``: the event is finished; its pairings no longer change.

Eligibility questions that only warn (roster order, higher teams…) live in :mod:`leagues.eligibility`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from ..errors import PermissionDenied, ServiceError
from ..models import ClubMembership, Entry, Event, Game, Player, Round, TeamMatch, TeamMember
from ..page_cache import pages_changed
from ..permissions import AnyUser, can_manage_event


@dataclass(frozen=True)
class PairingProblem:
    code: str
    field: str | None  # the form field it concerns (None: the whole pairing)
    message: str


def _name(entry_or_player: Entry | Player) -> str:
    return str(entry_or_player)


def _on_side(player: Player, entry: Entry) -> bool:
    """A board player belongs to a side when on its team's roster or a member of its club."""
    team = entry.team
    if team is None:
        return False
    return (
        TeamMember.objects.filter(team=team, player=player).exists()
        or ClubMembership.objects.filter(club_id=team.club_id, player=player).exists()
    )


def pairing_problems(
    *,
    round: Round,
    board: int | None,
    white: Entry | None,
    black: Entry | None = None,
    match: TeamMatch | None = None,
    white_player: Player | None = None,
    black_player: Player | None = None,
    exclude_pk: int | None = None,
) -> list[PairingProblem]:
    """Every hard error of a pairing, in a stable order; an empty list means it may be stored.

    `exclude_pk` is the game being edited (it does not collide with itself)."""
    event = round.event
    problems: list[PairingProblem] = []
    if event.status == Event.Status.FINISHED:
        problems.append(
            PairingProblem("event_finished", None, _("The event is finished; its pairings can no longer change."))
        )
    if white is None:
        problems.append(PairingProblem("player_not_in_event", "white", _("A pairing needs a player with white.")))
        return problems
    for field, entry in (("white", white), ("black", black)):
        if entry is not None and entry.event_id != event.pk:
            problems.append(
                PairingProblem(
                    "player_not_in_event",
                    field,
                    _("%(name)s is not playing in %(event)s.") % {"name": _name(entry), "event": event},
                )
            )
    if black is not None and black.pk == white.pk:
        problems.append(
            PairingProblem(
                "same_player", "black", _("%(name)s cannot play against themselves.") % {"name": _name(white)}
            )
        )
    others = Game.objects.filter(round=round)
    if exclude_pk is not None:
        others = others.exclude(pk=exclude_pk)
    if event.is_team:
        problems.extend(_team_problems(round, white, black, match, white_player, black_player, others))
    else:
        for field, entry in (("white", white), ("black", black)):
            if entry is None or (field == "black" and entry.pk == white.pk):
                continue
            if others.filter(Q(white=entry) | Q(black=entry)).exists():
                problems.append(
                    PairingProblem(
                        "player_twice_in_round",
                        field,
                        _("%(name)s already has a game in round %(number)s.")
                        % {"name": _name(entry), "number": round.number},
                    )
                )
    return problems


def _team_problems(
    round: Round,
    white: Entry,
    black: Entry | None,
    match: TeamMatch | None,
    white_player: Player | None,
    black_player: Player | None,
    others: QuerySet[Game],
) -> list[PairingProblem]:
    problems: list[PairingProblem] = []
    if match is None or match.round_id != round.pk or black is None:
        problems.append(
            PairingProblem(
                "player_not_in_event", "match", _("In a team event every board belongs to a match of this round.")
            )
        )
        return problems
    if {white.pk, black.pk} != {match.home_id, match.away_id}:
        problems.append(
            PairingProblem("player_not_in_event", "white", _("The board's teams must be the match's two teams."))
        )
        return problems
    elsewhere = others.exclude(match=match).filter(Q(white__in=(white, black)) | Q(black__in=(white, black)))
    if elsewhere.exists():
        problems.append(
            PairingProblem(
                "player_twice_in_round",
                "match",
                _("One of these teams already plays another match in round %(number)s.") % {"number": round.number},
            )
        )
    if white_player is not None and black_player is not None and white_player.pk == black_player.pk:
        problems.append(
            PairingProblem(
                "same_player", "black_player", _("%(name)s cannot play against themselves.") % {"name": white_player}
            )
        )
    for field, player, entry in (("white_player", white_player, white), ("black_player", black_player, black)):
        if player is None:
            continue
        if field == "black_player" and white_player is not None and player.pk == white_player.pk:
            continue
        if not _on_side(player, entry):
            problems.append(
                PairingProblem(
                    "player_not_in_event",
                    field,
                    _("%(name)s plays neither for %(team)s nor for its club.") % {"name": player, "team": entry},
                )
            )
        if others.filter(Q(white_player=player) | Q(black_player=player)).exists():
            problems.append(
                PairingProblem(
                    "player_twice_in_round",
                    field,
                    _("%(name)s already has a game in round %(number)s.") % {"name": player, "number": round.number},
                )
            )
    return problems


def game_pair(
    *,
    round: Round,
    board: int,
    white: Entry,
    black: Entry | None = None,
    user: AnyUser,
    match: TeamMatch | None = None,
    white_player: Player | None = None,
    black_player: Player | None = None,
) -> Game:
    """Pair one game (or, without `black`, a bye) in `round`. Only the event's organiser or arbiter may.

    Raises PermissionDenied or ServiceError (codes above, plus ``board_taken``); then nothing was stored."""
    with transaction.atomic():
        round = Round.objects.select_related("event").get(pk=round.pk)
        # one pairing of an event at a time, so two arbiters cannot pair the same player twice at once
        event = Event.objects.select_for_update().get(pk=round.event_id)
        round.event = event
        if not can_manage_event(user, event):
            raise PermissionDenied(_("Only the league's organiser or the event's arbiter may make pairings."))
        problems = pairing_problems(
            round=round,
            board=board,
            white=white,
            black=black,
            match=match,
            white_player=white_player,
            black_player=black_player,
        )
        if problems:
            raise ServiceError(problems[0].message, code=problems[0].code)
        if Game.objects.filter(round=round, match=match, board=board).exists():
            raise ServiceError(
                _("Board %(board)s of this round is taken already.") % {"board": board}, code="board_taken"
            )
        pages_changed(event_id=event.pk)  # the round's pairings are on the event's pages
        try:
            with transaction.atomic():
                return Game.objects.create(
                    round=round,
                    match=match,
                    board=board,
                    white=white,
                    black=black,
                    white_player=white_player,
                    black_player=black_player,
                )
        except IntegrityError:
            raise ServiceError(
                _("Board %(board)s of this round is taken already.") % {"board": board}, code="board_taken"
            ) from None
