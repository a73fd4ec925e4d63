"""An organiser's league and its seasons: a new league (by a user allowed to create leagues, who becomes its
organiser), the league's own settings, a season's dates and its ranking-list deadlines.

Every function checks who may do it, validates everything before writing, and writes in one transaction: a
refused call changes nothing. Errors are ServiceError with a code and a sentence; field errors (FieldError)
carry ``field`` so a form can show them next to the field."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import FieldError, PermissionDenied
from ..models import League, Role, Season
from ..page_cache import pages_changed
from ..permissions import AnyUser
from ..text import has_control_characters
from .edits import _assign, _organiser, _validated
from .federations import FIDE_FEDERATIONS
from .ranking_lists import deadlines_changed, deadlines_check

# ------------------------------------------------------------------------------------------ the league

LEAGUE_FIELDS = {"name", "auto_confirm_days", "currency", "players_without_club", "federation"}


#: who may create a league: a user (or group) granted this permission in the admin, and superusers
LEAGUE_CREATOR_PERMISSION = "leagues.add_league"
#: league addresses the management pages use themselves (/manage/leagues/new/)
RESERVED_LEAGUE_SLUGS = {"new"}


def can_create_league(user: AnyUser) -> bool:
    return bool(user and user.is_authenticated and user.is_active and user.has_perm(LEAGUE_CREATOR_PERMISSION))


def league_create(*, user: AnyUser, fields: dict[str, Any]) -> League:
    """A new league, by a user allowed to create leagues, who becomes its organiser."""
    if not can_create_league(user):
        raise PermissionDenied(_("Only a league creator may create a league."))
    if not isinstance(user, User):
        raise RuntimeError("a league creator is signed in")
    with transaction.atomic():
        fields = dict(fields)
        league = League(slug=fields.pop("slug", ""))  # a league's address is chosen once, when it is created
        if league.slug in RESERVED_LEAGUE_SLUGS:
            raise FieldError("slug", _("This address is taken by the site; choose another."))
        _league_checked(league, fields)
        league.save()
        Role.objects.create(user=user, kind=Role.Kind.ORGANISER, league=league)
        return league


def league_save(*, league: League, user: AnyUser, fields: dict[str, Any]) -> League:
    """The league's own settings: its name and after how many days an unanswered match card confirms itself."""
    _organiser(user, league.pk)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        federation = league.federation
        _league_checked(league, fields)
        league.save()
        if league.federation != federation:  # its event pages write dates the new federation's way (leagues/dates.py)
            for event_id in league.events.values_list("pk", flat=True):
                pages_changed(event_id=event_id)
        return league


def _league_checked(league: League, fields: dict[str, Any]) -> None:
    _assign(league, fields, LEAGUE_FIELDS)
    if has_control_characters(league.name):
        raise FieldError("name", _("Use letters, digits and punctuation only (no line breaks or control characters)."))
    if league.auto_confirm_days < 1:
        raise FieldError("auto_confirm_days", _("The other club needs at least a day to answer a card."))
    league.federation = (league.federation or "").strip().upper()
    if league.federation and league.federation not in FIDE_FEDERATIONS:
        raise FieldError("federation", _("Give FIDE's three-letter code of a federation, e.g. USA or NOR."))
    _validated(league)


# ------------------------------------------------------------------------------------------ seasons

SEASON_FIELDS = {"name", "slug", "starts_on", "ends_on", "ranking_deadline", "nomination_deadline"}


def season_save(*, league: League, user: AnyUser, fields: dict[str, Any], season: Season | None = None) -> Season:
    _organiser(user, league.pk)
    with transaction.atomic():
        season = season or Season(league=league)
        if season.league_id != league.pk:
            raise PermissionDenied(_("This season belongs to another league."))
        before = (season.ranking_deadline, season.nomination_deadline)
        _assign(season, fields, SEASON_FIELDS)
        if season.starts_on and season.ends_on and season.ends_on < season.starts_on:
            raise FieldError("ends_on", _("The season cannot end before it starts."))
        deadlines_check(season)
        _validated(season)
        season.save()
        if season.pk and before != (season.ranking_deadline, season.nomination_deadline):
            deadlines_changed(season)
        return season
