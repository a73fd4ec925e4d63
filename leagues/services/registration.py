"""Players register themselves for an individual event: the organiser opens registration (deadline, limit of
players, waiting list, entry fee), players register on the event's page or through the API, the organiser accepts,
refuses or moves them to the waiting list in bulk, keeps the entry fees' ledger and the check-in on the day.

Doors: the public form (leagues/public/registration.py), the organiser's pages (leagues/manage/registration.py) and
the API (leagues/api/registration.py) all call this module; roles come from leagues/permissions.py.

- A registration is matched against the player registry by FIDE id, else by name and birth year. The same player
  registers once: a repeated request (a double click, a retry) answers the registration already made, and sends
  no second e-mail.
- While the places (pending and accepted registrations) reach the limit, new registrations go to the waiting list
  (or are refused when the event keeps none). Accepting more than the limit is refused.
- An accepted registration becomes an entry through ``entries.entry_register`` (a Swiss event's start numbers follow
  the initial ranking until round 1 is published); a player new to the registry joins it through
  ``players.player_save``. A withdrawal frees the place: the page offers the first on the waiting list.
- The entrant is e-mailed (on the "email" queue, after the commit) in the language they registered in: on
  registering (or being put on the waiting list), on acceptance, refusal, and being moved to the waiting list.
- After round 1 is published an accepted player no longer withdraws themselves: the link of their e-mails asks the
  organiser, who confirms (the player is withdrawn as the organiser withdraws anyone) or declines; the player is
  e-mailed the answer.
- Entry fees are a ledger: due when accepted, paid, refunded, each line with who recorded it and when.
- Check-in: after the closing time the accepted players who did not check in are withdrawn from round 1 once the
  organiser confirms the list (``round_pairings.round_withdraw``); until then round 1 is not paired
  (``round_pairings.pairable_round_problem`` reads :func:`no_shows_unconfirmed`).

A team event's registration is a captain's (:func:`team_registration_submit`): the team's name, its club, the
captain's e-mail and a roster in board order, each player matched against the registry as above; at least the
event's boards, at most its boards and the reserves the organiser allows. The limit counts teams; a player is on one
team's roster of the event only. Accepting a team makes the event's team and its roster through
``teams.team_save`` and ``teams.roster_set`` (players new to the registry join it, and the team's club, through
``players.player_save``); its fees, e-mails (to the captain) and export are the individual registration's.

Every function checks before it writes and writes in one transaction: a refused call changes nothing.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet, Sum
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..dates import date_format, league_dates
from ..errors import Conflict, FieldError, NotFound, PermissionDenied, ServiceError
from ..models import (
    CURRENCIES,
    Club,
    ClubMembership,
    Entry,
    Event,
    FeeRecord,
    Player,
    RegisteredPlayer,
    Registration,
    RegistrationSettings,
    TeamMember,
)
from ..notifications import SEND_EMAIL, _plain_text, _send_task, language_of
from ..page_cache import pages_changed
from ..permissions import AnyUser, acting_user, can_manage_event, is_league_organiser, league_organisers
from ..text import csv_cell, has_control_characters, one_line
from .entries import entry_register, entry_remove, entry_remove_by_registration, entry_withdraw, in_schedule
from .federations import FIDE_FEDERATIONS
from .players import player_save
from .prize_funds import minor_units
from .round_pairings import last_paired_round, no_shows_waiting, round_withdraw
from .start_numbers import round_one_published
from .teams import roster_set, team_save

Status = Registration.Status
#: the registrations that hold a place (the limit counts them)
HOLDING_A_PLACE = (Status.PENDING, Status.ACCEPTED)
#: what the organiser may decide in bulk, and from which states
DECISIONS: dict[str, tuple[str, ...]] = {
    "accept": (Status.PENDING, Status.WAITING, Status.REFUSED),
    "refuse": (Status.PENDING, Status.WAITING),
    "wait": (Status.PENDING, Status.REFUSED),
    "withdraw": (Status.PENDING, Status.WAITING, Status.ACCEPTED),
}
FIRST_BIRTH_YEAR = 1900
#: registrations of one event with the same e-mail address (a parent registers their children)
REGISTRATIONS_PER_ADDRESS = 6


def _organiser(user: AnyUser, event: Event) -> None:
    if not is_league_organiser(user, event.league_id):
        raise PermissionDenied(_("Only the league's organisers may manage the registration."))


def _manager(user: AnyUser, event: Event) -> None:
    if not can_manage_event(user, event):
        raise PermissionDenied(_("Only the league's organiser or the event's arbiter may run the check-in."))


def settings_of(event: Event) -> RegistrationSettings:
    """The event's registration settings (closed, unsaved, when the organiser never opened it)."""
    found = RegistrationSettings.objects.filter(event=event).first()
    return found if found is not None else RegistrationSettings(event=event)


def _locked_settings(event: Event) -> RegistrationSettings:
    found, _created = RegistrationSettings.objects.select_for_update().get_or_create(event=event)
    return found


def fee_amount(event: Event, amount: int) -> Decimal:
    """Minor units as the league's currency writes them (e.g. 1500 → 15.00)."""
    decimals = CURRENCIES.get(event.league.currency, ("", 2))[1]
    return Decimal(amount).scaleb(-decimals)


# ------------------------------------------------------------------------------------------ the organiser's settings

SETTINGS_FIELDS = {"is_open", "deadline", "limit", "waiting_list", "fee", "checkin_closes_at", "reserves"}


def registration_settings_save(*, event: Event, user: AnyUser, fields: dict[str, Any]) -> RegistrationSettings:
    """Open or close registration and set its deadline, limit (of players, or of teams in a team event), waiting
    list, entry fee (in the league's currency, e.g. Decimal("15.00")), the check-in's closing time and (a team
    event) the reserves a team may name besides its boards."""
    _organiser(user, event)
    unknown = set(fields) - SETTINGS_FIELDS
    if unknown:
        raise ServiceError(_("“%(field)s” cannot be set here.") % {"field": sorted(unknown)[0]}, code="unknown_field")
    with transaction.atomic():
        event = Event.objects.select_for_update().select_related("league").get(pk=event.pk)
        if event.status == Event.Status.FINISHED:
            raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
        if fields.get("reserves") is not None and not event.is_team:
            raise FieldError("reserves", _("Only a team event's teams have reserves."))
        found = _locked_settings(event)
        for name, value in fields.items():
            if name == "fee":
                value = value or Decimal(0)
                if Decimal(value) < 0:
                    raise FieldError("fee", _("The entry fee cannot be negative."))
                value = minor_units(Decimal(value), event.league.currency)
            if name == "limit" and value is not None and value < 1:
                raise FieldError("limit", _("The limit is at least one player."))
            setattr(found, name, value)
        if found.is_open and event.status == Event.Status.DRAFT:
            raise FieldError("is_open", _("Publish the event first: players register on its public page."))
        found.save()
        pages_changed(event_id=event.pk)  # the event's page says whether players may register
        return found


