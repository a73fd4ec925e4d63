"""An event's scoring and settings as FIDE's 2026 checklist for tournament programs asks (issue #31).

One validation of a game scoring for every door (the event's form and the API, the pairing settings with the
bye's value, the TRF import): two draws are never worth more than a win and a loss (Q74), the pairing-allocated
bye is worth at most a win, and every value is whole or a half, as TRF writes it.

FIDE mode, on by default, refuses what the checklist calls a hard failure: a scoring other than 1 / ½ / 0, a
pairing-allocated bye worth other than a win (or a draw, when the regulations say so: C.04.1 d), and a change
of the scoring, the bye's value, the forbidden pairs or the Baku acceleration once the event has started
(round 1 published; Q85–87). Outside FIDE mode such a change needs a reason and is a hard warning: a
SettingChange shown on the audit page, in the public notes and as a ``###`` line of the TRF export. A change
of the tiebreak order after the start and a withdrawal are recorded the same way in both modes. Leaving FIDE
mode takes a confirmation and a reason, is recorded, and cannot be undone."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tiebreaks.engine.model import Scoring

from ..errors import PermissionDenied, ServiceError
from ..models import Event, Game, PairingSettings, Result, ResultChange
from ..models.audit import SettingChange
from ..page_cache import pages_changed
from ..permissions import AnyUser, acting_user, is_league_organiser
from .ratings import rating_comment_lines
from .results import event_results_changed

Points = Decimal | Fraction | int

#: FIDE's standard scoring: win, draw, loss
STANDARD = (Fraction(1), Fraction(1, 2), Fraction(0))
#: what FIDE mode locks once the event has started (Q85–87); a change outside FIDE mode is a hard warning
LOCKED_IN_FIDE_MODE = {
    SettingChange.Setting.SCORING,
    SettingChange.Setting.PAB,
    SettingChange.Setting.FORBIDDEN_PAIRS,
    SettingChange.Setting.BAKU,
    SettingChange.Setting.RATING_METHOD,
    SettingChange.Setting.UNRATED_RATING,
}
#: the settings whose change moves the standings (the recompute says what moved)
MOVES_STANDINGS = {
    SettingChange.Setting.SCORING,
    SettingChange.Setting.PAB,
    SettingChange.Setting.TIEBREAKS,
    SettingChange.Setting.DECISION,
    SettingChange.Setting.PLAYOFF,
    SettingChange.Setting.RATING_METHOD,
    SettingChange.Setting.UNRATED_RATING,
}


class SettingRefused(ServiceError):
    """A refused scoring or setting, with the form field it belongs to."""

    def __init__(self, field: str, message: str, *, code: str) -> None:
        super().__init__(message, code=code)
        self.field = field


def shown(value: Points) -> str:
    """Points as the messages write them: 1, 0.5, 0.75."""
    return f"{float(value):g}"


# ------------------------------------------------------------------------------------------ scoring


def scoring_problems(
    *, win: Points, draw: Points, loss: Points, pab: Points | None = None, fide_mode: bool
) -> list[SettingRefused]:
    """Every reason this game scoring (and bye value) cannot be an event's, first the most basic; none: fine."""
    values = {"points_win": win, "points_draw": draw, "points_loss": loss}
    if pab is not None:
        values["pab_points"] = pab
    w, d, lo = (Fraction(v) for v in (win, draw, loss))
    problems = []
    for field, value in values.items():
        if Fraction(value) < 0 or (Fraction(value) * 2).denominator != 1:
            problems.append(
                SettingRefused(
                    field,
                    _("%(points)s points cannot be written in a TRF file: points are whole numbers or halves.")
                    % {"points": shown(value)},
                    code="points_not_halves",
                )
            )
    if lo > d or d > w:
        problems.append(
            SettingRefused(
                "points_draw", _("A win must score at least a draw, and a draw at least a loss."), code="bad_scoring"
            )
        )
    elif 2 * d > w + lo:
        problems.append(
            SettingRefused(
                "points_draw",
                _("Two draws (%(draws)s) may not be worth more than a win and a loss (%(decisive)s).")
                % {"draws": shown(2 * d), "decisive": shown(w + lo)},
                code="draws_above_win_and_loss",
            )
        )
    if pab is not None and Fraction(pab) > w:
        problems.append(
            SettingRefused(
                "pab_points",
                _("The pairing-allocated bye is worth at most the points of a win (%(win)s).") % {"win": shown(w)},
                code="bad_pab",
            )
        )
    if fide_mode and (w, d, lo) != STANDARD:
        problems.append(
            SettingRefused(
                "points_win",
                _(
                    "In FIDE mode a game scores 1 for a win, ½ for a draw and 0 for a loss; another scoring "
                    "needs the event out of FIDE mode."
                ),
                code="fide_mode_scoring",
            )
        )
    if fide_mode and pab is not None and Fraction(pab) not in (w, d):
        problems.append(
            SettingRefused(
                "pab_points",
                _(
                    "In FIDE mode the pairing-allocated bye is worth the points of a win (%(win)s) or, when the "
                    "regulations say so, of a draw (%(draw)s) (FIDE C.04.1)."
                )
                % {"win": shown(w), "draw": shown(d)},
                code="fide_mode_pab",
            )
        )
    return problems


