"""Secretaries' writes beyond one result: whole round sheets and match cards, confirmation, the
locked tiebreak policy, TRF import. Each is one transaction: all of it is saved, or nothing."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tiebreaks.engine import EngineError, compute_standings

from .errors import Conflict, PermissionDenied, ServiceError
from .models import Event, Game, League, ResultChange, Role, TeamMatch, TiebreakPolicyChange
from .page_cache import event_pages_changed_after_commit
from .permissions import can_manage_event
from .services import result_record


def round_sheet_save(
    *,
    event: Event,
    round_number: int,
    results: dict[int, tuple[str, int]],
    user,
    reason: str = "",
    source: str = ResultChange.Source.FORM,
) -> list[Game]:
    """Record a round's results at once. `results` maps game id → (result code, version the user saw).

    A game not in this round, a stale version or any refused result refuses the whole sheet."""
    with transaction.atomic():
        games = {g.pk: g for g in Game.objects.filter(round__event=event, round__number=round_number)}
        if not games:
            raise ServiceError(
                _("Round %(number)s is not paired yet.") % {"number": round_number}, code="round_not_paired"
            )
        unknown = set(results) - set(games)
        if unknown:
            raise ServiceError(
                _("Game %(id)s is not in round %(number)s.") % {"id": min(unknown), "number": round_number},
                code="game_not_in_round",
            )
        saved = []
        for game_id, (code, version) in sorted(results.items()):
            if code == games[game_id].result:
                continue
            saved.append(
                result_record(
                    game_id=game_id, result=code, user=user, source=source, expected_version=version, reason=reason
                )
            )
        return saved


def _secretary_clubs(user) -> set[int]:
    if not user or not user.is_authenticated:
        return set()
    return set(Role.objects.filter(user=user, kind=Role.Kind.SECRETARY).values_list("club_id", flat=True))


def _match_clubs(match: TeamMatch) -> tuple[int, int]:
    return match.home.team.club_id, match.away.team.club_id


def match_card_submit(
    *,
    match_id: int,
    results: dict[int, tuple[str, int]],
    user,
    expected_version: int,
    reason: str = "",
    source: str = ResultChange.Source.FORM,
) -> TeamMatch:
    """One club's secretary (or an organiser) submits a card; the other club then confirms or disputes."""
    with transaction.atomic():
        match = (
            TeamMatch.objects.select_for_update(of=("self",))
            .select_related("round__event", "home__team", "away__team")
            .get(pk=match_id)
        )
        if match.version != expected_version:
            raise Conflict(
                _("Someone changed this match card meanwhile; reload it to see the current results."), current=match
            )
        event = match.round.event
        manager = can_manage_event(user, event)
        if not manager and not (_secretary_clubs(user) & set(_match_clubs(match))):
            raise PermissionDenied(_("You may not enter results for this match."))
        if match.status == TeamMatch.Status.CONFIRMED and not manager:
            raise ServiceError(
                _("This match card is confirmed; only the organiser can change it now."), code="card_confirmed"
            )
        games = {g.pk: g for g in match.games.all()}
        unknown = set(results) - set(games)
        if unknown:
            raise ServiceError(
                _("Game %(id)s is not on this match card.") % {"id": min(unknown)}, code="game_not_on_card"
            )
        for game_id, (code, version) in sorted(results.items()):
            if code != games[game_id].result:
                result_record(
                    game_id=game_id, result=code, user=user, source=source, expected_version=version, reason=reason
                )
        match.status = TeamMatch.Status.CONFIRMED if manager else TeamMatch.Status.SUBMITTED
        match.submitted_by, match.submitted_at = user, timezone.now()
        if manager:
            match.confirmed_by, match.confirmed_at = user, timezone.now()
        match.dispute_reason = ""
        match.version += 1
        match.save()
        return match


def _other_side(user, match: TeamMatch) -> bool:
    submitter_clubs = _secretary_clubs(match.submitted_by) if match.submitted_by else set()
    mine = _secretary_clubs(user) & set(_match_clubs(match))
    return bool(mine - submitter_clubs) or (bool(mine) and not submitter_clubs)


