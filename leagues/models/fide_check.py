"""FIDE's tools' verdict on an event: after each round the site runs FIDE's pairing checker and tie-break
checker on the event's own TRF export and keeps what they said (leagues/services/fide_check.py)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event


class FideCheck(models.Model):
    """The latest check of an event by FIDE's tools (gacrux): one row per event, replaced after each round."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="fide_check", verbose_name=_("event"))
    version = models.PositiveIntegerField(_("results version"))
    rounds = models.PositiveSmallIntegerField(_("rounds checked"))
    #: None: not checked (a team event's schedule is not FIDE's team pairing; a rule set that is not FIDE's)
    pairings_ok = models.BooleanField(_("pairings equal FIDE's"), null=True)
    tiebreaks_ok = models.BooleanField(_("tie-breaks equal FIDE's"), null=True)
    #: [{"kind": "pairing", "round": 3, "site": [[1, 5], ...], "fide": [[1, 4], ...]},
    #:  {"kind": "tiebreak", "number": 7, "criterion": "BH", "site": "13.5", "fide": "13"},
    #:  {"kind": "refused", "tool": "pairings" | "tiebreaks", "message": "..."}]
    differences = models.JSONField(_("differences"), default=list)
    checked_at = models.DateTimeField(_("checked at"))

    class Meta:
        verbose_name = _("check by FIDE's tools")
        verbose_name_plural = _("checks by FIDE's tools")

    @property
    def ok(self) -> bool:
        return self.pairings_ok is not False and self.tiebreaks_ok is not False