def scoring_checked(*, win: Points, draw: Points, loss: Points, pab: Points | None = None, fide_mode: bool) -> None:
    """Refuse the scoring with its first problem (SettingRefused)."""
    for problem in scoring_problems(win=win, draw=draw, loss=loss, pab=pab, fide_mode=fide_mode):
        raise problem


def event_scoring_checked(event: Event, *, pab: Points | None = None) -> None:
    """The event's scoring with the bye's value (`pab`, else the stored one) as the event's mode allows."""
    if pab is None and event.pk is not None:
        pab = PairingSettings.objects.filter(event=event).values_list("pab_points", flat=True).first()
    scoring_checked(
        win=event.points_win, draw=event.points_draw, loss=event.points_loss, pab=pab, fide_mode=event.fide_mode
    )


def trf_scoring_problems(scoring: Scoring) -> list[str]:
    """What a TRF file's scoring (162 or BBx) says that no event may keep, in any mode."""
    found = scoring_problems(
        win=scoring.win, draw=scoring.draw, loss=scoring.loss, pab=scoring.pab_points, fide_mode=False
    )
    return [problem.message for problem in found]


def fide_mode_fits(scoring: Scoring) -> bool:
    """Whether an event with this file's scoring can be in FIDE mode (an imported event starts in it if so): a
    zero-point bye and a forfeit loss worth 0 and a result not known worth a draw, as FIDE's rules count them."""
    if scoring.absence or scoring.unknown_points != scoring.draw:
        return False
    return not scoring_problems(
        win=scoring.win, draw=scoring.draw, loss=scoring.loss, pab=scoring.pab_points, fide_mode=True
    )


# ------------------------------------------------------------------------------------------ after the start


def event_started(event: Event) -> bool:
    """An event has started once round 1 is published (a game or a pairing-allocated bye), or it runs."""
    if event.pk is None:
        return False
    if event.status in (Event.Status.RUNNING, Event.Status.FINISHED):
        return True
    paired = Q(black__isnull=False) | Q(match__isnull=False) | Q(result=Result.PAIRING_BYE)
    return Game.objects.filter(round__event=event).filter(paired).exists()


#: the form field each locked setting belongs to (a refusal is shown next to it)
FIELD_OF: dict[str, str] = {
    SettingChange.Setting.SCORING: "points_win",
    SettingChange.Setting.PAB: "pab_points",
    SettingChange.Setting.FORBIDDEN_PAIRS: "forbidden_pairs",
    SettingChange.Setting.BAKU: "baku_acceleration",
    SettingChange.Setting.TIEBREAKS: "criteria",
    SettingChange.Setting.RATING_METHOD: "rating_method",
    SettingChange.Setting.UNRATED_RATING: "unrated_rating",
}


def setting_change_checked(
    event: Event,
    *,
    setting: str,
    before: str,
    after: str,
    user: AnyUser,
    reason: str = "",
    source: str = ResultChange.Source.FORM,
    reason_required: bool = True,
) -> SettingChange | None:
    """A change of one of the event's settings, inside the caller's transaction and before it saves: nothing
    before the start or when nothing changes; refused in FIDE mode when FIDE locks the setting; otherwise it
    needs a reason (unless not `reason_required`: a withdrawal, a tiebreak order before the first result) and
    is recorded."""
    if before == after or not event_started(event):
        return None
    label = SettingChange.Setting(setting).label
    if event.fide_mode and setting in LOCKED_IN_FIDE_MODE:
        raise SettingRefused(
            FIELD_OF.get(setting, ""),
            _(
                "The event has started: in FIDE mode the %(setting)s can no longer change (FIDE locks it from "
                "the start). Outside FIDE mode a change is recorded and shown publicly."
            )
            % {"setting": label},
            code="fide_mode_locked",
        )
    reason = reason.strip()
    if not reason and reason_required and setting != SettingChange.Setting.WITHDRAWAL:
        raise SettingRefused(
            "reason",
            _("The event has started: changing the %(setting)s needs a reason, shown publicly with the change.")
            % {"setting": label},
            code="reason_required",
        )
    change = SettingChange.objects.create(
        event=event,
        user=acting_user(user),
        setting=setting,
        before=before[:300],
        after=after[:300],
        source=source,
        reason=reason[:300],
        # nothing to wait for when the change moves no standings
        standings_impact=None if setting in MOVES_STANDINGS else [],
    )
    pages_changed(event_id=event.pk)
    return change


def scoring_text(win: Points, draw: Points, loss: Points) -> str:
    return f"{shown(win)} / {shown(draw)} / {shown(loss)}"


def pairs_text(pairs: Iterable[Iterable[int]]) -> str:
    return ", ".join("-".join(str(n) for n in pair) for pair in pairs)


