"""Who may enter results: the roles users hold in a league, a club or an event."""

from django.conf import settings
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .events import Event
from .league import Club, League


class Role(models.Model):
    """Who may enter results: league organisers, club secretaries, event arbiters."""

    class Kind(models.TextChoices):
        ORGANISER = "organiser", _("league organiser")
        SECRETARY = "secretary", _("club secretary")
        ARBITER = "arbiter", _("arbiter")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="roles", verbose_name=_("user")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    league = models.ForeignKey(League, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("league"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("club"))
    event = models.ForeignKey(Event, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("event"))

    class Meta:
        constraints = (
            models.CheckConstraint(
                condition=models.Q(kind="organiser", league__isnull=False)
                | models.Q(kind="secretary", club__isnull=False)
                | models.Q(kind="arbiter", event__isnull=False),
                name="role_has_its_scope",
            ),
        )
        verbose_name = _("role")
        verbose_name_plural = _("roles")

    def __str__(self):
        return f"{self.user} {self.get_kind_display()}"


def language_choices() -> list[tuple[str, str | Promise]]:
    """The site's languages (settings.LANGUAGES), read whenever they are needed: the migrations name this
    function, not the list, so a language added to the settings needs no migration."""
    return list(settings.LANGUAGES)


class Profile(models.Model):
    """A user's language: the language of the emails the site sends them."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile", verbose_name=_("user")
    )
    language = models.CharField(_("language"), max_length=8, choices=language_choices, default="en")

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
