"""The moves of games: each version of a game's PGN as it arrived, and an event's transmission delay."""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .events import Event
from .results import Game


class GamePgn(models.Model):
    """One version of a game's moves: the PGN movetext (comments, clocks and variations kept, no headers: the site
    writes those from its own data) and the result the moves end with. The newest version is the game's moves; the
    earlier ones are what readers see while the event's transmission delay holds the newer ones back."""

    class Source(models.TextChoices):
        FORM = "form", _("pasted on the page")
        FILE = "file", _("PGN file")
        API = "api", _("API (live board)")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="pgn_versions", verbose_name=_("game"))
    version = models.PositiveIntegerField(_("version"))
    movetext = models.TextField(_("moves"))
    result = models.CharField(_("result of the moves"), max_length=7, default="*")
    # the starting position when the game did not start from the usual one (PGN's FEN header)
    start_fen = models.CharField(_("starting position (FEN)"), max_length=100, blank=True)
    # when this version arrived: the transmission delay counts from here
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("updated by"),
    )
    source = models.CharField(_("source"), max_length=4, choices=Source.choices, default=Source.FORM)

    class Meta:
        ordering: ClassVar[list[str]] = ["game_id", "version"]
        constraints = (models.UniqueConstraint(fields=["game", "version"], name="one_pgn_per_game_version"),)
        verbose_name = _("game moves")
        verbose_name_plural = _("game moves")

    def __str__(self) -> str:
        return f"{self.game} v{self.version}"


class Transmission(models.Model):
    """How late an event's live boards are shown (fair play): moves reach every reader, the API included,
    `delay_minutes` after they arrived, until the game ends."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="transmission", verbose_name=_("event")
    )
    delay_minutes = models.PositiveSmallIntegerField(_("transmission delay (minutes)"), default=0)

    class Meta:
        verbose_name = _("transmission delay")
        verbose_name_plural = _("transmission delays")

    def __str__(self) -> str:
        return f"{self.event}: {self.delay_minutes}"
