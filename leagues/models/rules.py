"""A league's rules for team match cards (who may play where) and the violations found on saved cards
(leagues/services/league_rules.py checks them; each rule is a warning or a block, as the league decides)."""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event, Team
from .league import League, Player
from .results import TeamMatch


class LeagueRule(models.Model):
    """One rule of a league (``event`` empty) or of one division (an event of the league; it replaces the
    league's rule of the same kind there)."""

    class Kind(models.TextChoices):
        BOARD_ORDER = "board_order", _("board order within a tolerance")
        FIXED_ORDER = "fixed_order", _("fixed board order")
        RATING_CAP = "rating_cap", _("rating-sum cap")
        HIGHER_TEAM = "higher_team", _("no lower team after playing for a higher one")
        MAX_APPEARANCES = "max_apps", _("most appearances in the season")
        ONE_TEAM_SEASON = "one_team", _("one team per player in the season")
        ONE_TEAM_ROUND = "one_team_rd", _("one team per player in a round")
        RESERVES = "reserves", _("most reserves on a card")
        WOMEN = "women", _("fewest women on a card")
        LICENCE = "licence", _("licensed players only")
        LICENCE_VALID = "licence_date", _("licence valid on the match date")
        WOMAN_BOARD = "woman_board", _("a board reserved for a woman")
        MAX_MEN = "max_men", _("most men on a card")
        RANKING_LIST = "ranking_list", _("submitted ranking lists")

    class Severity(models.TextChoices):
        WARNING = "warning", _("warning")
        BLOCK = "block", _("block")

    class Penalty(models.TextChoices):
        NONE = "none", _("none")
        BOARD_DEFAULT = "board_default", _("the board is lost by default")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rules", verbose_name=_("league"))
    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rules",
        verbose_name=_("division"),
        help_text=_("Empty: every division of the league."),
    )
    kind = models.CharField(_("rule"), max_length=12, choices=Kind.choices)
    severity = models.CharField(_("severity"), max_length=7, choices=Severity.choices, default=Severity.WARNING)
    # the rule's number: the tolerance in rating points, the cap, the number of appearances, reserves or women
    value = models.PositiveIntegerField(_("value"), null=True, blank=True)
    penalty = models.CharField(_("penalty"), max_length=13, choices=Penalty.choices, default=Penalty.NONE)

    class Meta:
        ordering: ClassVar[list[str]] = ["league", "event", "kind"]
        constraints = (
            models.UniqueConstraint(
                fields=["league", "kind"], condition=models.Q(event__isnull=True), name="league_rule_once"
            ),
            models.UniqueConstraint(
                fields=["league", "event", "kind"],
                condition=models.Q(event__isnull=False),
                name="division_rule_once",
            ),
        )
        verbose_name = _("league rule")
        verbose_name_plural = _("league rules")

    def __str__(self):
        return str(self.get_kind_display())


class RuleViolation(models.Model):
    """A rule broken on a saved card (a warning the card was saved with, or a rule changed later): the organiser's
    inbox lists it until the penalty is applied (once, through the result service) or it is dismissed."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        PENALISED = "penalised", _("penalty applied")
        DISMISSED = "dismissed", _("dismissed")

    match = models.ForeignKey(
        TeamMatch, on_delete=models.CASCADE, related_name="rule_violations", verbose_name=_("match")
    )
    rule = models.ForeignKey(
        LeagueRule, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("rule")
    )
    kind = models.CharField(_("rule"), max_length=12, choices=LeagueRule.Kind.choices)
    severity = models.CharField(_("severity"), max_length=7, choices=LeagueRule.Severity.choices)
    penalty = models.CharField(_("penalty"), max_length=13, choices=LeagueRule.Penalty.choices)
    board = models.PositiveSmallIntegerField(_("board"), null=True, blank=True)  # None: the whole card
    side = models.CharField(_("side"), max_length=4)  # "home" or "away"
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("player")
    )
    params = models.JSONField(_("details"), default=dict, blank=True)
    found_at = models.DateTimeField(_("found at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=9, choices=Status.choices, default=Status.OPEN)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["found_at", "pk"]
        constraints = (
            models.UniqueConstraint(
                fields=["match", "kind", "side", "board"],
                condition=models.Q(board__isnull=False),
                name="violation_once_per_board",
            ),
            models.UniqueConstraint(
                fields=["match", "kind", "side"], condition=models.Q(board__isnull=True), name="violation_once_per_card"
            ),
        )
        verbose_name = _("rule violation")
        verbose_name_plural = _("rule violations")


class RankingListEntry(models.Model):
    """One line of a team's ranking list (Rangliste) for the season: the club's secretary submits the list by
    the season's ranking-list deadline; a player nominated later (until the nomination deadline) is added at
    its end (services.ranking_lists)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="ranking_list", verbose_name=_("team"))
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+", verbose_name=_("player"))
    position = models.PositiveSmallIntegerField(_("position"))
    nominated_on = models.DateField(_("nominated on"))

    class Meta:
        ordering: ClassVar[list[str]] = ["team", "position"]
        constraints = (
            models.UniqueConstraint(fields=["team", "position"], name="ranking_position_once"),
            models.UniqueConstraint(fields=["team", "player"], name="ranking_player_once"),
        )
        verbose_name = _("ranking list entry")
        verbose_name_plural = _("ranking list entries")