# ------------------------------------------------------------------------------------------ registering


def _now() -> datetime:
    return timezone.now()


def closed_reason(event: Event, found: RegistrationSettings | None = None) -> str | None:
    """Why nobody may register now (None: registration is open)."""
    found = found if found is not None else settings_of(event)
    if event.status in (Event.Status.DRAFT, Event.Status.FINISHED) or not found.is_open:
        return _("Registration for this event is not open.")
    if found.deadline is not None and _now() > found.deadline:
        return _("Registration closed on %(deadline)s.") % {
            "deadline": date_format(timezone.localtime(found.deadline), "DATETIME_FORMAT")
        }
    if round_one_published(event):
        return _("Round 1 is published: registration is closed.")
    return None


def _folded(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", " ".join(name.split()))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@dataclass
class Typed:
    """What the player typed, checked."""

    email: str
    fide_id: int | None
    name: str
    federation: str
    birth_year: int | None
    club: str


def _email_checked(email: str) -> str:
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise FieldError("email", _("Enter a valid e-mail address."), code="bad_email") from None
    return email


def _text_checked(field: str, value: str) -> str:
    value = " ".join((value or "").split())
    if has_control_characters(value) or len(value) > 200:
        raise FieldError(field, _("Use letters, digits and punctuation only (no line breaks or control characters)."))
    return value


def _checked(
    event: Event, *, email: str, fide_id: Any, name: str, federation: str, birth_year: Any, club: str
) -> tuple[Typed, Player | None]:
    email = _email_checked(email)
    club = _text_checked("club", club)
    typed, player = _player_checked(fide_id=fide_id, name=name, federation=federation, birth_year=birth_year)
    if club and _club(event, club) is None:
        raise FieldError("club", _("No club of the league is called “%(value)s”.") % {"value": club})
    if not club and not event.league.players_without_club:
        if player is None or not player.clubs.filter(leagues=event.league_id).exists():
            raise FieldError("club", _("The league enters players of its clubs only: name the club."))
    typed.email, typed.club = email, club
    return typed, player


def _player_checked(*, fide_id: Any, name: str, federation: str, birth_year: Any) -> tuple[Typed, Player | None]:
    """One player as typed, matched against the registry: by FIDE id, else by name and birth year."""
    name, federation = _text_checked("name", name), (federation or "").strip().upper()
    fide = _whole_number(fide_id, "fide_id", _("A FIDE id is a number."))
    year = _whole_number(birth_year, "birth_year", _("A birth year is a number such as 1990."))
    if year is not None and not FIRST_BIRTH_YEAR <= year <= _now().year:
        raise FieldError("birth_year", _("A birth year is a number such as 1990."))
    if federation and federation not in FIDE_FEDERATIONS:
        raise FieldError("federation", _("“%(value)s” is not a FIDE federation code.") % {"value": federation})
    player = None
    if fide is not None:
        player = Player.objects.filter(fide_id=fide).first()
        if player is None and not name:
            raise FieldError("name", _("This FIDE id is not in our registry: give your name too."))
    elif not name:
        raise FieldError("fide_id", _("Give your FIDE id, or your name."), code="no_player")
    elif year is None:
        raise FieldError("birth_year", _("Without a FIDE id, give your birth year too."))
    else:
        player = Player.objects.filter(name__iexact=name, birth_year=year, fide_id__isnull=True).order_by("pk").first()
    if player is not None:
        name = player.name
    return Typed("", fide, name, federation, year, ""), player


def _whole_number(value: Any, field: str, message: str) -> int | None:
    if value in (None, ""):
        return None
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise FieldError(field, message)
    return int(text)


def _club(event: Event, text: str) -> Club | None:
    wanted = text.casefold()
    for club in Club.objects.filter(leagues=event.league_id):
        if wanted in (club.name.casefold(), club.short_name.casefold(), club.slug.casefold()):
            return club
    return None


def _who(typed: Typed, player: Player | None) -> dict[str, Any]:
    """Who registered as the registration keeps it: as typed, the registry's federation and birth year filling what
    was left out."""
    return {
        "fide_id": typed.fide_id,
        "name": typed.name,
        "federation": typed.federation or (player.federation if player else ""),
        "birth_year": typed.birth_year or (player.birth_year if player else None),
    }


def _key(typed: Typed, player: Player | None) -> str:
    """The same player, however the name was typed: the FIDE id, else the name and birth year folded."""
    fide_id = player.fide_id if player is not None and player.fide_id else typed.fide_id
    if fide_id is not None:
        return f"fide:{fide_id}"
    return f"name:{_folded(typed.name)}|{typed.birth_year}"


def registration_submit(
    *,
    event: Event,
    language: str,
    email: str,
    fide_id: Any = None,
    name: str = "",
    federation: str = "",
    birth_year: Any = None,
    club: str = "",
) -> tuple[Registration, bool]:
    """A player registers (anyone, without an account). Returns the registration and whether it is new: the same
    player registering again gets the registration they have, nothing is sent twice. Raises FieldError /
    ServiceError (``registration_closed``, ``full``, ``entered_already``); then nothing changed."""
    language = language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    event = Event.objects.select_related("league").get(pk=event.pk)
    if event.is_team:
        raise ServiceError(_("A team event's captains register their teams, with their players."), code="team_event")
    reason = closed_reason(event)
    if reason:
        raise ServiceError(reason, code="registration_closed")
    typed, player = _checked(
        event, email=email, fide_id=fide_id, name=name, federation=federation, birth_year=birth_year, club=club
    )
    key = _key(typed, player)
    try:
        with transaction.atomic():
            found = _locked_settings(event)  # one registration at a time: the limit counts every one before
            reason = closed_reason(event, found)
            if reason:
                raise ServiceError(reason, code="registration_closed")
            existing = Registration.objects.filter(event=event, key=key).first()
            if existing is not None:
                return existing, False
            if player is not None and Entry.objects.filter(event=event, player=player).exists():
                raise ServiceError(
                    _("%(player)s is entered in this event already.") % {"player": player.public_name},
                    code="entered_already",
                )
            status = _new_status(event, found, typed.email)
            registration = Registration.objects.create(
                event=event,
                key=key,
                player=player,
                **_who(typed, player),
                club=typed.club,
                email=typed.email,
                language=language,
                status=status,
            )
            _tell_after_commit(registration.pk, "registered")
            return registration, True
    except IntegrityError:  # the same registration made at the same moment by another request
        return Registration.objects.get(event=event, key=key), False


def _new_status(event: Event, found: RegistrationSettings, email: str) -> str:
    """A new registration's status (under the settings' lock): waiting for a decision, or on the waiting list once
    the places are taken. Refused when one address registered too many, or the event is full without a list."""
    # the form sends an e-mail to the address it is given: one address registers a family (a club's teams), not a
    # crowd
    by_address = Registration.objects.filter(event=event, email__iexact=email).count()
    if by_address >= REGISTRATIONS_PER_ADDRESS:
        message = (
            _("%(count)s teams have been registered with this e-mail address already: ask the organiser.")
            if event.is_team
            else _("%(count)s players have registered with this e-mail address already: ask the organiser.")
        )
        raise FieldError("email", message % {"count": by_address}, code="too_many_by_address")
    holding = Registration.objects.filter(event=event, status__in=HOLDING_A_PLACE).count()
    if found.limit is not None and holding >= found.limit:
        if not found.waiting_list:
            raise ServiceError(_("The event is full."), code="full")
        return Status.WAITING
    return Status.PENDING


@dataclass
class RosterLine:
    """One player of a team's roster as the captain typed them (a FIDE id, or name, federation and birth year)."""

    fide_id: Any = None
    name: str = ""
    federation: str = ""
    birth_year: Any = None

    def is_blank(self) -> bool:
        return not any(
            str(value or "").strip() for value in (self.fide_id, self.name, self.federation, self.birth_year)
        )


def roster_size(event: Event, found: RegistrationSettings | None = None) -> tuple[int, int | None]:
    """The fewest and the most players a team registers (None: no limit)."""
    found = found if found is not None else settings_of(event)
    return event.boards, None if found.reserves is None else event.boards + found.reserves


def _roster_checked(event: Event, lines: Sequence[RosterLine]) -> list[tuple[Typed, Player | None, str]]:
    """The roster in board order, each player matched and keyed; blank lines are skipped. A FieldError names the
    board (``players``)."""
    checked: list[tuple[Typed, Player | None, str]] = []
    for line in [line for line in lines if not line.is_blank()]:
        board = len(checked) + 1
        try:
            typed, player = _player_checked(
                fide_id=line.fide_id, name=line.name, federation=line.federation, birth_year=line.birth_year
            )
        except FieldError as exc:
            raise FieldError(
                "players", _("Board %(board)s: %(problem)s") % {"board": board, "problem": exc.message}, code=exc.code
            ) from None
        key = _key(typed, player)
        for first, _player, seen in checked:
            if key == seen:
                raise FieldError(
                    "players", _("%(player)s is on the roster twice.") % {"player": first.name}, code="player_twice"
                )
        checked.append((typed, player, key))
    fewest, most = roster_size(event)
    if len(checked) < fewest:
        raise FieldError(
            "players",
            ngettext(
                "The event plays on %(boards)s board: name at least %(boards)s player.",
                "The event plays on %(boards)s boards: name at least %(boards)s players.",
                fewest,
            )
            % {"boards": fewest},
            code="too_few_players",
        )
    if most is not None and len(checked) > most:
        raise FieldError(
            "players",
            ngettext(
                "A team names at most %(count)s player (its boards and reserves).",
                "A team names at most %(count)s players (its boards and reserves).",
                most,
            )
            % {"count": most},
            code="too_many_players",
        )
    return checked


def team_registration_submit(
    *, event: Event, language: str, email: str, team: str, club: str, players: Sequence[RosterLine]
) -> tuple[Registration, bool]:
    """A captain registers a team for a team event (anyone, without an account): the team's name, its club of the
    league, the captain's e-mail, and the roster in board order. Returns the registration and whether it is new: the
    same team (its name) registering again gets the registration it has, nothing is sent twice. Raises FieldError
    (``email``, ``team``, ``club``, ``players``: too few or too many, a player twice, a player on another team's
    roster) / ServiceError (``registration_closed``, ``full``, ``not_team_event``); then nothing changed."""
    language = language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    event = Event.objects.select_related("league").get(pk=event.pk)
    if not event.is_team:
        raise ServiceError(_("Teams play in team events only."), code="not_team_event")
    reason = closed_reason(event)
    if reason:
        raise ServiceError(reason, code="registration_closed")
    email = _email_checked(email)
    name = _text_checked("team", team)
    if not name:
        raise FieldError("team", _("The team needs a name."))
    club_name = _text_checked("club", club)
    found_club = _club(event, club_name) if club_name else None
    if found_club is None or found_club.retired:  # a retired club enters no new team
        raise FieldError(
            "club",
            _("No club of the league is called “%(value)s”.") % {"value": club_name}
            if club_name
            else _("A team plays for a club of the league: name the club."),
        )
    roster = _roster_checked(event, players)
    key = f"team:{_folded(name)}"
    try:
        with transaction.atomic():
            found = _locked_settings(event)
            reason = closed_reason(event, found)
            if reason:
                raise ServiceError(reason, code="registration_closed")
            existing = Registration.objects.filter(event=event, key=key).first()
            if existing is not None:
                return existing, False
            if event.teams.filter(name__iexact=name).exists():
                raise FieldError("team", _("The event has a team of this name already."))
            _roster_free(event, [(typed.name, player, player_key) for typed, player, player_key in roster])
            status = _new_status(event, found, email)
            registration = Registration.objects.create(
                event=event,
                key=key,
                name=name,
                club=found_club.name,
                email=email,
                language=language,
                status=status,
            )
            RegisteredPlayer.objects.bulk_create(
                RegisteredPlayer(
                    registration=registration,
                    board_order=board,
                    key=player_key,
                    player=player,
                    **_who(typed, player),
                )
                for board, (typed, player, player_key) in enumerate(roster, start=1)
            )
            _tell_after_commit(registration.pk, "registered")
            return registration, True
    except IntegrityError:  # the same team registered at the same moment by another request
        return Registration.objects.get(event=event, key=key), False


def _roster_free(
    event: Event, roster: list[tuple[str, Player | None, str]], registration: Registration | None = None
) -> None:
    """A player (name, matched player, key) plays for one team of the event: not on another registration's roster
    still in play, nor on a team of the event already (when `registration`, a refused team accepted later, is
    accepted, the players are checked again)."""
    keys = {key: name for name, _player, key in roster}
    taken = (
        RegisteredPlayer.objects.filter(registration__event=event, key__in=keys)
        .exclude(registration__status__in=(Status.REFUSED, Status.WITHDRAWN))
        .exclude(registration=registration)
        .select_related("registration")
        .first()
    )
    if taken is not None:
        raise FieldError(
            "players",
            _("%(player)s is on the roster of %(team)s already.")
            % {"player": keys[taken.key], "team": taken.registration.name},
            code="player_in_another_team",
        )
    ids = [player.pk for _name, player, _key in roster if player is not None]
    member = TeamMember.objects.filter(team__event=event, player__in=ids).select_related("team", "player").first()
    if member is not None:
        raise FieldError(
            "players",
            _("%(player)s is on the roster of %(team)s already.")
            % {"player": member.player.name, "team": member.team.name},
            code="player_in_another_team",
        )


# ------------------------------------------------------------------------------------------ the organiser decides


def registrations_of(event: Event) -> QuerySet[Registration]:
    return Registration.objects.filter(event=event).select_related("entry", "player").order_by("created_at", "pk")


def places_taken(event: Event) -> int:
    return Registration.objects.filter(event=event, status__in=HOLDING_A_PLACE).count()


def first_waiting(event: Event) -> Registration | None:
    """The first on the waiting list: who is offered a place that became free."""
    return Registration.objects.filter(event=event, status=Status.WAITING).order_by("created_at", "pk").first()


def place_free(event: Event) -> bool:
    found = settings_of(event)
    return found.limit is None or Registration.objects.filter(event=event, status=Status.ACCEPTED).count() < found.limit


def registrations_decide(*, event: Event, user: AnyUser, ids: Iterable[int], decision: str) -> list[Registration]:
    """Accept, refuse, move to the waiting list or withdraw the chosen registrations, all or none. Accepting makes
    each an entry (and a fee due); accepting past the limit is refused (``limit_reached``)."""
    _organiser(user, event)
    if decision not in DECISIONS:
        raise ServiceError(_("Choose what to do with the chosen registrations."), code="bad_decision")
    ids = sorted(set(ids))
    if not ids:
        raise ServiceError(_("Choose at least one registration."), code="nothing_chosen")
    with transaction.atomic():
        event = Event.objects.select_for_update().select_related("league").get(pk=event.pk)
        if event.status == Event.Status.FINISHED:
            raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
        found = _locked_settings(event)
        chosen = list(Registration.objects.select_for_update().filter(event=event, pk__in=ids).order_by("created_at"))
        if len(chosen) != len(ids):
            raise NotFound(_("There is no such registration."), code="unknown_registration")
        for registration in chosen:
            if registration.status not in DECISIONS[decision]:
                raise ServiceError(
                    _("%(name)s is %(status)s: this cannot be done.")
                    % {"name": registration.name, "status": registration.get_status_display()},
                    code="bad_state",
                )
        if decision == "accept" and found.limit is not None:
            accepted = Registration.objects.filter(event=event, status=Status.ACCEPTED).count()
            if accepted + len(chosen) > found.limit:
                raise ServiceError(
                    _("Only %(free)s of the %(limit)s places are free: accept fewer players.")
                    % {"free": max(found.limit - accepted, 0), "limit": found.limit},
                    code="limit_reached",
                )
        now = timezone.now()
        for registration in chosen:
            if decision == "accept":
                _accept(event, found, registration, user)
            elif decision == "withdraw":
                _withdraw(event, registration, user)
            registration.status = {
                "accept": Status.ACCEPTED,
                "refuse": Status.REFUSED,
                "wait": Status.WAITING,
                "withdraw": Status.WITHDRAWN,
            }[decision]
            registration.decided_at, registration.decided_by = now, acting_user(user)
            registration.save()
            if decision != "withdraw":
                _tell_after_commit(
                    registration.pk, {"accept": "accepted", "refuse": "refused", "wait": "waiting"}[decision]
                )
        return chosen


def _registry_player(
    event: Event, user: AnyUser, club: Club | None, player: Player | None, typed: RegisteredPlayer | Registration
) -> Player:
    """The registered player in the league's registry (and their club's): the one matched, else a new one."""
    if player is None:
        return player_save(
            league=event.league,
            user=user,
            club=club,
            fields={
                "name": typed.name,
                "fide_id": typed.fide_id,
                "federation": typed.federation,
                "birth_year": typed.birth_year,
            },
        )
    event.league.players.add(player)
    if club is not None:
        ClubMembership.objects.get_or_create(player=player, club=club)
    return player


def _accept(event: Event, found: RegistrationSettings, registration: Registration, user: AnyUser) -> None:
    club = _club(event, registration.club) if registration.club else None
    try:
        if event.is_team:
            if club is None:
                raise FieldError(
                    "club", _("No club of the league is called “%(value)s”.") % {"value": registration.club}
                )
            roster = list(registration.roster.select_related("player").order_by("board_order"))
            _roster_free(event, [(line.name, line.player, line.key) for line in roster], registration)
            players = []
            for line in roster:
                line.player = _registry_player(event, user, club, line.player, line)
                line.save(update_fields=["player"])
                players.append(line.player)
            team = team_save(event=event, user=user, club=club, name=registration.name)
            roster_set(team=team, user=user, players=players)
            player, entry = None, Entry.objects.get(team=team)
        else:
            player = _registry_player(event, user, club, registration.player, registration)
            entry = entry_register(event=event, user=user, player=player, rating=player.rating)
    except FieldError as exc:  # the registry or the entry refused this one: name whom, nothing is saved
        raise ServiceError(f"{registration.name}: {exc.message}", code=exc.code) from None
    registration.player, registration.entry = player, entry
    if found.fee and not registration.fees.filter(kind=FeeRecord.Kind.DUE).exists():
        FeeRecord.objects.create(
            registration=registration, kind=FeeRecord.Kind.DUE, amount=found.fee, recorded_by=acting_user(user)
        )


def _withdraw(event: Event, registration: Registration, user: AnyUser) -> None:
    """The player's entry leaves the event: taken off before round 1 is published, withdrawn afterwards from the
    next round to be paired, as the organiser withdraws any player (``round_pairings.round_withdraw``, recorded
    with the event's changes once it has started); a player asked to withdraw says so there, not their reason
    (which the organiser alone reads). A team is taken off with its roster in the same way, unless the schedule
    already has its matches (a league's drawn fixtures): then it is withdrawn from round 1 on, unpaired."""
    entry = registration.entry
    if entry is None:
        return
    if not round_one_published(event) and not in_schedule(entry):
        registration.entry = None
        registration.save(update_fields=["entry"])
        entry_remove(entry=entry, user=user)
    elif entry.withdrawn_after_round is None:
        last = last_paired_round(event)
        if last < event.rounds_count and not event.is_knockout:
            asked = _("the player asked to withdraw") if registration.withdrawal_requested_at else ""
            round_withdraw(entry=entry, round_number=last + 1, user=user, reason=asked)
        else:  # every round is paired (or a cup's draw makes its matches): not paired again after the last
            entry_withdraw(entry=entry, user=user, after_round=last)


# ------------------------------------------------------------------------------------------ the player withdraws

WITHDRAW_SALT = "leagues.registration.withdraw"
#: the states a player may leave with the link of their e-mails
WITHDRAWABLE = (Status.PENDING, Status.WAITING, Status.ACCEPTED)


def withdraw_token(registration: Registration) -> str:
    """The signed key of the withdrawal link in the entrant's e-mails (the registration and its address)."""
    return signing.dumps([registration.pk, registration.email], salt=WITHDRAW_SALT)


def withdraw_url(registration: Registration) -> str:
    with translation.override(registration.language):
        return settings.SITE_URL + reverse("leagues:registration-withdraw", args=[withdraw_token(registration)])


def registration_of_link(*, token: str) -> Registration:
    """The registration a withdrawal link names, read only (opening the link changes nothing). Raises ServiceError
    (``bad_link``) for a link that is not valid."""
    try:
        pk, email = signing.loads(token, salt=WITHDRAW_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        raise ServiceError(_("This link is not valid."), code="bad_link") from None
    found = (
        Registration.objects.select_related("event__league").filter(pk=pk, email=email).first()
        if isinstance(pk, int) and isinstance(email, str)
        else None
    )
    if found is None:
        raise ServiceError(_("This link is not valid."), code="bad_link")
    return found


def self_withdraw_problem(registration: Registration) -> str | None:
    """Why the player can no longer withdraw with the link (None: they can). A registration without a place in the
    pairings (waiting for a decision, on the waiting list) is withdrawn at any time before the event finishes; an
    accepted player's, once round 1 is published, is asked for (:func:`registration_withdrawal_request`)."""
    if registration.status == Status.WITHDRAWN:
        return _("This registration is withdrawn already.")
    if registration.status not in WITHDRAWABLE:
        return _("%(name)s is %(status)s: this cannot be done.") % {
            "name": registration.name,
            "status": registration.get_status_display(),
        }
    event = registration.event
    if event.status == Event.Status.FINISHED:
        return _("The event is finished; it can no longer change.")
    if registration.status == Status.ACCEPTED and event.is_team:
        return _("Your team is entered in the event: ask the organiser to withdraw it.")
    if registration.status == Status.ACCEPTED and round_one_published(event):
        return _("Round 1 is published: ask the organiser to withdraw you.")
    return None


def registration_withdraw_self(*, token: str) -> Registration:
    """The player pressed the withdrawal page's button (a POST): the registration is withdrawn, an accepted
    player's entry is taken off the event, and the league's organisers are e-mailed (with the first on the waiting
    list, who may be offered the freed place). Refused (``bad_link``, ``cannot_withdraw``) with nothing changed."""
    registration = registration_of_link(token=token)
    with transaction.atomic():
        event = Event.objects.select_for_update().select_related("league").get(pk=registration.event_id)
        _locked_settings(event)
        registration = Registration.objects.select_for_update().select_related("event__league").get(pk=registration.pk)
        problem = self_withdraw_problem(registration)
        if problem:
            raise ServiceError(problem, code="cannot_withdraw")
        was = registration.status
        entry = registration.entry
        if entry is not None:
            entry_remove_by_registration(entry=entry)  # withdraws the registration too (the entries' one rule)
            registration.refresh_from_db()
        else:
            registration.status = Status.WITHDRAWN
            registration.decided_at, registration.decided_by = timezone.now(), None
            registration.save()
        registration_id = registration.pk
        transaction.on_commit(lambda: _tell_organisers(registration_id, was))
        return registration


def registration_withdraw_by_link(*, token: str, reason: str = "") -> tuple[Registration, bool]:
    """The button of the withdrawal page and the API's withdrawal, one rule for both: before round 1 is published
    the registration is withdrawn at once (:func:`registration_withdraw_self`); afterwards an accepted player asks
    and the organiser confirms (:func:`registration_withdrawal_request`). Returns the registration and whether it is
    withdrawn now (False: the request waits for the organiser)."""
    registration = registration_of_link(token=token)
    if asks_the_organiser(registration):
        return registration_withdrawal_request(token=token, reason=reason)[0], False
    return registration_withdraw_self(token=token), True


def asks_the_organiser(registration: Registration) -> bool:
    """After round 1 is published an accepted player no longer withdraws themselves (their pairings are out): as
    Swiss-Manager's and chess-results' organisers mark withdrawals, the player asks and the organiser confirms."""
    return (
        registration.status == Status.ACCEPTED
        and not registration.event.is_team  # a team's captain asks the organiser by other means
        and registration.entry_id is not None
        and round_one_published(registration.event)
    )


def withdrawal_request_problem(registration: Registration) -> str | None:
    """Why the player cannot ask the organiser to withdraw them (None: they can, or they asked already)."""
    event, entry = registration.event, registration.entry
    if registration.status != Status.ACCEPTED or entry is None:
        return _("%(name)s is %(status)s: this cannot be done.") % {
            "name": registration.name,
            "status": registration.get_status_display(),
        }
    if event.status == Event.Status.FINISHED:
        return _("The event is finished; it can no longer change.")
    if entry.withdrawn_after_round is not None:
        return _("%(name)s withdrew after round %(round)s already.") % {
            "name": registration.name,
            "round": entry.withdrawn_after_round,
        }
    if not round_one_published(event):
        return _("Round 1 is not published yet: withdraw with the button, no need to ask.")
    return None


#: the longest reason a player gives for withdrawing
WITHDRAWAL_REASON_LENGTH = 300


def registration_withdrawal_request(*, token: str, reason: str = "") -> tuple[Registration, bool]:
    """An accepted player asks, after round 1 is published, to be withdrawn (with a reason if they like): the
    request waits on the organiser's registrations page and the league's organisers are e-mailed. Returns the
    registration and whether the request is new (asking again changes nothing and sends nothing). Refused
    (``bad_link``, ``cannot_withdraw``, a FieldError on ``reason``) with nothing changed."""
    registration = registration_of_link(token=token)
    reason = " ".join((reason or "").split())
    if has_control_characters(reason) or len(reason) > WITHDRAWAL_REASON_LENGTH:
        raise FieldError(
            "reason",
            _("Say why in at most %(count)s letters, without control characters.")
            % {"count": WITHDRAWAL_REASON_LENGTH},
        )
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=registration.event_id)
        registration = (
            Registration.objects.select_for_update(of=("self",))
            .select_related("event__league", "entry")
            .get(pk=registration.pk)
        )
        problem = withdrawal_request_problem(registration)
        if problem:
            raise ServiceError(problem, code="cannot_withdraw")
        if registration.withdrawal_requested_at is not None:
            return registration, False
        registration.withdrawal_requested_at, registration.withdrawal_reason = timezone.now(), reason
        registration.save(update_fields=["withdrawal_requested_at", "withdrawal_reason"])
        registration_id, rounds = registration.pk, last_paired_round(event)
        transaction.on_commit(lambda: _tell_organisers_of_request(registration_id, rounds))
        return registration, True


def _tell_organisers_of_request(registration_id: int, rounds: int) -> None:
    for message in withdrawal_request_messages(registration_id, rounds):
        _send_task(SEND_EMAIL, message=message)


def withdrawal_requests(event: Event) -> list[Registration]:
    """The players who asked to withdraw and wait for the organiser's answer, the oldest request first."""
    return list(
        Registration.objects.filter(event=event, status=Status.ACCEPTED, withdrawal_requested_at__isnull=False)
        .select_related("entry")
        .order_by("withdrawal_requested_at", "pk")
    )


def withdrawal_requests_decide(*, event: Event, user: AnyUser, ids: Iterable[int], confirm: bool) -> list[Registration]:
    """The organiser confirms the chosen requests (each player is withdrawn as the organiser withdraws anyone: the
    bulk "withdraw" of :func:`registrations_decide`, from the next round to be paired) or declines them (the
    player stays in the event), all or none; each player is e-mailed the answer in their language. Refused
    (``nothing_chosen``, ``unknown_registration``, ``no_request``) with nothing changed."""
    _organiser(user, event)
    ids = sorted(set(ids))
    if not ids:
        raise ServiceError(_("Choose at least one registration."), code="nothing_chosen")
    with transaction.atomic():
        chosen = list(Registration.objects.select_for_update().filter(event=event, pk__in=ids))
        if len(chosen) != len(ids):
            raise NotFound(_("There is no such registration."), code="unknown_registration")
        for registration in chosen:
            if registration.status != Status.ACCEPTED or registration.withdrawal_requested_at is None:
                raise ServiceError(
                    _("%(name)s has not asked to withdraw.") % {"name": registration.name}, code="no_request"
                )
        if confirm:
            registrations_decide(event=event, user=user, ids=ids, decision="withdraw")
        else:
            Registration.objects.filter(pk__in=ids).update(withdrawal_requested_at=None, withdrawal_reason="")
        for registration in chosen:
            _tell_after_commit(registration.pk, "withdrawal_confirmed" if confirm else "withdrawal_declined")
        return chosen


def withdrawal_request_messages(registration_id: int, rounds: int) -> list[dict[str, object]]:
    """The e-mails telling each of the league's organisers, in their language, that a player asks to be withdrawn
    (after `rounds` rounds were paired), with their reason."""
    registration = Registration.objects.select_related("event__league").get(pk=registration_id)
    event = registration.event
    messages: list[dict[str, object]] = []
    for user in league_organisers(event.league_id):
        if not user.email:
            continue
        with translation.override(language_of(user)):
            context = {
                "name": registration.name,
                "event": event,
                "rounds": rounds,
                "reason": registration.withdrawal_reason,
                "registrations_url": settings.SITE_URL + reverse("manage:registration", args=[event.slug]),
            }
            subject = _plain_text("emails/registration_withdrawal_requested_subject.txt", context).strip()
            body = _plain_text("emails/registration_withdrawal_requested.txt", context)
        messages.append({"to": [user.email], "subject": " ".join(subject.split()), "body": body})
    return messages


def _tell_organisers(registration_id: int, was: str) -> None:
    for message in withdrawal_messages(registration_id, was):
        _send_task(SEND_EMAIL, message=message)


def withdrawal_messages(registration_id: int, was: str) -> list[dict[str, object]]:
    """The e-mails telling each of the league's organisers, in their language, that a player withdrew their
    registration, and who is first on the waiting list when a place became free."""
    registration = Registration.objects.select_related("event__league").get(pk=registration_id)
    event = registration.event
    waiting = first_waiting(event) if place_free(event) else None
    messages: list[dict[str, object]] = []
    for user in league_organisers(event.league_id):
        if not user.email:
            continue
        language = language_of(user)
        with translation.override(language):
            context = {
                "name": registration.name,
                "event": event,
                "was": Status(was).label,
                "waiting": waiting.name if waiting is not None else "",
                "registrations_url": settings.SITE_URL + reverse("manage:registration", args=[event.slug]),
            }
            subject = _plain_text("emails/registration_withdrawn_subject.txt", context).strip()
            body = _plain_text("emails/registration_withdrawn.txt", context)
        messages.append({"to": [user.email], "subject": " ".join(subject.split()), "body": body})
    return messages


# ------------------------------------------------------------------------------------------ entry fees


@dataclass
class FeeLine:
    registration: Registration
    due: int
    paid: int
    refunded: int

    @property
    def balance(self) -> int:
        """What the player still owes (negative: what the organiser owes back)."""
        return self.due - self.paid + self.refunded


def fees_record(*, event: Event, user: AnyUser, ids: Iterable[int], kind: str, amount: Decimal | None = None) -> int:
    """Record that the chosen players paid (or were refunded) their entry fee, by this user now: the event's fee
    unless `amount` (in the league's currency) is given. A refund is at most what was paid. Returns the lines
    written."""
    _organiser(user, event)
    if kind not in (FeeRecord.Kind.PAID, FeeRecord.Kind.REFUNDED):
        raise ServiceError(_("Choose what to do with the chosen registrations."), code="bad_decision")
    ids = sorted(set(ids))
    if not ids:
        raise ServiceError(_("Choose at least one registration."), code="nothing_chosen")
    with transaction.atomic():
        event = Event.objects.select_related("league").get(pk=event.pk)
        found = _locked_settings(event)
        minor = found.fee if amount is None else minor_units(Decimal(amount), event.league.currency)
        if minor <= 0:
            raise FieldError("amount", _("The event has no entry fee: give the amount."), code="no_fee")
        chosen = list(Registration.objects.select_for_update().filter(event=event, pk__in=ids))
        if len(chosen) != len(ids):
            raise NotFound(_("There is no such registration."), code="unknown_registration")
        for registration in chosen:
            if kind == FeeRecord.Kind.REFUNDED:
                line = _fee_line(registration)
                if line.paid - line.refunded < minor:
                    raise ServiceError(
                        _("%(name)s has not paid what would be refunded.") % {"name": registration.name},
                        code="refund_too_high",
                    )
            FeeRecord.objects.create(registration=registration, kind=kind, amount=minor, recorded_by=acting_user(user))
        return len(chosen)


def _fee_line(registration: Registration) -> FeeLine:
    sums = {
        row["kind"]: row["total"] for row in registration.fees.values("kind").annotate(total=Sum("amount")).order_by()
    }
    return FeeLine(
        registration,
        sums.get(FeeRecord.Kind.DUE, 0),
        sums.get(FeeRecord.Kind.PAID, 0),
        sums.get(FeeRecord.Kind.REFUNDED, 0),
    )


def fee_lines(event: Event) -> dict[int, FeeLine]:
    """Registration id → its due, paid and refunded totals."""
    totals: dict[int, dict[str, int]] = {}
    for row in (
        FeeRecord.objects.filter(registration__event=event)
        .values("registration_id", "kind")
        .annotate(total=Sum("amount"))
        .order_by()
    ):
        totals.setdefault(row["registration_id"], {})[row["kind"]] = row["total"]
    lines = {}
    for registration in registrations_of(event):
        t = totals.get(registration.pk, {})
        lines[registration.pk] = FeeLine(registration, t.get("due", 0), t.get("paid", 0), t.get("refunded", 0))
    return lines


def fee_records(event: Event) -> dict[int, list[FeeRecord]]:
    """Registration id → every line of its entry fee's ledger (due, paid, refunded; who recorded it, when), oldest
    first."""
    ledger: dict[int, list[FeeRecord]] = {}
    for record in (
        FeeRecord.objects.filter(registration__event=event).select_related("recorded_by").order_by("recorded_at", "pk")
    ):
        ledger.setdefault(record.registration_id, []).append(record)
    return ledger


def _csv(rows: Sequence[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([csv_cell(one_line(c) if isinstance(c, str) else c) for c in row])
    return out.getvalue()


def fee_ledger(*, event: Event, user: AnyUser) -> list[FeeRecord]:
    """Every line of the event's entry fees' ledger, oldest first (the organiser's and the arbiter's): due, paid or
    refunded, how much, for whom, recorded by whom and when. The CSV export and the API read it."""
    _manager(user, event)
    return list(
        FeeRecord.objects.filter(registration__event=event)
        .select_related("registration", "recorded_by")
        .order_by("recorded_at", "pk")
    )


def fee_ledger_csv(*, event: Event, user: AnyUser) -> str:
    """Every line of the entry fees' ledger: when, who, what, how much, recorded by whom."""
    _organiser(user, event)
    header: list[object] = [_("Date"), _("Name"), _("E-mail"), _("Kind"), _("Amount"), _("Currency"), _("Recorded by")]
    rows: list[list[object]] = [header]
    for record in fee_ledger(event=event, user=user):
        rows.append(
            [
                timezone.localtime(record.recorded_at).strftime("%Y-%m-%d %H:%M"),
                record.registration.name,
                record.registration.email,
                record.get_kind_display(),
                str(fee_amount(event, record.amount)),
                event.league.currency,
                record.recorded_by.get_username() if record.recorded_by else "",
            ]
        )
    return _csv(rows)


def registrations_csv(*, event: Event, user: AnyUser) -> str:
    """The registrations and entries: start number, name, FIDE id, federation, birth year, club, e-mail, status,
    checked in, fee balance; a team event's, the team's players in board order too."""
    _organiser(user, event)
    lines = fee_lines(event)
    rosters = rosters_of(event)
    header: list[object] = [
        _("Start number"),
        _("Name"),
        _("FIDE id"),
        _("Federation"),
        _("Birth year"),
        _("Club"),
        _("E-mail"),
        _("Status"),
        _("Checked in"),
        _("Fee owed"),
    ]
    if event.is_team:
        header.append(_("Players"))
    rows: list[list[object]] = [header]
    for registration in sorted(
        registrations_of(event), key=lambda r: (r.entry.start_number if r.entry else 10**6, r.created_at, r.pk)
    ):
        row: list[object] = [
            registration.entry.start_number if registration.entry else "",
            registration.name,
            registration.fide_id or (registration.player.fide_id if registration.player else "") or "",
            registration.federation,
            registration.birth_year or "",
            registration.club,
            registration.email,
            registration.get_status_display(),
            _("yes") if registration.checked_in_at else "",
            str(fee_amount(event, lines[registration.pk].balance)),
        ]
        if event.is_team:
            row.append(roster_text(rosters.get(registration.pk, [])))
        rows.append(row)
    return _csv(rows)


def rosters_of(event: Event) -> dict[int, list[RegisteredPlayer]]:
    """Registration id → its team's players in board order (a team event's)."""
    rosters: dict[int, list[RegisteredPlayer]] = {}
    for line in RegisteredPlayer.objects.filter(registration__event=event).order_by("registration", "board_order"):
        rosters.setdefault(line.registration_id, []).append(line)
    return rosters


def roster_text(roster: Iterable[RegisteredPlayer]) -> str:
    """The roster on one line: "1. Carlsen, Magnus (1503014); 2. …"."""
    return "; ".join(
        f"{line.board_order}. {line.name}" + (f" ({line.fide_id})" if line.fide_id else "") for line in roster
    )


# ------------------------------------------------------------------------------------------ check-in


def checkin_set(*, event: Event, user: AnyUser, ids: Iterable[int], checked_in: bool = True) -> int:
    """Check the chosen accepted players in (or undo it). Returns how many changed."""
    _manager(user, event)
    ids = sorted(set(ids))
    if not ids:
        raise ServiceError(_("Choose at least one registration."), code="nothing_chosen")
    with transaction.atomic():
        chosen = list(Registration.objects.select_for_update().filter(event=event, pk__in=ids))
        if len(chosen) != len(ids):
            raise NotFound(_("There is no such registration."), code="unknown_registration")
        for registration in chosen:
            if registration.status != Status.ACCEPTED:
                raise ServiceError(
                    _("%(name)s is %(status)s: this cannot be done.")
                    % {"name": registration.name, "status": registration.get_status_display()},
                    code="bad_state",
                )
        changed = [r.pk for r in chosen if (r.checked_in_at is None) == checked_in]
        Registration.objects.filter(pk__in=changed).update(checked_in_at=timezone.now() if checked_in else None)
        return len(changed)


def no_shows(event: Event) -> list[Registration]:
    """The accepted players with an entry still in the event who have not checked in."""
    return list(
        Registration.objects.filter(
            event=event,
            status=Status.ACCEPTED,
            checked_in_at__isnull=True,
            entry__isnull=False,
            entry__withdrawn_after_round__isnull=True,
        )
        .select_related("entry")
        .order_by("entry__start_number")
    )


def checkin_closed(event: Event) -> bool:
    found = settings_of(event)
    return found.checkin_closes_at is not None and _now() >= found.checkin_closes_at


def no_shows_unconfirmed(event: Event) -> bool:
    """Check-in has closed and players who did not check in wait for the organiser's confirmation: round 1 is not
    paired before (the pairing service asks the same question)."""
    return not round_one_published(event) and no_shows_waiting(event)


def no_shows_withdraw(*, event: Event, user: AnyUser, ids: Iterable[int]) -> list[Registration]:
    """The organiser confirms the list of players who did not check in (`ids`, as the page showed it): each is
    withdrawn from round 1 on, then round 1 may be paired. Refused (``checkin_open``, ``stale``, ``round_paired``)
    with nothing changed."""
    _manager(user, event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        found = _locked_settings(event)
        if found.checkin_closes_at is None or _now() < found.checkin_closes_at:
            raise ServiceError(_("The check-in is still open."), code="checkin_open")
        if round_one_published(event):
            raise ServiceError(_("Round 1 is published: registration is closed."), code="round_paired")
        missing = no_shows(event)
        if sorted(r.pk for r in missing) != sorted(set(ids)):
            raise Conflict(
                _("Someone checked in meanwhile: look at the list again before confirming."),
                current=[r.pk for r in missing],
            )
        for registration in missing:
            if registration.entry is None:
                raise RuntimeError("no_shows() has entries only")
            round_withdraw(entry=registration.entry, round_number=1, user=user, reason=_("did not check in"))
        found.no_shows_withdrawn_at = timezone.now()
        found.save(update_fields=["no_shows_withdrawn_at"])
        return missing


# ------------------------------------------------------------------------------------------ e-mails

#: the e-mail written for each news: a template under templates/emails/
KINDS = ("registered", "accepted", "refused", "waiting", "withdrawal_confirmed", "withdrawal_declined")


def _tell_after_commit(registration_id: int, kind: str) -> None:
    transaction.on_commit(lambda: _send_task(SEND_EMAIL, message=registration_message(registration_id, kind)))


def registration_message(registration_id: int, kind: str) -> dict[str, object]:
    """The e-mail telling the entrant about their registration, in the language they registered in."""
    registration = Registration.objects.select_related("event__league", "entry").get(pk=registration_id)
    event = registration.event
    found = settings_of(event)
    with translation.override(registration.language), league_dates(event.league):
        context = {
            "registration": registration,
            "name": registration.name,
            "event": event,
            "kind": kind,
            "waiting": registration.status == Status.WAITING,
            "fee": fee_amount(event, found.fee) if found.fee else None,
            "currency": event.league.currency,
            "checkin_closes_at": found.checkin_closes_at and timezone.localtime(found.checkin_closes_at),
            "event_url": settings.SITE_URL + reverse("leagues:event-standings", args=[event.slug]),
            "withdraw_url": (
                withdraw_url(registration)
                if registration.status in WITHDRAWABLE
                and not (event.is_team and registration.status == Status.ACCEPTED)
                else ""
            ),
            # a team's registration: its captain is told, with the roster in board order
            "team": event.is_team,
            "roster": list(registration.roster.order_by("board_order")) if event.is_team else [],
            # a confirmed withdrawal: the first round the player is no longer paired in
            "from_round": (
                registration.entry.withdrawn_after_round + 1
                if registration.entry is not None and registration.entry.withdrawn_after_round is not None
                else None
            ),
        }
        subject = _plain_text(f"emails/registration_{kind}_subject.txt", context).strip()
        body = _plain_text(f"emails/registration_{kind}.txt", context)
    return {"to": [registration.email], "subject": " ".join(subject.split()), "body": body}


def registrations_count(event: Event) -> dict[str, int]:
    """How many registrations are in each state."""
    counts = {status: 0 for status in Status.values}
    for row in Registration.objects.filter(event=event).values("status").annotate(n=Count("pk")).order_by():
        counts[row["status"]] = row["n"]
    return counts
