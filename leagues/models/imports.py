"""A big TRF import confirmed by the organiser and run by a worker (leagues.services.trf_jobs)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .events import Event
from .league import League


class ImportJob(models.Model):
    """The uploaded file and the organiser's answers, kept until a worker imported them (or could not).

    One job per confirmation: the same file confirmed again with the same answers (a double click) finds
    the job already there (`key`), unless that one failed."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the worker")
        RUNNING = "running", _("being imported")
        DONE = "done", _("imported")
        FAILED = "failed", _("could not be imported")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="import_jobs", verbose_name=_("league"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("imported by")
    )
    key = models.CharField(max_length=64)  # SHA-256 of the file's digest and the organiser's answers
    digest = models.CharField(max_length=64)  # SHA-256 of the file
    data = models.BinaryField(default=b"")  # a big file, emptied once its import ended (a small one: never kept)
    params = models.JSONField(default=dict)  # name, slug, season, system, target event and the answers
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    problem = models.CharField(_("problem"), max_length=2000, blank=True)
    event = models.ForeignKey(
        Event, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("event")
    )
    players = models.PositiveIntegerField(default=0)
    rounds = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["league", "requested_by", "key"], condition=~Q(status="failed"), name="import_job_once"
            )
        ]
        verbose_name = _("import job")
        verbose_name_plural = _("import jobs")
