"""Emails the site sends, each in its recipient's language: match cards (submitted, confirmed, disputed,
settled, corrected by the organiser after confirmation, the reminder before a card confirms itself), invitations
and password resets.

Services call :func:`notify_after_commit`; once the transaction commits, the Celery task
``leagues.tasks.send_notification`` (sent by name) writes the messages and hands each to
``leagues.tasks.send_email``, which retries with backoff while the mail server fails. A result is
saved before any mail is written, so a failing mail server never loses it nor blocks a request.
"""

import logging
from datetime import timedelta
from typing import cast

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.template import Context
from django.template.backends.django import Template as DjangoTemplate
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from .dates import league_dates
from .models import League, Profile, Result, Role, TeamMatch
from .permissions import club_secretaries, league_organisers, secretary_club_ids
from .selectors import match_cards

log = logging.getLogger(__name__)
User = get_user_model()

SEND_NOTIFICATION = "leagues.tasks.send_notification"
SEND_EMAIL = "leagues.tasks.send_email"


def notify_after_commit(kind: str, **params) -> None:
    """Send the ``kind`` emails once the current transaction has committed (at once outside one)."""
    transaction.on_commit(lambda: _send_task(SEND_NOTIFICATION, kind=kind, params=params))


def _send_task(name: str, **kwargs) -> None:
    try:
        current_app.signature(name, kwargs=kwargs).delay()
    except Exception:  # the broker or, in-process, the mail server: the saved data stays saved
        log.warning("email task %s not sent: %s", name, kwargs, exc_info=True)


def language_of(user) -> str:
    profile = Profile.objects.filter(user=user).first()
    return profile.language if profile else settings.LANGUAGE_CODE


def remember_language(user, language: str) -> None:
    """The language the user works in, for the emails sent to them."""
    if language in dict(settings.LANGUAGES):
        Profile.objects.update_or_create(user=user, defaults={"language": language})


def _url(name: str, language: str, *args) -> str:
    with translation.override(language):
        return settings.SITE_URL + reverse(name, args=args)


def _plain_text(name: str, context: dict) -> str:
    """A template rendered as plain text: nothing HTML-escaped ("O'Brien & Sons", never "O&#x27;Brien &amp; Sons")."""
    # the site's one template engine is Django's, whose templates wrap the engine's own
    return cast(DjangoTemplate, get_template(name)).template.render(Context(context, autoescape=False))


def _message(user, template: str, context: dict) -> dict | None:
    """One email for one user, written in the user's language; None for a user without an address."""
    if not user or not user.email:
        return None
    language = language_of(user)
    with translation.override(language):
        context = {**context, "user": user, "language": language, "site_url": settings.SITE_URL}
        subject = _plain_text(f"emails/{template}_subject.txt", context).strip()
        body = _plain_text(f"emails/{template}.txt", context)
    return {"to": [user.email], "subject": " ".join(subject.split()), "body": body}


def card_messages(kind: str, match_id: int, changes: list | None = None, reason: str = "") -> list[dict]:
    """The emails about one match card: who receives which, in their language, with the card's score and boards
    (and for an organiser's correction of a confirmed card, what changed: [board, old result, new result])."""
    match = TeamMatch.objects.select_related(
        "round__event__league", "home__team", "away__team", "submitted_by", "settled_by"
    ).get(pk=match_id)
    home_team, away_team = match.home.team, match.away.team
    if not (home_team is not None and away_team is not None):
        raise RuntimeError("a match is between two teams")
    both = {home_team.club_id, away_team.club_id}
    if kind in ("card_submitted", "card_reminder"):  # the club that did not submit the card
        recipients = club_secretaries(both - secretary_club_ids(match.submitted_by) or both)
    elif kind == "card_disputed":
        recipients = club_secretaries(both) + league_organisers(match.round.event.league_id)
    elif kind in ("card_confirmed", "card_settled", "card_corrected"):
        recipients = club_secretaries(both)
    else:
        raise ValueError(f"no match card notification {kind!r}")
    if not any(user.email for user in recipients):
        return []  # the card is read only for someone to write to
    (card,) = match_cards(match.round.event, match_id=match.pk)
    changed = [(board, Result(old).label, Result(new).label) for board, old, new in changes or ()]
    seen, messages = set(), []
    for user in recipients:
        if user.pk in seen:
            continue
        seen.add(user.pk)
        language = language_of(user)
        context = {
            "match": match,
            "card": card,
            "changes": changed,
            "reason": reason,
            "event": match.round.event,
            "card_url": _url("manage:match-card", language, match.pk),
            "confirms_on": match.submitted_at
            and match.submitted_at + timedelta(days=match.round.event.league.auto_confirm_days),
        }
        with league_dates(match.round.event.league):  # "Dec 6, 2026" to a US league's English reader
            message = _message(user, kind, context)
        if message:
            messages.append(message)
    return messages


def password_link(user, language: str) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    with translation.override(language):
        return settings.SITE_URL + reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})


def invitation_messages(role_id: int, inviter_id: int | None, league_id: int | None = None) -> list[dict]:
    role = Role.objects.select_related("user", "league", "club", "event__league").get(pk=role_id)
    named = League.objects.filter(pk=league_id).first() if league_id is not None else None
    league = named or role.league or (role.event and role.event.league)
    inviter = User.objects.filter(pk=inviter_id).first() if inviter_id is not None else None
    language = language_of(role.user)
    # someone who already has an account logs in with it: an invitation, never a password reset
    has_account = role.user.has_usable_password()
    context = {
        "role": role,
        "league": league,
        "inviter": inviter and (inviter.get_full_name() or inviter.username),
        "has_account": has_account,
        "link": _url("login", language) if has_account else password_link(role.user, language),
        "days": settings.PASSWORD_RESET_TIMEOUT // 86400,
    }
    message = _message(role.user, "invitation", context)
    return [message] if message else []


def password_reset_messages(user_id: int) -> list[dict]:
    user = User.objects.get(pk=user_id)
    message = _message(user, "password_reset", {"link": password_link(user, language_of(user))})
    return [message] if message else []


def messages_for(kind: str, params: dict) -> list[dict]:
    if kind == "invitation":
        return invitation_messages(params["role_id"], params.get("inviter_id"), params.get("league_id"))
    if kind == "password_reset":
        return password_reset_messages(params["user_id"])
    return card_messages(kind, params["match_id"], params.get("changes"), params.get("reason", ""))


def queue_messages(kind: str, params: dict) -> int:
    """Write the emails and hand each to its own delivery task (retried on its own)."""
    messages = messages_for(kind, params)
    for message in messages:
        _send_task(SEND_EMAIL, message=message)
    return len(messages)
