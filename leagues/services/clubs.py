"""A league's clubs: a new club joins the league; a renamed one is named anew in the standings and pages of its
events. The organiser only; validated before writing, in one transaction: a refused call changes nothing.
Field errors (FieldError) carry ``field`` so a form can show them next to the field."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import PermissionDenied
from ..models import Club, League
from ..permissions import AnyUser
from .edits import _assign, _organiser, _validated
from .results import names_changed

CLUB_FIELDS = {"name", "slug", "short_name"}


def club_save(*, league: League, user: AnyUser, fields: dict[str, Any], club: Club | None = None) -> Club:
    _organiser(user, league.pk)
    with transaction.atomic():
        if club is not None and not league.clubs.filter(pk=club.pk).exists():
            raise PermissionDenied(_("This club does not play in the league."))
        renamed = club is not None
        club = club or Club()
        _assign(club, fields, CLUB_FIELDS)
        _validated(club)
        club.save()
        league.clubs.add(club)
        if renamed:
            names_changed(club_id=club.pk)  # the standings and pages of its events name it anew
        return club
