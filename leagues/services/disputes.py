"""After a match card is submitted: the organiser settles disputes with a decision both clubs read, and
the other club is reminded a day before an unanswered card confirms itself. Each write is one transaction."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import PermissionDenied, ServiceError
from ..models import Event, League, ResultChange, TeamMatch
from ..notifications import notify_after_commit
from ..page_cache import pages_changed
from ..permissions import AnyUser, acting_user, can_manage_event
from .locking import event_lock
from .match_cards import match_card_submit

#: how long before a card confirms itself the other club is reminded
REMINDER_BEFORE = timedelta(days=1)


def match_card_settle(
    *,
    match_id: int,
    user: AnyUser,
    decision: str,
    results: dict[int, tuple[str, int]] | None = None,
    lineup: dict[int, tuple[int | None, int | None]] | None = None,
    expected_version: int,
    later_pairing: str = "",
) -> TeamMatch:
    """The organiser (or the event's arbiter) decides a disputed card: the results as decided, the card
    confirmed, the decision kept on the card for both clubs. Refused without a decision. In a finished event
    only the organiser settles, and the decision is the public reason (services.results)."""
    if not decision.strip():
        raise ServiceError(_("Write the decision: both clubs will read it."), code="decision_required")
    with transaction.atomic():
        event_id = TeamMatch.objects.filter(pk=match_id).values_list("round__event_id", flat=True).first()
        if event_id is not None:
            event_lock(event_id)  # the event's row first, then the card (services.locking.event_lock)
        match = TeamMatch.objects.select_for_update(of=("self",)).select_related("round__event").get(pk=match_id)
        if not can_manage_event(user, match.round.event):
            raise PermissionDenied(_("Only the league's organiser or the event's arbiter settles a dispute."))
        if match.status != TeamMatch.Status.DISPUTED:
            raise ServiceError(_("Only a disputed match card can be settled."), code="card_not_disputed")
        reason = _("Dispute settled: %(decision)s") % {"decision": decision.strip()}
        match_card_submit(
            match_id=match.pk,
            results=results or {},
            lineup=lineup,
            user=user,
            expected_version=expected_version,
            reason=reason[:300],
            source=ResultChange.Source.FORM,
            notify=False,
            later_pairing=later_pairing,  # a correction after the next round was paired (services.results)
        )
        match.refresh_from_db()
        match.decision, match.settled_by, match.settled_at = decision.strip(), acting_user(user), timezone.now()
        match.save(update_fields=["decision", "settled_by", "settled_at"])
        pages_changed(event_id=match.round.event_id)  # the decision is on the card's public page
        notify_after_commit("card_settled", match_id=match.pk)
        return match


def match_cards_remind(*, now: datetime | None = None) -> int:
    """Remind the other club of every submitted card that confirms itself within a day (once per card)."""
    now = now or timezone.now()
    reminded = 0
    for league in League.objects.all():
        confirms_before = now + REMINDER_BEFORE - timedelta(days=league.auto_confirm_days)
        with transaction.atomic():
            due = list(
                TeamMatch.objects.select_for_update()
                .filter(
                    round__event__league=league,
                    status=TeamMatch.Status.SUBMITTED,
                    submitted_at__lte=confirms_before,
                    reminder_sent_at__isnull=True,
                )
                .exclude(round__event__status=Event.Status.FINISHED)  # nothing left to answer in a frozen event
                .values_list("pk", flat=True)
            )
            TeamMatch.objects.filter(pk__in=due).update(reminder_sent_at=now)
            for match_id in due:
                notify_after_commit("card_reminder", match_id=match_id)
        reminded += len(due)
    return reminded
