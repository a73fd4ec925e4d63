"""Replayed answers for API requests sent again with the same Idempotency-Key."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class IdempotentRequest(models.Model):
    """The first answer to an API POST sent with an Idempotency-Key, replayed to retries."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user"))
    key = models.CharField(_("key"), max_length=200)
    fingerprint = models.CharField(_("request fingerprint"), max_length=64)
    status = models.PositiveSmallIntegerField(_("status"))
    body = models.JSONField(_("body"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once"),)
        verbose_name = _("idempotent request")
        verbose_name_plural = _("idempotent requests")