def match_card_confirm(*, match_id: int, user) -> TeamMatch:
    with transaction.atomic():
        match = (
            TeamMatch.objects.select_for_update(of=("self",))
            .select_related("round__event", "home__team", "away__team")
            .get(pk=match_id)
        )
        if match.status != TeamMatch.Status.SUBMITTED:
            raise ServiceError(_("Only a submitted match card can be confirmed."), code="card_not_submitted")
        if not (can_manage_event(user, match.round.event) or _other_side(user, match)):
            raise PermissionDenied(_("The other club's secretary confirms this card."))
        match.status, match.confirmed_by, match.confirmed_at = TeamMatch.Status.CONFIRMED, user, timezone.now()
        match.version += 1
        match.save()
        return match


def match_card_dispute(*, match_id: int, user, reason: str) -> TeamMatch:
    if not reason.strip():
        raise ServiceError(_("Say what is wrong with the card."), code="reason_required")
    with transaction.atomic():
        match = (
            TeamMatch.objects.select_for_update(of=("self",))
            .select_related("round__event", "home__team", "away__team")
            .get(pk=match_id)
        )
        if match.status != TeamMatch.Status.SUBMITTED:
            raise ServiceError(_("Only a submitted match card can be disputed."), code="card_not_submitted")
        if not _other_side(user, match):
            raise PermissionDenied(_("The other club's secretary confirms or disputes this card."))
        match.status, match.dispute_reason = TeamMatch.Status.DISPUTED, reason.strip()
        match.version += 1
        match.save()
        return match


def match_cards_auto_confirm(*, now=None) -> int:
    """Confirm submitted cards left unanswered for the league's number of days. Returns how many."""
    now = now or timezone.now()
    confirmed = 0
    for league in League.objects.all():
        limit = now - timedelta(days=league.auto_confirm_days)
        due = TeamMatch.objects.filter(
            round__event__league=league, status=TeamMatch.Status.SUBMITTED, submitted_at__lte=limit
        )
        for event_id in set(due.values_list("round__event_id", flat=True)):
            event_pages_changed_after_commit(event_id=event_id)
        confirmed += due.update(status=TeamMatch.Status.CONFIRMED, confirmed_at=now)
    return confirmed


def event_policy_set(*, event_id: int, rule_set: str, criteria: list[str], user, reason: str = "") -> Event:
    """Choose the event's tiebreak rule set and order. Locked from the first result (C.07 4.1): a later
    change needs an organiser and a reason, and is logged publicly."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        if not can_manage_event(user, event):
            raise PermissionDenied(_("Only the league's organiser or the arbiter may set the tiebreak policy."))
        try:
            compute_standings_check(event, rule_set, criteria)
        except EngineError as exc:
            raise ServiceError(str(exc), code="bad_tiebreak_policy") from None
        if event.tiebreak_locked:
            organiser = (
                user.is_superuser
                or Role.objects.filter(user=user, kind=Role.Kind.ORGANISER, league=event.league_id).exists()
            )
            if not organiser:
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
                user=user,
                rule_set_before=event.rule_set,
                rule_set_after=rule_set,
                criteria_before=event.tiebreak_criteria,
                criteria_after=criteria,
                reason=reason.strip(),
            )
        event.rule_set, event.tiebreak_criteria = rule_set, list(criteria)
        event.save(update_fields=["rule_set", "tiebreak_criteria"])
        if event.tiebreak_locked:
            from .services import event_results_changed

            event_results_changed(event_id=event.pk)  # the standings follow the new policy
        return event


def compute_standings_check(event: Event, rule_set: str, criteria: list[str]) -> None:
    """Let the engine validate the policy on an empty crosstable of the event's type."""
    from tiebreaks.engine.model import Tournament

    if event.is_team:
        from tiebreaks.engine.team import parse_team_criterion

        for code in criteria:
            parse_team_criterion(code)
        return
    compute_standings(
        Tournament(participants=[], total_rounds=event.rounds_count, round_robin=event.is_round_robin),
        criteria,
        rules=rule_set,
    )
