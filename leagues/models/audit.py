"""The public record of changes: every result change, every override of a locked tiebreak policy and every
change of a finished event."""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .events import Event
from .results import Game


class ResultChange(models.Model):
    """The audit trail: every change of a result, who made it, from where and why."""

    class Source(models.TextChoices):
        FORM = "form", _("form")
        API = "api", _("API")
        IMPORT = "import", _("import")
        ADMIN = "admin", _("admin")
        DEMO = "demo", _("demo data")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes", verbose_name=_("game"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("user")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    before = models.CharField(_("before"), max_length=8, blank=True)
    after = models.CharField(_("after"), max_length=8)
    source = models.CharField(_("source"), max_length=8, choices=Source.choices)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    # for corrections: what the correction changed in the standings (filled by the recompute)
    standings_impact = models.JSONField(_("effect on the standings"), null=True, blank=True)

    # The reasons the site gives itself are stored as these codes and shown in the reader's language (a
    # worker writes them in no reader's language); a reason a person typed is shown as typed.
    SITE_REASONS: ClassVar[dict[str, str | Promise]] = {
        "pairing": _("pairing"),
        "bye requested": _("bye requested"),
        "changed by hand": _("changed by hand"),
        "late entry": _("late entry"),
        "league rule penalty": _("penalty under the league's rules"),
    }

    class Meta:
        ordering: ClassVar[list[str]] = ["-at", "-id"]
        indexes: ClassVar[list[models.Index]] = [
            # the corrections a recompute describes (leagues/recompute.py, changes_undescribed): a handful, looked for
            # after every result, among every change ever made
            models.Index(
                fields=["game"],
                condition=models.Q(standings_impact__isnull=True) & ~models.Q(before=""),
                name="resultchange_undescribed",
            )
        ]
        verbose_name = _("result change")
        verbose_name_plural = _("result changes")

    @property
    def reason_shown(self) -> str:
        return str(self.SITE_REASONS.get(self.reason, self.reason))


class TiebreakPolicyChange(models.Model):
    """A change of a locked tiebreak policy: only by an organiser, with a reason, shown publicly."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="policy_changes", verbose_name=_("event"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, verbose_name=_("user"))
    at = models.DateTimeField(_("at"), auto_now_add=True)
    rule_set_before = models.CharField(_("rule set before"), max_length=20)
    rule_set_after = models.CharField(_("rule set after"), max_length=20)
    criteria_before = models.JSONField(_("criteria before"), default=list)
    criteria_after = models.JSONField(_("criteria after"), default=list)
    reason = models.CharField(_("reason"), max_length=300)

    class Meta:
        ordering: ClassVar[list[str]] = ["-at"]
        verbose_name = _("tiebreak policy change")
        verbose_name_plural = _("tiebreak policy changes")


class FinishedEventChange(models.Model):
    """An organiser's change of a finished event (its results, a match card or its prizes): with a reason,
    shown publicly on the event's page like an override of the tiebreak policy."""

    class Subject(models.TextChoices):
        RESULTS = "results", _("results")
        CARD = "card", _("a match card")
        PRIZES = "prizes", _("the prizes")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="finished_changes", verbose_name=_("event"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, verbose_name=_("user"))
    at = models.DateTimeField(_("at"), auto_now_add=True)
    subject = models.CharField(_("what changed"), max_length=8, choices=Subject.choices)
    reason = models.CharField(_("reason"), max_length=300)

    class Meta:
        ordering: ClassVar[list[str]] = ["-at", "-id"]
        verbose_name = _("change of a finished event")
        verbose_name_plural = _("changes of finished events")


class SettingChange(models.Model):
    """A change of an event's settings after it started (round 1 published), or its leaving FIDE mode: who,
    when, why, from what to what, and what moved in the standings. In FIDE mode most such changes are refused;
    outside it each is a hard warning shown on the audit page, in the public notes and in the TRF export."""

    class Setting(models.TextChoices):
        SCORING = "scoring", _("scoring")
        PAB = "pab", _("value of the pairing-allocated bye")
        TIEBREAKS = "tiebreaks", _("tiebreak order")
        FORBIDDEN_PAIRS = "forbidden", _("forbidden pairs")
        BAKU = "baku", _("Baku acceleration")
        WITHDRAWAL = "withdrawal", _("withdrawal")
        FIDE_MODE = "fide_mode", _("FIDE mode left")
        DECISION = "decision", _("order of players still tied")
        PLAYOFF = "playoff", _("play-off")
        EXTERNAL = "external", _("tie-break value set from outside")
        HALF_BYES = "half_byes", _("limits on half-point byes")
        BOARD_ORDER = "board_ord", _("board order within a score group")
        BYE_ELIGIBILITY = "bye_elig", _("eligibility for the pairing-allocated bye")
        HALF_BYE_ELIGIBILITY = "hbye_elig", _("eligibility for a half-point bye")
        UNRATED_RATING = "unrated", _("rating for unrated players")
        RATING_METHOD = "rating_m", _("rating method")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="setting_changes", verbose_name=_("event"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("user")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    setting = models.CharField(_("setting"), max_length=10, choices=Setting.choices)
    before = models.CharField(_("before"), max_length=300, blank=True)
    after = models.CharField(_("after"), max_length=300, blank=True)
    source = models.CharField(_("source"), max_length=8, choices=ResultChange.Source.choices)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    # what the change moved in the standings (filled by the recompute; None: not known yet, or nothing to move)
    standings_impact = models.JSONField(_("effect on the standings"), null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-at", "-id"]
        verbose_name = _("change of a setting")
        verbose_name_plural = _("changes of settings")
