"""What the organiser's set-up services share (services.leagues, events, clubs, players, entries, teams,
prize_funds): the check that the user organises the league, writing only the fields a form may set, and the
model's own validation as a FieldError (leagues/errors.py) naming the field, so a form shows the refusal next to
the field. Those services call them before they write anything, inside their one transaction: a refused call
changes nothing."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils.translation import gettext as _

from ..errors import FieldError, PermissionDenied, ServiceError
from ..permissions import AnyUser, is_league_organiser


def _organiser(user: AnyUser, league_id: int) -> None:
    if not is_league_organiser(user, league_id):
        raise PermissionDenied(_("Only the league's organisers may set the league up."))


M = TypeVar("M", bound=Model)


def _validated(instance: M, exclude: Iterable[str] = ()) -> M:
    """Model validation as ServiceErrors: the first field's first message."""
    try:
        instance.full_clean(exclude=list(exclude))
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise FieldError(field if field != "__all__" else "", messages[0]) from None
    return instance


def _assign(instance: Model, fields: dict[str, Any], allowed: Collection[str]) -> None:
    for name, value in fields.items():
        if name not in allowed:
            raise ServiceError(_("“%(field)s” cannot be set here.") % {"field": name}, code="unknown_field")
        setattr(instance, name, value)
