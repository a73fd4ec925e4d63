"""An individual event's entries: registering a player (a late entry gets a bye in each round it missed), a
withdrawal, the rating at start, and taking a player (or a team without matches) off the event before round 1
is published; the start numbers follow (services.start_numbers).

Every function checks that the user organises the league (``entry_remove_by_registration``: the registration
service's own call, for a player's signed link), validates everything before writing, and writes in one
transaction: a refused call changes nothing. Errors are ServiceError with a code and a sentence; field errors
(FieldError) carry ``field`` so a form can show them next to the field."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import FieldError, ServiceError
from ..models import Entry, Event, Game, PairingSettings, Player, Registration, Result, ResultChange, Team, TeamMatch
from ..permissions import AnyUser, acting_user
from .events import _editable_event
from .players import players_of_league
from .ratings import rating_by_method
from .results import event_results_changed, result_record
from .start_numbers import (
    _pairing_outdated,
    _published_rounds,
    _start_numbers_closed_up,
    _start_numbers_ranked,
    numbers_follow_ranking,
    round_one_published,
)

LATE_BYES = {"zero": Result.ZERO_POINT_BYE, "half": Result.HALF_POINT_BYE}

#: the highest rating an entry may have (as the registration form allows)
MAX_RATING = 3500


def entry_register(
    *, event: Event, user: AnyUser, player: Player, rating: int | None = None, late_bye: str = "zero"
) -> Entry:
    """Register a player in an individual event. Until round 1 is published a Swiss event's start numbers
    follow the initial ranking (:func:`.start_numbers.initial_ranking`), so the entry takes its place there and those
    below move down one; a round robin's entry, and a late entry, take the next start number. A late
    entry (rounds already published) receives a zero-point (or, as the organiser decides, half-point)
    bye in each round it missed."""
    if late_bye not in LATE_BYES:
        raise FieldError("late_bye", _("Choose the bye for the rounds missed."))
    with transaction.atomic():
        event = _editable_event(event, user)
        if event.is_team:
            raise ServiceError(_("Players of a team event play in its teams' rosters."), code="team_event")
        if not players_of_league(event.league).filter(pk=player.pk).exists():
            raise FieldError("player", _("This player is not in the league's registry."))
        if not event.league.players_without_club and not player.clubs.filter(leagues=event.league).exists():
            raise FieldError("player", _("The league enters players of its clubs only."))
        if Entry.objects.filter(event=event, player=player).exists():
            raise FieldError("player", _("%(player)s is registered already.") % {"player": player.name})
        number = (Entry.objects.filter(event=event).aggregate(n=Max("start_number"))["n"] or 0) + 1
        if rating is None:
            rating = rating_by_method(player, event.rating_method)
        entry = Entry.objects.create(event=event, start_number=number, player=player, rating=rating)
        late = round_one_published(event)
        for rnd in _published_rounds(event):
            board = (rnd.games.aggregate(b=Max("board"))["b"] or 0) + 1
            game = Game.objects.create(round=rnd, board=board, white=entry)
            result_record(
                game_id=game.pk,
                result=LATE_BYES[late_bye],
                user=user,
                source=ResultChange.Source.FORM,
                reason="late entry",
            )
        if not late and numbers_follow_ranking(event):
            _start_numbers_ranked(event)
            entry.refresh_from_db()
        event_results_changed(event_id=event.pk)
        return entry


def entry_withdraw(*, entry: Entry, user: AnyUser, after_round: int | None) -> Entry:
    with transaction.atomic():
        event = _editable_event(entry.event, user)
        if after_round is not None and not 0 <= after_round <= event.rounds_count:
            raise FieldError("after_round", _("No such round."))
        entry.withdrawn_after_round = after_round
        entry.save(update_fields=["withdrawn_after_round"])
        event_results_changed(event_id=event.pk)
        return entry


def entry_rating_set(*, entry: Entry, user: AnyUser, rating: int | None) -> Entry:
    """Correct a player's rating at the start of the event (empty: unrated). Until round 1 is published a
    Swiss event's start numbers follow the initial ranking again; afterwards they stay."""
    if rating is not None and not 0 <= rating <= MAX_RATING:
        raise FieldError("rating", _("A rating is a number from 0 to %(max)s.") % {"max": MAX_RATING})
    with transaction.atomic():
        event = _editable_event(entry.event, user)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.player_id is None:
            raise ServiceError(_("Players of a team event play in its teams' rosters."), code="team_event")
        if entry.rating == rating:
            return entry
        entry.rating = rating
        entry.save(update_fields=["rating"])
        if numbers_follow_ranking(event) and not round_one_published(event):
            _start_numbers_ranked(event)
            entry.refresh_from_db()
        event_results_changed(event_id=event.pk)  # ratings count in tiebreaks (ARO, TPR) and the rating report
        return entry


def entry_remove(*, entry: Entry, user: AnyUser) -> None:
    """Take a player off an event before round 1 is published (afterwards the player withdraws instead).
    Their requested byes and forbidden pairs go with them; the start numbers close up (a Swiss event's in
    the initial ranking, a round robin's in their order) and a pairing not yet published is made again."""
    with transaction.atomic():
        event = _editable_event(entry.event, user)
        _entry_removed(event, entry, acting_user(user))


def entry_remove_by_registration(*, entry: Entry) -> None:
    """The registration service's own removal of an entry, for a player who withdraws their registration with the
    signed link of its e-mails (leagues/services/registration.py checks the link): the same rule as
    :func:`entry_remove`, without an organiser."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=entry.event_id)
        if event.status == Event.Status.FINISHED:
            raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
        _entry_removed(event, entry, None)


def in_schedule(entry: Entry) -> bool:
    """Whether a team entry has matches in its event's schedule (a league's drawn fixtures, a cup's ties): such a team
    is withdrawn, not taken off."""
    return entry.team_id is not None and TeamMatch.objects.filter(Q(home=entry) | Q(away=entry)).exists()


def _entry_removed(event: Event, entry: Entry, by: User | None) -> None:
    """Whoever removes an entry, a registration that held it frees its place: it is withdrawn (and the organiser's
    registration page offers the place to the first on the waiting list)."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if in_schedule(entry):
        raise ServiceError(
            _("%(team)s has matches in the schedule: withdraw the team instead.") % {"team": entry.name},
            code="team_in_schedule",
        )
    if round_one_published(event):
        raise ServiceError(
            _("Round 1 is published: %(player)s can only withdraw.") % {"player": entry.name},
            code="round_one_published",
        )
    number = entry.start_number
    Game.objects.filter(round__event=event).filter(Q(white=entry) | Q(black=entry)).delete()
    settings = PairingSettings.objects.filter(event=event).first()
    if settings is not None and settings.forbidden_pairs:
        settings.forbidden_pairs = [pair for pair in settings.forbidden_pairs if number not in pair]
        settings.save(update_fields=["forbidden_pairs"])
    Registration.objects.filter(entry=entry).update(
        status=Registration.Status.WITHDRAWN, entry=None, decided_at=timezone.now(), decided_by=by
    )
    team_id = entry.team_id
    entry.delete()
    if team_id is not None:
        Team.objects.filter(pk=team_id).delete()  # a team entry's team and roster go with it
    if numbers_follow_ranking(event):
        _start_numbers_ranked(event)
    else:
        _start_numbers_closed_up(event)
    _pairing_outdated(event)
    event_results_changed(event_id=event.pk)
