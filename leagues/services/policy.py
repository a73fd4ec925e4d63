"""An event's tiebreak policy: the rule set and the order of criteria, locked from the first result
(C.07 4.1); a later change needs an organiser and a reason, and is logged publicly."""

import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from tiebreaks.engine import EngineError, compute_standings, recommended_criteria
from tiebreaks.engine.criteria import parse_criterion
from tiebreaks.engine.model import Tournament
from tiebreaks.engine.team import parse_team_criterion

from ..errors import PermissionDenied, ServiceError
from ..models import Event, ResultChange, TiebreakPolicyChange
from ..models.audit import SettingChange
from ..permissions import AnyUser, acting_user, can_manage_event, is_league_organiser
from .fide_mode import setting_change_checked
from .results import event_results_changed


def event_policy_set(
    *,
    event_id: int,
    rule_set: str,
    criteria: list[str],
    user: AnyUser,
    reason: str = "",
    source: str = ResultChange.Source.FORM,
    tiebreak_ratings: str | None = None,
) -> Event:
    """Choose the event's tiebreak rule set and order, and which rating the rating-based criteria read
    (``tiebreak_ratings``: the first rating, C.07 2026's rule unless the regulations say otherwise, or the
    rating of each round; None: unchanged). Locked from the first result (C.07 4.1): a later
    change needs an organiser and a reason, and is logged publicly. From the event's start (round 1
    published) a change is also a hard warning in the settings' audit (services.fide_mode)."""
    with transaction.atomic():
        event: Event = Event.objects.select_for_update().get(pk=event_id)
        if not can_manage_event(user, event):
            raise PermissionDenied(_("Only the league's organiser or the arbiter may set the tiebreak policy."))
        ratings = event.tiebreak_ratings if tiebreak_ratings is None else tiebreak_ratings
        if ratings not in Event.TiebreakRatings.values:
            raise ServiceError(_("Choose which rating the rating-based tie-breaks read."), code="bad_tiebreak_policy")
        criteria = lots_seeded(event, criteria)
        try:
            compute_standings_check(event, rule_set, criteria)
        except EngineError as exc:
            raise ServiceError(str(exc), code="bad_tiebreak_policy") from None
        if event.policy_locked:  # from the first game's result (not a bye), and a finished event is frozen too
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
        setting_change_checked(
            event,
            setting=SettingChange.Setting.TIEBREAKS,
            before=_policy_text(event.rule_set, event.tiebreak_criteria, event.tiebreak_ratings),
            after=_policy_text(rule_set, criteria, ratings),
            user=user,
            reason=reason,
            source=source,
            reason_required=event.policy_locked,  # free until the first game's result, yet recorded (C.07 4.1)
        )
        event.rule_set, event.tiebreak_criteria = rule_set, list(criteria)
        event.tiebreak_ratings = ratings
        event.save(update_fields=["rule_set", "tiebreak_criteria", "tiebreak_ratings"])
        if event.results_version:
            event_results_changed(event_id=event.pk)  # the standings (byes, results) follow the new policy
        return event


def _seed_of(code: str) -> int | None:
    try:
        criterion = parse_criterion(code)
    except EngineError:
        return None  # refused with the rest of the list
    return criterion.seed if criterion.name == "LOT" else None


def lots_seeded(event: Event, criteria: list[str]) -> list[str]:
    """A drawing of lots asked for without a seed (``LOT``) gets one now: the event's own if its list has one
    already, else a new one, drawn before anyone can know whom it favours and published with the list, so anyone
    can repeat the drawing (tiebreaks/engine/lots.py). An organiser who drew a seed in public names it (LOT/S…)."""
    if event.is_team:
        return list(criteria)
    kept = next((seed for seed in map(_seed_of, event.tiebreak_criteria) if seed is not None), None)
    seed = kept if kept is not None else 100_000 + secrets.randbelow(900_000)
    return [f"LOT/S{seed}" if code.strip().upper() == "LOT" else code for code in criteria]


def _policy_text(rule_set: str, criteria: list[str], ratings: str) -> str:
    """The policy as the settings' audit records it (the rating of each round named only when chosen)."""
    text = f"{rule_set}: {', '.join(criteria)}"
    if ratings == Event.TiebreakRatings.ROUND:
        text += " (" + str(Event.TiebreakRatings.ROUND.label) + ")"
    return text


def event_type(event: Event) -> str:
    """The engine's name of the event's kind of tournament: swiss, round_robin, team_swiss, team_round_robin."""
    return ("team_" if event.is_team else "") + ("round_robin" if event.is_round_robin else "swiss")


def default_tiebreak_order(event: Event) -> list[str]:
    """The recommended tiebreak order (without PTS) for the event's system, number of rounds and rule set
    (FIDE C.07, spec §13: a Swiss by its number of rounds, SB, DE, KS for a round robin; a team event its
    primary score, then the other one). Empty when the rule set publishes no order for this kind of event
    (US Chess for a round robin): the organiser names the criteria before publishing."""
    if event.is_team:
        scores = ["MPTS", "GPTS"]
        return scores if event.primary_score == Event.PrimaryScore.MATCH_POINTS else scores[::-1]
    try:
        codes = recommended_criteria(event_type(event), rounds=event.rounds_count, rules=event.rule_set)
    except EngineError:
        return []
    return [code for code in codes if code.upper() != "PTS"]


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
