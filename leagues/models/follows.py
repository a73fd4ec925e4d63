"""People who follow a player or a team to be told by e-mail when pairings are published and results recorded."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event, Team
from .league import Player


class Follow(models.Model):
    """One follower of one player (across events) or one team. Someone following by e-mail only is sent nothing
    before confirming (``confirmed_at``); an account's follow is confirmed at once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("user")
    )
    email = models.EmailField(_("e-mail"))
    language = models.CharField(_("language"), max_length=10)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="follows", verbose_name=_("player")
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, null=True, blank=True, related_name="follows", verbose_name=_("team")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = (
            models.CheckConstraint(
                condition=models.Q(player__isnull=False, team__isnull=True)
                | models.Q(player__isnull=True, team__isnull=False),
                name="follow_is_player_or_team",
            ),
            models.UniqueConstraint(fields=["email", "player"], name="follow_player_once"),
            models.UniqueConstraint(fields=["email", "team"], name="follow_team_once"),
        )
        verbose_name = _("follower")
        verbose_name_plural = _("followers")

    def __str__(self):
        return f"{self.email} → {self.player or self.team}"


class FollowNotice(models.Model):
    """One piece of news waiting for a follower: the digest task sends every waiting notice of a follower and an
    event in one e-mail and marks them sent."""

    class Kind(models.TextChoices):
        PAIRING = "pairing", _("pairing published")
        RESULT = "result", _("result recorded")

    follow = models.ForeignKey(Follow, on_delete=models.CASCADE, related_name="notices")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField()
    game = models.ForeignKey("leagues.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    match = models.ForeignKey("leagues.TeamMatch", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = (models.Index(fields=["follow", "event", "sent_at"], name="follow_notice_waiting"),)
