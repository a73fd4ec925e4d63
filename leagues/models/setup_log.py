"""What organisers undid: an event, club, player or entry deleted (it had no results) or archived or retired
(it had results, so nothing leaves the public record)."""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .league import League


class SetupChange(models.Model):
    class Subject(models.TextChoices):
        EVENT = "event", _("event")
        CLUB = "club", _("club")
        PLAYER = "player", _("player")
        ENTRY = "entry", _("entry")

    class Action(models.TextChoices):
        DELETED = "deleted", _("deleted")
        ARCHIVED = "archived", _("archived")
        RESTORED = "restored", _("restored")
        ENTERED = "entered", _("entered from a list")
        RATED = "rated", _("ratings from a newer list")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="setup_changes", verbose_name=_("league"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("user")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    subject = models.CharField(_("what"), max_length=8, choices=Subject.choices)
    action = models.CharField(_("action"), max_length=8, choices=Action.choices)
    # the name it had (a deleted row is gone), and where it belonged
    name = models.CharField(_("name"), max_length=300)
    event_name = models.CharField(_("event"), max_length=200, blank=True)
    source = models.CharField(_("source"), max_length=8)
    detail = models.CharField(_("detail"), max_length=300, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-at", "-id"]
        verbose_name = _("set-up change")
        verbose_name_plural = _("set-up changes")
