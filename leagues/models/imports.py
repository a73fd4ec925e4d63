"""Big files run by a worker: a TRF import confirmed by the organiser (leagues.services.trf_jobs) and a PGN file
of an event's games (leagues.services.pgn_jobs)."""

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
        constraints = (
            models.UniqueConstraint(
                fields=["league", "requested_by", "key"], condition=~Q(status="failed"), name="import_job_once"
            ),
        )
        verbose_name = _("import job")
        verbose_name_plural = _("import jobs")


class PgnImportJob(models.Model):
    """A big PGN file of an event's games, read and matched to its boards by a worker, then attached by a worker
    once the organiser confirmed it (leagues.services.pgn_jobs). The file is kept until its games are attached."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the worker")
        RUNNING = "running", _("being read")
        CHECKED = "checked", _("waiting for your confirmation")
        DONE = "done", _("attached")
        FAILED = "failed", _("could not be attached")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pgn_imports", verbose_name=_("event"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("uploaded by")
    )
    digest = models.CharField(max_length=64)  # SHA-256 of the text
    text = models.TextField(blank=True)  # the PGN, emptied once its games are attached
    source = models.CharField(max_length=10, default="file")  # GamePgn.Source of the versions it saves
    confirmed = models.BooleanField(default=False)  # attach (True) or only read and match (False)
    decisions = models.JSONField(default=dict)  # file game number → game id, or None to leave it out
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    problem = models.CharField(_("problem"), max_length=2000, blank=True)
    language = models.CharField(max_length=10, blank=True)  # the organiser's, for the worker's refusals
    games = models.PositiveIntegerField(default=0)  # games in the file
    matched = models.PositiveIntegerField(default=0)
    attached = models.PositiveIntegerField(default=0)
    differences = models.JSONField(default=list)  # matched games whose moves end otherwise than the result
    unmatched = models.JSONField(default=list)  # games of the file waiting for a decision
    created = models.DateTimeField(_("created"), auto_now_add=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("PGN import")
        verbose_name_plural = _("PGN imports")
