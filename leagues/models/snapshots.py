"""The computed standings of an event, as pages and the API read them."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event


class StandingsSnapshot(models.Model):
    """The latest computed standings of an event; written only by the recompute, newer versions only."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="snapshot", verbose_name=_("event"))
    version = models.PositiveIntegerField(_("results version"))
    computed_at = models.DateTimeField(_("computed at"))
    rules = models.CharField(_("rule set"), max_length=20)
    criteria = models.JSONField(_("criteria"), default=list)
    rows = models.JSONField(_("rows"), default=list)
    notes = models.JSONField(_("notes"), default=list)
    explanations = models.JSONField(_("explanations"), default=dict)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"), default=0)

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")
