"""Knock-out cups: a team event of the system ``knockout`` (single elimination), its draw (seeding, tie
resolution) and its bracket of ties, each a team match (its card) or a bye (leagues/services/cups.py draws and
advances them)."""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Entry, Event
from .league import Player
from .results import TeamMatch


def default_tie_resolution() -> list[str]:
    return ["board_count", "decider"]


class Cup(models.Model):
    """The draw of a knock-out cup: how it was seeded and how a level match is decided, in order."""

    class Seeding(models.TextChoices):
        RATING = "rating", _("by rating")
        ORDER = "order", _("in the organiser's order")

    class Resolution(models.TextChoices):
        """How a match level on game points is decided, tried in the cup's order; the decider game comes last when
        nothing before it separates the teams."""

        BOARD_COUNT = "board_count", _("board count (the higher boards weigh more)")
        BOTTOM_BOARD = "bottom_board", _("elimination from the bottom board")
        RATING = "rating", _("the team of the lower average rating on the card")
        DECIDER = "decider", _("a play-off or Armageddon game")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="cup", verbose_name=_("event"))
    seeding = models.CharField(_("seeding"), max_length=6, choices=Seeding.choices, default=Seeding.RATING)
    tie_resolution = models.JSONField(_("tie resolution"), default=default_tie_resolution)
    games_per_tie = models.PositiveSmallIntegerField(_("games per tie"), default=1)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)

    class Meta:
        verbose_name = _("cup")
        verbose_name_plural = _("cups")

    def __str__(self):
        return str(self.event)


class CupTie(models.Model):
    """One place of the bracket: two teams (a team and a bye in round 1), their match card, the team that goes
    through and why; the decider game (play-off or Armageddon) recorded on the card when the match is level."""

    class DecidedBy(models.TextChoices):
        BYE = "bye", _("bye")
        SCORE = "score", _("match score")
        BOARD_COUNT = "board_count", _("board count")
        BOTTOM_BOARD = "bottom_board", _("elimination from the bottom board")
        RATING = "rating", _("rating")
        DECIDER = "decider", _("decider game")

    class DeciderResult(models.TextChoices):
        WHITE_WINS = "1-0", _("1-0")
        DRAW = "1/2-1/2", _("½-½")
        BLACK_WINS = "0-1", _("0-1")

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="ties", verbose_name=_("cup"))
    round_number = models.PositiveSmallIntegerField(_("round"))
    position = models.PositiveSmallIntegerField(_("place in the bracket"))
    home = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="+", verbose_name=_("home"))
    away = models.ForeignKey(
        Entry, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("away")
    )
    home_seed = models.PositiveSmallIntegerField(_("seeding place of the home team"))
    away_seed = models.PositiveSmallIntegerField(_("seeding place of the away team"), null=True, blank=True)
    match = models.OneToOneField(
        TeamMatch, on_delete=models.SET_NULL, null=True, blank=True, related_name="cup_tie", verbose_name=_("match")
    )
    winner = models.ForeignKey(
        Entry, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("goes through")
    )
    decided_by = models.CharField(_("decided by"), max_length=12, choices=DecidedBy.choices, blank=True)
    decider_white = models.ForeignKey(
        Entry, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("decider: White")
    )
    decider_white_player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("decider: White")
    )
    decider_black_player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("decider: Black")
    )
    decider_result = models.CharField(
        _("decider: result"), max_length=8, choices=DeciderResult.choices, blank=True, default=""
    )
    decider_armageddon = models.BooleanField(_("Armageddon"), default=False)
    decider_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decider_at = models.DateTimeField(_("decider recorded at"), null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["cup", "round_number", "position"]
        constraints = (models.UniqueConstraint(fields=["cup", "round_number", "position"], name="cup_tie_place_once"),)
        verbose_name = _("cup tie")
        verbose_name_plural = _("cup ties")

    def __str__(self):
        return f"{self.cup} R{self.round_number} #{self.position}"


class CupTieChange(models.Model):
    """A team going through replaced after the next round was made: a card of the earlier round corrected (or a
    board defaulted under the league's rules) changed who won that tie, so the next round's match, still without a
    result, was made again with the new team (services.cups.cup_card_corrected)."""

    tie = models.ForeignKey(CupTie, on_delete=models.CASCADE, related_name="changes", verbose_name=_("cup tie"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("user")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    before = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="+", verbose_name=_("before"))
    after = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="+", verbose_name=_("after"))
    reason = models.CharField(_("reason"), max_length=300)

    class Meta:
        ordering: ClassVar[list[str]] = ["-at", "-id"]
        verbose_name = _("cup tie change")
        verbose_name_plural = _("cup tie changes")
