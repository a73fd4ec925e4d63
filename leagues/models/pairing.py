"""Pairing an individual event's rounds on the site: the event's pairing settings, a round's pairing
from the engine's run to its publication, and every change made to it by hand."""

from decimal import Decimal
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event, Round


class PairingSettings(models.Model):
    """What the pairing engine is told about the event beyond its players and results."""

    class Colour(models.TextChoices):
        WHITE = "w", _("white")
        BLACK = "b", _("black")

    class BoardOrder(models.TextChoices):
        """How a published round's boards are ordered within a score group (the higher score of a board's
        two players; FIDE 2026 checklist)."""

        SCORE = "score", _("by score (FIDE C.04.2: higher score, sum of scores, rank)")
        SUM = "sum", _("by the sum of the two scores, then the lower start number")
        TPN = "tpn", _("by the lower start number (TPN)")

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="pairing_settings", verbose_name=_("event")
    )
    # the colour of the first player in round 1: drawn by lot (the seed makes the draw repeatable)
    initial_colour = models.CharField(_("initial colour"), max_length=1, choices=Colour.choices, blank=True)
    colour_seed = models.CharField(_("seed of the colour lot"), max_length=32, blank=True)
    colour_drawn_at = models.DateTimeField(_("colour drawn at"), null=True, blank=True)
    colour_drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("colour drawn by"),
    )
    pab_points = models.DecimalField(
        _("points for the pairing-allocated bye"), max_digits=4, decimal_places=2, default=Decimal("1")
    )
    half_byes_allowed = models.PositiveSmallIntegerField(_("half-point byes a player may request"), default=2)
    # a half-point bye asked for in one of the last N rounds is a warning the organiser confirms (0: none)
    half_byes_not_last_rounds = models.PositiveSmallIntegerField(_("no half-point byes in the last rounds"), default=0)
    board_order = models.CharField(
        _("board order within a score group"), max_length=5, choices=BoardOrder.choices, default=BoardOrder.SCORE
    )
    # pairs of start numbers who must never meet (same club, same family: TRF-26 260)
    forbidden_pairs = models.JSONField(_("forbidden pairs"), default=list, blank=True)

    class Meta:
        verbose_name = _("pairing settings")
        verbose_name_plural = _("pairing settings")


class RoundPairing(models.Model):
    """A round's pairing: asked for, computed by the worker, previewed, perhaps changed by hand, published.

    Until it is published the boards live here only (nobody but the organiser sees them); publishing
    writes them as the round's games."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the worker")
        RUNNING = "running", _("being paired")
        READY = "ready", _("ready to publish")
        FAILED = "failed", _("could not be paired")
        PUBLISHED = "published", _("published")

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="pairing", verbose_name=_("round"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)  # percent
    problem = models.CharField(_("problem"), max_length=500, blank=True)
    system = models.CharField(_("pairing system"), max_length=30, blank=True)
    # [[white, black], ...] in board order (start numbers); `pab`: who has the pairing-allocated bye
    boards = models.JSONField(_("boards"), default=list, blank=True)
    pab = models.PositiveSmallIntegerField(_("pairing-allocated bye"), null=True, blank=True)
    engine_boards = models.JSONField(_("boards as the engine paired them"), default=list, blank=True)
    engine_pab = models.PositiveSmallIntegerField(null=True, blank=True)
    # [[start number, "half" | "zero" | "full"], ...]: the round's other byes as the pairing stands (the
    # byes requested before the pairing, then as changed by hand); publishing makes them the round's byes
    byes = models.JSONField(_("byes"), default=list, blank=True)
    changed_by_hand = models.BooleanField(_("changed by hand"), default=False)
    attempt = models.PositiveIntegerField(default=0)  # raised by every "pair": an older run's answer is dropped
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+", verbose_name=_("paired by")
    )
    requested_at = models.DateTimeField(_("paired at"), null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("published by"),
    )
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round pairing")
        verbose_name_plural = _("round pairings")

    def __str__(self):
        return f"{self.round} {self.status}"


class PairingChange(models.Model):
    """A change of a round's pairing by hand: who, when, why, the boards before and after."""

    pairing = models.ForeignKey(
        RoundPairing, on_delete=models.CASCADE, related_name="changes", verbose_name=_("round pairing")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("user")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    reason = models.CharField(_("reason"), max_length=300)
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))

    class Meta:
        ordering: ClassVar[list[str]] = ["-at", "-id"]
        verbose_name = _("pairing change")
        verbose_name_plural = _("pairing changes")
