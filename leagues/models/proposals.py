"""Changes of a shared player's registry fields proposed by a league that does not keep the player (a TRF import of
another league): written only when an organiser of a league that keeps the player accepts them."""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .league import League, Player


class PlayerProposal(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for a decision")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="proposals", verbose_name=_("player"))
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="player_proposals", verbose_name=_("proposed by the league")
    )
    field = models.CharField(_("field"), max_length=30)
    value = models.CharField(_("value"), max_length=200)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("proposed at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["created_at", "pk"]
        verbose_name = _("proposed player change")
        verbose_name_plural = _("proposed player changes")
        constraints = (
            models.UniqueConstraint(
                fields=["player", "league", "field", "value"],
                condition=models.Q(status="pending"),
                name="one_pending_player_proposal",
            ),
        )

    def __str__(self) -> str:
        return f"{self.player}: {self.field} = {self.value}"
