"""Who may do what: the same checks for forms, API and admin, and the one place that looks up roles (who
organises a league, who is a club's secretary or an event's arbiter), for checks and for choosing whom to
tell or what to list."""

from collections.abc import Iterable

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q
from django.utils import timezone

from .models import Event, Game, Role

# who asks: a user, a visitor who is not logged in, or nobody (commands, imports run by the system)
AnyUser = User | AnonymousUser | None


def acting_user(user: AnyUser) -> User | None:
    """The user recorded as the author of a change (None for a visitor or the system)."""
    return user if isinstance(user, User) else None


def _roles(user: AnyUser) -> list[Role]:
    if not isinstance(user, User):
        return []
    cache: list[Role] | None = getattr(user, "_league_roles", None)
    if cache is None:
        cache = list(Role.objects.filter(user=user))
        user._league_roles = cache  # type: ignore[attr-defined]  # one query per request
    return cache


def organised_league_ids(user: AnyUser) -> set[int]:
    """The leagues the user is an organiser of (by role: a superuser's are not listed, they may do everything)."""
    return {r.league_id for r in _roles(user) if r.kind == Role.Kind.ORGANISER and r.league_id is not None}


def secretary_club_ids(user: AnyUser) -> set[int]:
    """The clubs the user is a secretary of."""
    return {r.club_id for r in _roles(user) if r.kind == Role.Kind.SECRETARY and r.club_id is not None}


def arbitrated_event_ids(user: AnyUser) -> set[int]:
    """The events the user is an arbiter of."""
    return {r.event_id for r in _roles(user) if r.kind == Role.Kind.ARBITER and r.event_id is not None}


def is_club_secretary(user: AnyUser, club_id: int) -> bool:
    return club_id in secretary_club_ids(user)


def event_arbiters(event: Event) -> list[User]:
    """The event's arbiters, in the order they were named."""
    return [
        role.user
        for role in Role.objects.filter(kind=Role.Kind.ARBITER, event=event).select_related("user").order_by("pk")
    ]


def club_secretaries(club_ids: Iterable[int]) -> list[User]:
    """The secretaries of any of these clubs, each once."""
    return list(
        User.objects.filter(roles__kind=Role.Kind.SECRETARY, roles__club__in=list(club_ids)).distinct().order_by("pk")
    )


def league_organisers(league_id: int) -> list[User]:
    """The league's organisers (by role), each once."""
    return list(User.objects.filter(roles__kind=Role.Kind.ORGANISER, roles__league=league_id).distinct().order_by("pk"))


def is_league_organiser(user: AnyUser, league_id: int) -> bool:
    """The league's organisers and superusers (an event's arbiter is not one): they import events, draw
    the schedule and override a locked tiebreak policy."""
    if user and user.is_authenticated and user.is_superuser:
        return True
    return league_id in organised_league_ids(user)


def can_manage_event(user: AnyUser, event: Event) -> bool:
    """Organisers of the event's league, its arbiters, and superusers."""
    return is_league_organiser(user, event.league_id) or event.id in arbitrated_event_ids(user)


def can_see_event(user: AnyUser, event: Event) -> bool:
    """A draft is seen only by those who manage it: not in the API, not on anyone else's pages."""
    return event.status != Event.Status.DRAFT or can_manage_event(user, event)


def clubs_of_game(game: Game) -> set[int]:
    """The clubs whose secretaries answer for this game: a team's club, or each player's clubs of the
    event's league on the day the round was played (the round's date, else the event's start, else today)."""
    event = game.round.event
    day = game.round.date or event.starts_on or timezone.localdate()
    clubs: set[int] = set()
    for entry in (game.white, game.black):
        if entry is None:
            continue
        if entry.team is not None:
            clubs.add(entry.team.club_id)
        elif entry.player is not None:
            clubs.update(
                entry.player.clubmembership_set.filter(Q(since__isnull=True) | Q(since__lte=day))
                .filter(Q(until__isnull=True) | Q(until__gte=day), club__leagues=event.league_id)
                .values_list("club_id", flat=True)
            )
    return clubs


def can_enter_result(user: AnyUser, game: Game) -> bool:
    event = game.round.event
    if can_manage_event(user, event):
        return True
    return bool(secretary_club_ids(user) & clubs_of_game(game))


def can_attach_moves(user: AnyUser, game: Game) -> bool:
    """Who may change a game's result may attach its moves (a match's board too: moves are not its result)."""
    return can_enter_result(user, game)
