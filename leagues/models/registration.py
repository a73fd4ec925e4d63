"""Players registering themselves for an individual event, and captains registering their team for a team event
(leagues/services/registration.py): the organiser's settings (deadline, limit, waiting list, entry fee, check-in,
reserves per team), each registration (a team's with its roster) and its entry fee's ledger.

Money is an integer of minor units of the league's currency, as the prize funds keep it."""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Entry, Event
from .league import Player


class RegistrationSettings(models.Model):
    """Whether players may register on the event's page, until when, how many, and the fee."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="registration_settings", verbose_name=_("event")
    )
    is_open = models.BooleanField(_("registration open"), default=False)
    deadline = models.DateTimeField(_("registration deadline"), null=True, blank=True)
    limit = models.PositiveSmallIntegerField(_("limit of players"), null=True, blank=True)  # of teams in a team event
    waiting_list = models.BooleanField(_("waiting list"), default=True)
    fee = models.PositiveIntegerField(_("entry fee"), default=0)  # minor units
    checkin_closes_at = models.DateTimeField(_("check-in closes at"), null=True, blank=True)
    # a team event: how many reserves a team may name besides its boards (None: no limit)
    reserves = models.PositiveSmallIntegerField(_("reserves per team"), null=True, blank=True)
    # when the organiser confirmed the withdrawal of the players who did not check in (round 1 may be paired)
    no_shows_withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("registration settings")
        verbose_name_plural = _("registration settings")


class Registration(models.Model):
    """One player's registration, as they typed it and as the organiser decided it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for a decision")
        ACCEPTED = "accepted", _("accepted")
        REFUSED = "refused", _("refused")
        WAITING = "waiting", _("on the waiting list")
        WITHDRAWN = "withdrawn", _("withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("event"))
    # the same player registers once: "fide:<id>", else the name and birth year folded
    key = models.CharField(max_length=250)
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("player")
    )
    fide_id = models.PositiveBigIntegerField(_("FIDE id"), null=True, blank=True)
    name = models.CharField(_("name"), max_length=200)
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    club = models.CharField(_("club"), max_length=200, blank=True)
    email = models.EmailField(_("e-mail"))
    language = models.CharField(_("language"), max_length=10)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    entry = models.OneToOneField(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="registration", verbose_name=_("entry")
    )
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    # after round 1 is published a player no longer withdraws themselves: they ask, the organiser confirms
    withdrawal_requested_at = models.DateTimeField(_("withdrawal requested at"), null=True, blank=True)
    withdrawal_reason = models.CharField(_("reason for withdrawing"), max_length=300, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["event", "created_at", "pk"]
        constraints = (models.UniqueConstraint(fields=["event", "key"], name="registration_once"),)
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")

    def __str__(self):
        return self.name


class RegisteredPlayer(models.Model):
    """One player of a team's registration, in board order (the first ``event.boards`` its regular players, the rest
    its reserves), as the captain typed them and as the registry matched them."""

    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="roster", verbose_name=_("registration")
    )
    board_order = models.PositiveSmallIntegerField(_("board order"))
    # the same player once in an event's registrations: "fide:<id>", else the name and birth year folded
    key = models.CharField(max_length=250)
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("player")
    )
    fide_id = models.PositiveBigIntegerField(_("FIDE id"), null=True, blank=True)
    name = models.CharField(_("name"), max_length=200)
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["registration", "board_order"]
        constraints = (
            models.UniqueConstraint(fields=["registration", "board_order"], name="registered_board_once"),
            models.UniqueConstraint(fields=["registration", "key"], name="registered_player_once"),
        )
        verbose_name = _("registered player")
        verbose_name_plural = _("registered players")

    def __str__(self):
        return self.name


class FeeRecord(models.Model):
    """One line of an entry fee's ledger: due (on acceptance), paid or refunded, by whom and when."""

    class Kind(models.TextChoices):
        DUE = "due", _("due")
        PAID = "paid", _("paid")
        REFUNDED = "refunded", _("refunded")

    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="fees", verbose_name=_("registration")
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    amount = models.PositiveIntegerField(_("amount"))  # minor units
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["recorded_at", "pk"]
        verbose_name = _("entry fee record")
        verbose_name_plural = _("entry fee records")
