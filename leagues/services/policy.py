"""An event's tiebreak policy: the rule set and the order of criteria, locked from the first result
(C.07 4.1); a later change needs an organiser and a reason, and is logged publicly."""

from django.db import transaction
from django.utils.translation import gettext as _

from tiebreaks.engine import EngineError, compute_standings
from tiebreaks.engine.model import Tournament
from tiebreaks.engine.team import parse_team_criterion

from ..errors import PermissionDenied, ServiceError
from ..models import Event, TiebreakPolicyChange
from ..permissions import AnyUser, acting_user, can_manage_event, is_league_organiser
from .results import event_results_changed


def event_policy_set(*, event_id: int, rule_set: str, criteria: list[str], user: AnyUser, reason: str = "") -> Event:
    """Choose the event's tiebreak rule set and order. Locked from the first result (C.07 4.1): a later
    change needs an organiser and a reason, and is logged publicly."""
    with transaction.atomic():
        event: Event = Event.objects.select_for_update().get(pk=event_id)
        if not can_manage_event(user, event):
            raise PermissionDenied(_("Only the league's organiser or the arbiter may set the tiebreak policy."))
        try:
            compute_standings_check(event, rule_set, criteria)
        except EngineError as exc:
            raise ServiceError(str(exc), code="bad_tiebreak_policy") from None
        if event.tiebreak_locked or event.status == Event.Status.FINISHED:  # a finished event is frozen too
            if not is_league_organiser(user, event.league_id):
                raise PermissionDenied(
                    _(
                        "The tiebreak policy is locked since the first result; only the "
                        "league's organiser may override it."
                    )
                )
            if not reason.strip():
                raise ServiceError(_("Overriding a locked tiebreak policy needs a reason."), code="reason_required")
            TiebreakPolicyChange.objects.create(
                event=event,
                user=acting_user(user),
                rule_set_before=event.rule_set,
                rule_set_after=rule_set,
                criteria_before=event.tiebreak_criteria,
                criteria_after=criteria,
                reason=reason.strip(),
            )
        event.rule_set, event.tiebreak_criteria = rule_set, list(criteria)
        event.save(update_fields=["rule_set", "tiebreak_criteria"])
        if event.tiebreak_locked:
            event_results_changed(event_id=event.pk)  # the standings follow the new policy
        return event


def compute_standings_check(event: Event, rule_set: str, criteria: list[str]) -> None:
    """Let the engine validate the policy on an empty crosstable of the event's type."""
    if event.is_team:
        for code in criteria:
            parse_team_criterion(code)
        return
    compute_standings(
        Tournament(participants=[], total_rounds=event.rounds_count, round_robin=event.is_round_robin),
        criteria,
        rules=rule_set,
    )
