"""Who plays: leagues and their seasons, clubs, players and their club memberships."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class League(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), unique=True)
    clubs = models.ManyToManyField("Club", related_name="leagues", blank=True, verbose_name=_("clubs"))
    auto_confirm_days = models.PositiveSmallIntegerField(
        _("days until an unconfirmed match card confirms itself"), default=3
    )

    class Meta:
        ordering = ["name"]
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

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [models.UniqueConstraint(fields=["league", "slug"], name="season_slug_per_league")]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self):
        return f"{self.league} {self.name}"


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), unique=True)
    short_name = models.CharField(_("short name"), max_length=30, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name


class Player(models.Model):
    class Sex(models.TextChoices):
        MALE = "m", _("male")
        FEMALE = "w", _("female")

    name = models.CharField(_("name"), max_length=200, help_text=_("Lastname, Firstname"))
    fide_id = models.PositiveBigIntegerField(_("FIDE id"), null=True, blank=True, unique=True)
    national_id = models.CharField(_("national id"), max_length=30, blank=True)
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    clubs = models.ManyToManyField(Club, through="ClubMembership", related_name="players", verbose_name=_("clubs"))

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self):
        return self.name


class ClubMembership(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, verbose_name=_("player"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, verbose_name=_("club"))
    since = models.DateField(_("since"), null=True, blank=True)
    until = models.DateField(_("until"), null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "club", "since"], name="membership_once")]
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