def event_settings_changed(
    event: Event, *, before: dict[str, Any], user: AnyUser, reason: str = "", source: str = ResultChange.Source.FORM
) -> None:
    """The event form's part: its scoring, Baku acceleration, rating method and rating for unrated players,
    compared with `before` (field: value)."""
    names = ("points_win", "points_draw", "points_loss")
    changes = (
        (
            SettingChange.Setting.SCORING,
            scoring_text(*(before[name] for name in names)),
            scoring_text(*(getattr(event, name) for name in names)),
        ),
        (SettingChange.Setting.BAKU, _yes_no(before["baku_acceleration"]), _yes_no(event.baku_acceleration)),
        (SettingChange.Setting.RATING_METHOD, before["rating_method"], event.rating_method),
        (
            SettingChange.Setting.UNRATED_RATING,
            _rating_text(before["unrated_rating"]),
            _rating_text(event.unrated_rating),
        ),
    )
    recorded = [
        setting_change_checked(event, setting=setting, before=old, after=new, user=user, reason=reason, source=source)
        for setting, old, new in changes
    ]
    if any(change is not None and change.setting in MOVES_STANDINGS for change in recorded):
        # the standings follow the new settings, and the recompute says what moved (the caller saves the event)
        event_results_changed(event_id=event.pk)
        event.results_version += 1


def _rating_text(value: int | None) -> str:
    return "-" if value is None else str(value)


def _yes_no(value: bool) -> str:
    return "on" if value else "off"


# ------------------------------------------------------------------------------------------ leaving FIDE mode


def fide_mode_leave(
    *, event: Event, user: AnyUser, confirmed: bool, reason: str, source: str = ResultChange.Source.FORM
) -> Event:
    """Take the event out of FIDE mode: only the league's organiser, with the confirmation (the second step)
    and a reason; recorded, and never undone."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not is_league_organiser(user, event.league_id):
            raise PermissionDenied(_("Only the league's organiser may take an event out of FIDE mode."))
        if not event.fide_mode:
            raise ServiceError(
                _("The event is out of FIDE mode already; it cannot go back."), code="fide_mode_left_already"
            )
        if event.status == Event.Status.FINISHED:
            raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
        if not reason.strip():
            raise SettingRefused("reason", _("Say why the event leaves FIDE mode."), code="reason_required")
        if not confirmed:
            raise SettingRefused(
                "confirm",
                _("Confirm that the event leaves FIDE mode for good."),
                code="confirmation_required",
            )
        event.fide_mode = False
        event.save(update_fields=["fide_mode"])
        SettingChange.objects.create(
            event=event,
            user=acting_user(user),
            setting=SettingChange.Setting.FIDE_MODE,
            before="on",
            after="off",
            source=source,
            reason=reason.strip()[:300],
            standings_impact=[],
        )
        pages_changed(event_id=event.pk)
        return event


def trf_comment_lines(event: Event) -> list[str]:
    """The TRF export's ``###`` lines: leaving FIDE mode and every setting changed after the start; the ratings
    TRF-26 cannot hold (services.ratings.rating_comment_lines)."""
    lines = rating_comment_lines(event)
    withdrawn = event.entries.filter(withdrawn_after_round__isnull=False).order_by("start_number")
    lines += [f"### withdrawn: {e.start_number} {e.name} after round {e.withdrawn_after_round}" for e in withdrawn]
    for change in event.setting_changes.order_by("at", "id").select_related("user"):
        who = change.user.get_username() if change.user else "-"
        when = change.at.strftime("%Y-%m-%d %H:%M UTC")
        if change.setting == SettingChange.Setting.FIDE_MODE:
            lines.append(f"### FIDE mode left {when} by {who}: {change.reason}")
        elif change.setting == SettingChange.Setting.WITHDRAWAL:
            lines.append(f"### withdrawal {when} by {who}: {change.before} from round {change.after}")
        elif change.setting == SettingChange.Setting.BYE_ELIGIBILITY:
            lines.append(f"### eligibility for the bye {when} by {who}: {change.before} -> {change.after}")
        elif change.setting == SettingChange.Setting.HALF_BYE_ELIGIBILITY:
            lines.append(
                f"### eligibility for a half-point bye {when} by {who}: {change.before} -> {change.after}"
                + (f"; reason: {change.reason}" if change.reason else "")
            )
        else:
            lines.append(
                f"### HARD WARNING {when} by {who}: {change.setting} changed after the start: "
                f"{change.before or '-'} -> {change.after or '-'}"
                + (f"; reason: {change.reason}" if change.reason else "")
            )
    return lines


def imported_event_mode(event: Event, scoring: Scoring, user: AnyUser) -> None:
    """A new event imported from a TRF file whose scoring FIDE mode does not allow (3 / 1 / 0, a bye worth
    ½ under 3 / 1 / 0 ...) starts outside FIDE mode, and its audit and TRF export say so."""
    if fide_mode_fits(scoring):
        return
    event.fide_mode = False
    event.save(update_fields=["fide_mode"])
    SettingChange.objects.create(
        event=event,
        user=acting_user(user),
        setting=SettingChange.Setting.FIDE_MODE,
        before="on",
        after="off",
        source=ResultChange.Source.IMPORT,
        reason="TRF import: the file's scoring is not FIDE's (1 / 0.5 / 0, the bye a win or a draw)",
        standings_impact=[],
    )
