"""Who works on a league: organisers invite secretaries, arbiters and fellow organisers by email, change
their roles or remove them. An invited person without an account gets one with no password and an
email with a link to choose it. One transaction per call; the email is sent after the commit."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from ..errors import PermissionDenied, ServiceError
from ..models import Club, Event, League, Role
from ..notifications import notify_after_commit, remember_language
from ..permissions import AnyUser, is_league_organiser

User = get_user_model()


def _scope(league: League, kind: str, club: Club | None, event: Event | None) -> dict[str, Any]:
    if kind == Role.Kind.ORGANISER:
        return {"league": league}
    if kind == Role.Kind.SECRETARY:
        if club is None or not league.clubs.filter(pk=club.pk).exists():
            raise ServiceError(_("A secretary works for one of the league's clubs: choose it."), code="club_required")
        return {"club": club}
    if kind == Role.Kind.ARBITER:
        if event is None or event.league_id != league.pk:
            raise ServiceError(_("An arbiter works for one of the league's events: choose it."), code="event_required")
        return {"event": event}
    raise ServiceError(_("Unknown role."), code="bad_role")


def role_invite(
    *,
    league: League,
    user: AnyUser,
    email: str,
    kind: str,
    club: Club | None = None,
    event: Event | None = None,
    language: str = "en",
) -> Role:
    """Give the person with this email a role (creating the account if needed) and email them."""
    if not is_league_organiser(user, league.pk):
        raise PermissionDenied(_("Only the league's organisers may invite people."))
    if user is None:
        raise RuntimeError("an organiser is signed in")
    email = email.strip().lower()
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError(_("“%(email)s” is not an email address.") % {"email": email}, code="bad_email") from None
    scope = _scope(league, kind, club, event)
    with transaction.atomic():
        person = User.objects.filter(email__iexact=email).first()
        if person is None:
            person = User(username=email[:150], email=email)
            person.set_unusable_password()
            person.save()
            remember_language(person, language)
        role, created = Role.objects.get_or_create(user=person, kind=kind, **scope)
        if not created:
            raise ServiceError(_("%(email)s has this role already.") % {"email": email}, code="role_exists")
        notify_after_commit("invitation", role_id=role.pk, inviter_id=user.pk, league_id=league.pk)
        return role


def _role_of_league(role: Role, league: League) -> bool:
    return (
        role.league_id == league.pk
        or (role.club_id is not None and league.clubs.filter(pk=role.club_id).exists())
        or (role.event is not None and role.event.league_id == league.pk)
    )


def role_change(
    *, role: Role, league: League, user: AnyUser, kind: str, club: Club | None = None, event: Event | None = None
) -> Role:
    if not is_league_organiser(user, league.pk) or not _role_of_league(role, league):
        raise PermissionDenied(_("Only the league's organisers may change its people's roles."))
    scope = _scope(league, kind, club, event)
    with transaction.atomic():
        role = Role.objects.select_for_update().get(pk=role.pk)
        role.kind, role.league, role.club, role.event = kind, None, None, None
        for name, value in scope.items():
            setattr(role, name, value)
        if Role.objects.filter(user=role.user_id, kind=kind, **scope).exclude(pk=role.pk).exists():
            raise ServiceError(_("This person has this role already."), code="role_exists")
        role.save()
        return role


def role_remove(*, role: Role, league: League, user: AnyUser) -> None:
    if not is_league_organiser(user, league.pk) or not _role_of_league(role, league):
        raise PermissionDenied(_("Only the league's organisers may remove its people's roles."))
    if user is None:
        raise RuntimeError("an organiser is signed in")
    with transaction.atomic():
        if role.kind == Role.Kind.ORGANISER and role.user_id == user.pk:
            others = Role.objects.filter(kind=Role.Kind.ORGANISER, league=league).exclude(pk=role.pk)
            if not others.exists():
                raise ServiceError(_("A league keeps at least one organiser."), code="last_organiser")
        Role.objects.filter(pk=role.pk).delete()


def league_people(league: League) -> QuerySet[Role]:
    """Every role of the league: its organisers, its clubs' secretaries, its events' arbiters."""
    return (
        Role.objects.filter(Q(league=league) | Q(club__leagues=league) | Q(event__league=league))
        .select_related("user", "club", "event")
        .distinct()
        .order_by("kind", "user__username")
    )
