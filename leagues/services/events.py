"""An event and its life: creating and editing it (kind, system, scoring, its rounds with their dates, venues and
start times; a new event's rule set and tiebreak order) and its moves draft → published → running → finished
(finishing freezes it and makes the prize split final). ``_editable_event`` is the check every write of an
event's entries and teams starts with (services.entries, services.teams): the organiser, the event locked, not
finished.

Every function checks that the user organises the league, validates everything before writing, and writes in
one transaction: a refused call changes nothing. Errors are ServiceError with a code and a sentence; field
errors (FieldError) carry ``field`` so a form can show them next to the field."""

from __future__ import annotations

from datetime import date, time
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tiebreaks.engine import EngineError, get_rule_set

from ..errors import FieldError, PermissionDenied, ServiceError
from ..models import Event, Game, League, Result, ResultChange, Round
from ..page_cache import pages_changed
from ..permissions import AnyUser
from ..text import has_control_characters
from .edits import _assign, _organiser, _validated
from .fide_mode import event_scoring_checked, event_settings_changed
from .policy import compute_standings_check, default_tiebreak_order, lots_seeded
from .prizes import prizes_recompute
from .webhooks import event_finished

EVENT_FIELDS = {
    "season",
    "name",
    "slug",
    "kind",
    "system",
    "rounds_count",
    "starts_on",
    "venue",
    "time_control",
    "boards",
    "points_win",
    "points_draw",
    "points_loss",
    "match_points_win",
    "match_points_draw",
    "match_points_loss",
    "primary_score",
    "board_one_white_for_home",
    "baku_acceleration",
    "rating_method",
    "unrated_rating",
}
#: chosen when the event is created; later on the tiebreak policy page (services.policy: locked from the first
#: game's result, then changed only by the organiser with a reason shown publicly)
NEW_EVENT_FIELDS = EVENT_FIELDS | {"rule_set", "tiebreak_criteria"}
#: what may no longer change once a result is in
FIXED_AFTER_FIRST_RESULT = {"kind", "system", "boards", "points_win", "points_draw", "points_loss", "baku_acceleration"}
#: settings whose change after the start services.fide_mode refuses (FIDE mode) or records (a hard warning)
AUDITED_AFTER_START = {"rating_method", "unrated_rating"}
#: the highest rating an event may announce for its unrated players (their assumed rating, FIDE C.07 Article 10)
MAX_UNRATED_RATING = 3000


def _has_results(event: Event) -> bool:
    return event.pk is not None and Game.objects.filter(round__event=event).exclude(result=Result.PENDING).exists()


def event_save(
    *,
    league: League,
    user: AnyUser,
    fields: dict[str, Any],
    round_dates: list[date | None] | None = None,
    round_venues: list[str] | None = None,
    round_start_times: list[time | None] | None = None,
    event: Event | None = None,
    reason: str = "",
    source: str = ResultChange.Source.FORM,
) -> Event:
    """Create or edit an event (individual or team; Swiss, round robin, double round robin) and its rounds'
    dates and venues (an empty venue: the event's). Rounds are numbered 1..rounds_count; a round with games
    is never removed.

    A new event gets its rule set and tiebreak order here (``rule_set``, ``tiebreak_criteria``; an empty order:
    the recommended one for its system, rounds and rule set). An event still following the recommended order
    follows it when its system or number of rounds changes, until the first result.

    The scoring is checked by services.fide_mode (every door's one check); once the event has started, a change
    of its scoring or Baku acceleration is refused in FIDE mode, else needs a `reason` and is recorded."""
    _organiser(user, league.pk)
    with transaction.atomic():
        if event is not None:
            event = Event.objects.select_for_update().get(pk=event.pk)
            if event.league_id != league.pk:
                raise PermissionDenied(_("This event belongs to another league."))
            if event.status == Event.Status.FINISHED:
                raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
            before = {name: getattr(event, name) for name in FIXED_AFTER_FIRST_RESULT | AUDITED_AFTER_START}
            recommended = event.tiebreak_criteria == default_tiebreak_order(event)
        else:
            event, before, recommended = Event(league=league), None, True
        old_slug = event.slug  # a new address: the pages kept under the old one go
        _assign(event, fields, EVENT_FIELDS if before is not None else NEW_EVENT_FIELDS)
        if event.season is not None and event.season.league_id != league.pk:
            raise FieldError("season", _("This season belongs to another league."))
        if before is not None:
            event_settings_changed(event, before=before, user=user, reason=reason, source=source)
        if before is not None and _has_results(event):
            changed = [name for name in FIXED_AFTER_FIRST_RESULT if getattr(event, name) != before[name]]
            if changed:
                raise FieldError(
                    changed[0],
                    _("Results are in: the kind, system, boards and scoring can no longer change."),
                    code="event_played",
                )
        if event.rounds_count < 1:
            raise FieldError("rounds_count", _("An event has at least one round."))
        if event.baku_acceleration and (event.is_team or event.is_round_robin):
            raise FieldError("baku_acceleration", _("Only an individual Swiss event can be accelerated."))
        event_scoring_checked(event)
        if event.unrated_rating is not None and not 0 <= event.unrated_rating <= MAX_UNRATED_RATING:
            raise FieldError(
                "unrated_rating",
                _("The rating for unrated players is between 0 and %(max)s.") % {"max": MAX_UNRATED_RATING},
                code="bad_unrated_rating",
            )
        if event.match_points_loss > event.match_points_draw or event.match_points_draw > event.match_points_win:
            raise FieldError(
                "match_points_draw", _("A match won must score at least a drawn one, a drawn one at least a lost one.")
            )
        _tiebreak_order_checked(event, new=before is None, recommended=recommended)
        _validated(event, exclude=["results_version"])
        event.save()
        _rounds_save(event, round_dates or [], round_venues, round_start_times)
        pages_changed(event_id=event.pk, gone_slug=old_slug if old_slug and old_slug != event.slug else None)
        return event


