"""Games and match cards. Results are stored as codes, never as points: every rule set derives its own numbers."""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Entry, Round
from .league import Player


class TeamMatch(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        SUBMITTED = "submitted", _("submitted")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches", verbose_name=_("round"))
    home = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="home_matches", verbose_name=_("home"))
    away = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="away_matches", verbose_name=_("away"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    dispute_reason = models.CharField(_("reason for the dispute"), max_length=300, blank=True)
    # the organiser's settlement of a dispute, shown to both clubs
    decision = models.CharField(_("organiser's decision"), max_length=500, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("settled by"),
    )
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)
    reminder_sent_at = models.DateTimeField(_("reminder sent at"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        ordering: ClassVar[list[str]] = ["round", "id"]
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")

    def __str__(self):
        return f"{self.home} – {self.away}"


class Result(models.TextChoices):
    """Result codes of a game or bye (TRF result codes, spec trf-format §4), never points."""

    PENDING = "", _("not played yet")
    WHITE_WINS = "1-0", _("1-0")
    DRAW = "1/2-1/2", _("½-½")
    BLACK_WINS = "0-1", _("0-1")
    WHITE_WINS_FORFEIT = "+/-", _("white wins by forfeit")
    BLACK_WINS_FORFEIT = "-/+", _("black wins by forfeit")
    DOUBLE_FORFEIT = "-/-", _("double forfeit")
    UNKNOWN = "?", _("result not known yet")
    PAIRING_BYE = "bye:pab", _("pairing-allocated bye")
    FULL_POINT_BYE = "bye:full", _("full-point bye")
    HALF_POINT_BYE = "bye:half", _("half-point bye")
    ZERO_POINT_BYE = "bye:zero", _("zero-point bye")
    ABSENT = "absent", _("absent")


GAME_RESULTS = {
    Result.PENDING,
    Result.WHITE_WINS,
    Result.DRAW,
    Result.BLACK_WINS,
    Result.WHITE_WINS_FORFEIT,
    Result.BLACK_WINS_FORFEIT,
    Result.DOUBLE_FORFEIT,
    Result.UNKNOWN,
}
BYE_RESULTS = {
    Result.PAIRING_BYE,
    Result.FULL_POINT_BYE,
    Result.HALF_POINT_BYE,
    Result.ZERO_POINT_BYE,
    Result.ABSENT,
}
# TRF code of (white, black) for a game, of the player alone for a bye
TRF_CODES: dict[str, tuple[str, str | None]] = {
    Result.WHITE_WINS: ("1", "0"),
    Result.DRAW: ("=", "="),
    Result.BLACK_WINS: ("0", "1"),
    Result.WHITE_WINS_FORFEIT: ("+", "-"),
    Result.BLACK_WINS_FORFEIT: ("-", "+"),
    Result.DOUBLE_FORFEIT: ("-", "-"),
    Result.UNKNOWN: ("?", "?"),
    Result.PAIRING_BYE: ("U", None),
    Result.FULL_POINT_BYE: ("F", None),
    Result.HALF_POINT_BYE: ("H", None),
    Result.ZERO_POINT_BYE: ("Z", None),
    Result.ABSENT: ("Z", None),
}


class Game(models.Model):
    """A pairing of one round: two entries at a board, or one entry with a bye (black empty)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games", verbose_name=_("round"))
    match = models.ForeignKey(
        TeamMatch, on_delete=models.CASCADE, null=True, blank=True, related_name="games", verbose_name=_("match")
    )
    board = models.PositiveSmallIntegerField(_("board"))
    white = models.ForeignKey(
        Entry, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("white")
    )
    black = models.ForeignKey(
        Entry, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("black")
    )
    # team events: the players at the board (entries are the teams)
    white_player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("white player")
    )
    black_player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("black player")
    )
    result = models.CharField(_("result"), max_length=8, choices=Result.choices, blank=True, default="")
    version = models.PositiveIntegerField(_("version"), default=0, help_text=_("Raised by every change of the result."))
    corrected = models.BooleanField(_("corrected"), default=False)

    class Meta:
        ordering: ClassVar[list[str]] = ["round", "match", "board"]
        constraints = (
            # one game per board of a match, and per board of a round outside matches (two partial
            # indexes instead of NULLS NOT DISTINCT, which SQLite, the demo's database, cannot keep)
            models.UniqueConstraint(
                fields=["round", "match", "board"], condition=models.Q(match__isnull=False), name="board_once_per_match"
            ),
            models.UniqueConstraint(
                fields=["round", "board"], condition=models.Q(match__isnull=True), name="board_once_per_round"
            ),
        )
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self):
        return f"{self.round} #{self.board}: {self.white} – {self.black or '—'} {self.result}"

    @property
    def is_bye(self) -> bool:
        return self.black_id is None and self.match_id is None
