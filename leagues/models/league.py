"""Who plays: leagues and their seasons, clubs, players and their club memberships."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from tiebreaks.prizes import CURRENCIES


class League(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), unique=True)
    # the automatic through model has no name to write here
    clubs: models.ManyToManyField[Club, Any] = models.ManyToManyField(
        "Club", related_name="leagues", blank=True, verbose_name=_("clubs")
    )
    auto_confirm_days = models.PositiveSmallIntegerField(
        _("days until an unconfirmed match card confirms itself"), default=3
    )
    # the currency of the league's prize funds unless a fund names another
    currency = models.CharField(
        _("currency"), max_length=3, default="GBP", choices=[(code, code) for code in CURRENCIES]
    )
    # a player may be entered without a club (an open's guests); off: every player belongs to a club of the league
    players_without_club = models.BooleanField(
        _("players without a club"),
        default=True,
        help_text=_("Players who belong to no club of the league may be entered in its individual events."),
    )
    # the league's player registry beyond its clubs' members: players it entered itself (by hand or from a list)
    players: models.ManyToManyField[Player, Any] = models.ManyToManyField(
        "Player", related_name="registry_leagues", blank=True, verbose_name=_("players")
    )
    # the country the league plays in (FIDE's code): its English pages write dates as that country does (USA:
    # month-day-year, as US Chess readers write them; any other: day-month-year)
    federation = models.CharField(
        _("federation"),
        max_length=3,
        blank=True,
        help_text=_("The national federation the league plays under (FIDE's three-letter code, e.g. USA or NOR)."),
    )

    class Meta:
        ordering: ClassVar[list[str]] = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self):
        return self.name


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league"))
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"))
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    # the clubs' ranking lists (services.ranking_lists): submitted by the first day, late nominations by the second
    ranking_deadline = models.DateField(
        _("ranking lists due"),
        null=True,
        blank=True,
        help_text=_("The last day a club submits or reorders its teams' ranking lists."),
    )
    nomination_deadline = models.DateField(
        _("last day of late nominations"),
        null=True,
        blank=True,
        help_text=_("Until this day a club may add players at the end of a ranking list; no one after it."),
    )

    class Meta:
        ordering: ClassVar[list[str]] = ["-starts_on", "name"]
        constraints = (models.UniqueConstraint(fields=["league", "slug"], name="season_slug_per_league"),)
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self):
        return f"{self.league} {self.name}"


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), unique=True)
    short_name = models.CharField(_("short name"), max_length=30, blank=True)
    # a club with results is retired, never deleted: hidden from the lists, its players' history kept
    retired = models.BooleanField(_("retired"), default=False)

    class Meta:
        ordering: ClassVar[list[str]] = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name


FIDE_PROFILE_URL = "https://ratings.fide.com/profile/{fide_id}"


class Player(models.Model):
    class Sex(models.TextChoices):
        MALE = "m", _("male")
        FEMALE = "w", _("female")

    class Title(models.TextChoices):
        """FIDE's over-the-board titles, as the standings show them (TRF writes g, m, f, c, wg, wm, wf, wc)."""

        GM = "GM", _("Grandmaster")
        IM = "IM", _("International Master")
        FM = "FM", _("FIDE Master")
        CM = "CM", _("Candidate Master")
        WGM = "WGM", _("Woman Grandmaster")
        WIM = "WIM", _("Woman International Master")
        WFM = "WFM", _("Woman FIDE Master")
        WCM = "WCM", _("Woman Candidate Master")

    class ArbiterTitle(models.TextChoices):
        IA = "IA", _("International Arbiter")
        FA = "FA", _("FIDE Arbiter")
        NA = "NA", _("National Arbiter")

    name = models.CharField(_("name"), max_length=200, help_text=_("Lastname, Firstname"))
    fide_id = models.PositiveBigIntegerField(_("FIDE id"), null=True, blank=True, unique=True)
    national_id = models.CharField(
        _("national federation ID"),
        max_length=30,
        blank=True,
        help_text=_("The player's number at their national chess federation, not a personal identity number"),
    )
    federation = models.CharField(
        _("federation"), max_length=3, blank=True, help_text=_("FIDE's three-letter code, e.g. NOR")
    )
    licence_until = models.DateField(
        _("licence valid until"),
        null=True,
        blank=True,
        help_text=_("The last day of the player's licence at the national federation; blank: not on record."),
    )
    title = models.CharField(_("title"), max_length=3, choices=Title.choices, blank=True)
    arbiter_title = models.CharField(_("arbiter title"), max_length=2, choices=ArbiterTitle.choices, blank=True)
    rating = models.PositiveSmallIntegerField(_("standard rating"), null=True, blank=True)
    rating_rapid = models.PositiveSmallIntegerField(_("rapid rating"), null=True, blank=True)
    rating_blitz = models.PositiveSmallIntegerField(_("blitz rating"), null=True, blank=True)
    rating_national = models.PositiveSmallIntegerField(_("national rating"), null=True, blank=True)
    # never shown publicly: category prizes read them, pages and the API do not
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    birth_date = models.DateField(
        _("birth date"), null=True, blank=True, help_text=_("When the day is known (FIDE's rating report).")
    )
    # FIDE's development coefficient (K): the games the player completed on FIDE's list, or the K the list shows
    fide_games = models.PositiveIntegerField(
        _("FIDE-rated games"),
        null=True,
        blank=True,
        help_text=_("Games completed on FIDE's rating list; fewer than 30: K = 40. Blank: 30 or more."),
    )
    k_factor = models.PositiveSmallIntegerField(
        _("K factor"),
        null=True,
        blank=True,
        choices=[(40, "40"), (20, "20"), (10, "10")],
        help_text=_("As FIDE's rating list shows it; blank: worked out from rating, age and games."),
    )
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    anonymised = models.BooleanField(
        _("shown by initials"), default=False, help_text=_("Public pages and the API show only the initials.")
    )
    clubs: models.ManyToManyField[Club, ClubMembership] = models.ManyToManyField(
        Club, through="ClubMembership", related_name="players", verbose_name=_("clubs")
    )
    # a player with results is retired, never deleted: no longer offered for entry, their history kept
    retired = models.BooleanField(_("retired"), default=False)

    class Meta:
        ordering: ClassVar[list[str]] = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self):
        return self.public_name

    @property
    def public_name(self) -> str:
        """The name pages, snapshots and the API show: the initials of an anonymised player."""
        return initials(self.name) if self.anonymised else self.name

    @property
    def fide_profile_url(self) -> str:
        return FIDE_PROFILE_URL.format(fide_id=self.fide_id) if self.fide_id else ""


def initials(name: str) -> str:
    """ "Lastname, Firstname" as "F. L." (first names first, every part one letter)."""
    last, _comma, first = name.partition(",")
    parts = (first.split() + last.split()) if first else last.split()
    return " ".join(f"{part[0].upper()}." for part in parts if part) or "?"


class ClubMembership(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, verbose_name=_("player"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, verbose_name=_("club"))
    since = models.DateField(_("since"), null=True, blank=True)
    until = models.DateField(_("until"), null=True, blank=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["player", "club", "since"], name="membership_once"),)
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