def _tiebreak_order_checked(event: Event, *, new: bool, recommended: bool) -> None:
    """A new event without an order, or one following the recommended order before its first result, takes the
    recommended order of its (new) settings; the order must fit the event (Buchholz is no round robin's)."""
    try:
        get_rule_set(event.rule_set)
    except EngineError:
        raise FieldError("rule_set", _("Choose one of the rule sets offered.")) from None
    if not isinstance(event.tiebreak_criteria, list) or not all(isinstance(c, str) for c in event.tiebreak_criteria):
        raise FieldError("tiebreak_criteria", _("Criteria in order, separated by commas, e.g. BH/C1, BH, SB."))
    codes = [code.strip() for code in event.tiebreak_criteria if code.strip() and code.strip().upper() != "PTS"]
    if (new and not codes) or ((recommended or not codes) and not new and not event.policy_locked):
        codes = default_tiebreak_order(event)
    event.tiebreak_criteria = codes = lots_seeded(event, codes)
    try:
        compute_standings_check(event, event.rule_set, codes)
    except EngineError as exc:
        raise FieldError(
            "tiebreak_criteria" if new else "system",
            _("This tiebreak order does not fit the event: %(problem)s") % {"problem": exc},
            code="bad_tiebreak_policy",
        ) from None


def _rounds_save(
    event: Event,
    round_dates: list[date | None],
    round_venues: list[str] | None = None,
    round_start_times: list[time | None] | None = None,
) -> None:
    rounds = {r.number: r for r in Round.objects.filter(event=event)}
    for number in range(1, event.rounds_count + 1):
        rnd = rounds.get(number) or Round(event=event, number=number)
        if round_dates or rnd.pk is None:
            rnd.date = round_dates[number - 1] if number <= len(round_dates) else None
        if round_start_times is not None:  # the time the round starts (followers' e-mails, calendar feeds)
            rnd.start_time = round_start_times[number - 1] if number <= len(round_start_times) else None
        if round_venues is not None:
            rnd.venue = (round_venues[number - 1] if number <= len(round_venues) else "").strip()
            if has_control_characters(rnd.venue) or len(rnd.venue) > 200:
                raise FieldError(
                    f"round_{number}_venue",
                    _("Round %(number)s: a venue is one line of at most 200 characters.") % {"number": number},
                )
        rnd.save()
    extra = [r for number, r in rounds.items() if number > event.rounds_count]
    if any(r.games.exists() for r in extra):
        raise FieldError("rounds_count", _("A round that is already paired cannot be removed."), code="round_paired")
    Round.objects.filter(pk__in=[r.pk for r in extra]).delete()
    dated = [d for d in round_dates[: event.rounds_count] if d]
    if dated != sorted(dated):
        raise FieldError("round_dates", _("The rounds' dates must follow each other."), code="round_dates_order")


#: the moves of an event's life
TRANSITIONS: dict[str, set[str]] = {
    Event.Status.DRAFT: {Event.Status.PUBLISHED},
    Event.Status.PUBLISHED: {Event.Status.DRAFT, Event.Status.RUNNING},
    Event.Status.RUNNING: {Event.Status.FINISHED},
    Event.Status.FINISHED: set(),
}


def event_status_set(*, event: Event, user: AnyUser, status: str) -> Event:
    """Publish, start or finish an event. Finishing freezes it: results, policy, cards and prizes stay as
    they are, and the prize split becomes final."""
    _organiser(user, event.league_id)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if status not in TRANSITIONS[event.status]:
            raise ServiceError(
                _("An event that is %(now)s cannot become %(next)s.")
                % {"now": event.get_status_display(), "next": Event.Status(status).label},
                code="bad_transition",
            )
        if status == Event.Status.DRAFT and _has_results(event):
            raise ServiceError(_("Results are in: the event stays public."), code="event_played")
        if status == Event.Status.PUBLISHED and not event.entries.exists():
            raise ServiceError(_("Register the participants before publishing the event."), code="no_entries")
        if status == Event.Status.PUBLISHED and not event.tiebreak_criteria:
            raise ServiceError(
                _(
                    "Choose the event's tiebreak order on its tiebreak policy page "
                    "before publishing it (FIDE C.07 4.1)."
                ),
                code="no_tiebreak_order",
            )
        event.status = status
        if status == Event.Status.FINISHED:
            event.tiebreak_locked = True
        event.save(update_fields=["status", "tiebreak_locked"])
        pages_changed(event_id=event.pk)
        if status == Event.Status.FINISHED:
            event_finished(event)  # its webhook, after the commit
    if status == Event.Status.FINISHED:
        prizes_recompute(event.pk)  # the allocation now says the event is finished: final
    return event


def _editable_event(event: Event, user: AnyUser) -> Event:
    _organiser(user, event.league_id)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
    return event
