"""Webhook subscriptions to a league, a club or an event, and the log of every delivery."""

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event
from .league import Club, League


class WebhookEvent(models.TextChoices):
    RESULT_RECORDED = "result.recorded", _("a result was recorded")
    RESULT_CORRECTED = "result.corrected", _("a result was corrected")
    STANDINGS_UPDATED = "standings.updated", _("new standings")
    PAIRINGS_PUBLISHED = "pairings.published", _("pairings were published")
    MATCH_CARD_SUBMITTED = "match_card.submitted", _("a match card was submitted")
    MATCH_CARD_CONFIRMED = "match_card.confirmed", _("a match card was confirmed")
    MATCH_CARD_DISPUTED = "match_card.disputed", _("a match card was disputed")
    EVENT_FINISHED = "event.finished", _("an event finished")
    GAME_PGN_UPDATED = "game.pgn_updated", _("a game's moves were updated")
    TEST = "test", _("test event")


class WebhookSubscription(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks", verbose_name=_("owner")
    )
    url = models.URLField(_("URL"), max_length=500)
    events = models.JSONField(_("events"), default=list)
    league = models.ForeignKey(League, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("league"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("club"))
    event = models.ForeignKey(Event, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("event"))
    secret = models.CharField(_("secret"), max_length=80)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    failures_in_a_row = models.PositiveIntegerField(_("failed deliveries in a row"), default=0)

    class Meta:
        verbose_name = _("webhook subscription")
        verbose_name_plural = _("webhook subscriptions")
        constraints = (
            models.CheckConstraint(
                condition=models.Q(league__isnull=False, club__isnull=True, event__isnull=True)
                | models.Q(league__isnull=True, club__isnull=False, event__isnull=True)
                | models.Q(league__isnull=True, club__isnull=True, event__isnull=False),
                name="webhook_one_target",
            ),
        )

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One message to one subscription; every retry sends the same body under the same delivery id."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        DELIVERED = "delivered", _("delivered")
        FAILED = "failed", _("failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    subscription = models.ForeignKey(
        WebhookSubscription, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("subscription")
    )
    event_type = models.CharField(_("event type"), max_length=30, choices=WebhookEvent.choices)
    #: what happened, once: the same change never makes two deliveries to one subscription
    occurrence = models.CharField(_("occurrence"), max_length=120)
    body = models.TextField(_("body"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    response_code = models.PositiveSmallIntegerField(_("response code"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_attempt_at = models.DateTimeField(_("last attempt at"), null=True, blank=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering: ClassVar[list[str]] = ["-created_at"]
        constraints = (models.UniqueConstraint(fields=["subscription", "occurrence"], name="webhook_delivery_once"),)
