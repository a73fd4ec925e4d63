"""Who may do what: the same checks for forms, API and admin."""

from .models import Event, Game, Role


def _roles(user):
    if not user or not user.is_authenticated:
        return []
    cache = getattr(user, "_league_roles", None)
    if cache is None:
        cache = list(Role.objects.filter(user=user))
        user._league_roles = cache
    return cache


def is_league_organiser(user, league_id: int) -> bool:
    """The league's organisers and superusers (an event's arbiter is not one): they import events, draw
    the schedule and override a locked tiebreak policy."""
    if user and user.is_authenticated and user.is_superuser:
        return True
    return any(r.kind == Role.Kind.ORGANISER and r.league_id == league_id for r in _roles(user))


def can_manage_event(user, event: Event) -> bool:
    """Organisers of the event's league, its arbiters, and superusers."""
    return is_league_organiser(user, event.league_id) or any(
        r.kind == Role.Kind.ARBITER and r.event_id == event.id for r in _roles(user)
    )


def clubs_of_game(game: Game) -> set[int]:
    clubs = set()
    for entry in (game.white, game.black):
        if entry is None:
            continue
        if entry.team_id:
            clubs.add(entry.team.club_id)
        elif entry.player_id:
            clubs.update(entry.player.clubmembership_set.values_list("club_id", flat=True))
    return clubs


def can_enter_result(user, game: Game) -> bool:
    event = game.round.event
    if can_manage_event(user, event):
        return True
    secretary_of = {r.club_id for r in _roles(user) if r.kind == Role.Kind.SECRETARY}
    return bool(secretary_of & clubs_of_game(game))
