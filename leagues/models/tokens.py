"""API tokens: knox keeps the digest and the shown prefix; an ApiToken names the token and its scopes."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from knox.models import AuthToken


class Scope(models.TextChoices):
    READ = "read", _("read public data")
    RESULTS = "results", _("enter and correct results within your roles")
    ORGANISER = "organiser", _("organise your leagues' events")
    WEBHOOKS = "webhooks", _("manage webhook subscriptions")
    TOKENS = "tokens", _("manage your API tokens")


#: what each scope also allows: every token reads, an organiser token also enters results
SCOPE_INCLUDES = {
    Scope.READ: {Scope.READ},
    Scope.RESULTS: {Scope.RESULTS, Scope.READ},
    Scope.ORGANISER: {Scope.ORGANISER, Scope.RESULTS, Scope.READ},
    Scope.WEBHOOKS: {Scope.WEBHOOKS, Scope.READ},
    Scope.TOKENS: {Scope.TOKENS, Scope.READ},
}


class ApiToken(models.Model):
    """A user's named, scoped token; revoking it deletes its knox digest, so it stops working at once."""

    auth_token = models.OneToOneField(
        AuthToken, on_delete=models.CASCADE, primary_key=True, related_name="api_token", verbose_name=_("token")
    )
    name = models.CharField(_("name"), max_length=80)
    scopes = models.JSONField(_("scopes"), default=list)
    # the token that made this one through the API (none: made by its user on a page, or a command); revoking
    # a token revokes the tokens it made (leagues/services/tokens.py)
    made_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="made", verbose_name=_("made by")
    )

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return self.name

    def allows(self, scope: str) -> bool:
        return any(scope in SCOPE_INCLUDES.get(mine, ()) for mine in self.scopes)
