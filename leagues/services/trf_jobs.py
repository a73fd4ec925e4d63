"""Big TRF imports run by a worker: the confirmation stores the file and the organiser's answers as an
ImportJob and answers at once; the worker imports it in one transaction (leagues.services.trf) and tells
its progress; the page follows it (static/progress.js).

Which imports go to the worker: players × rounds above settings.TRF_IMPORT_IN_REQUEST_MAX (measured by
tests/bench/bench_import.py; the reason of the threshold is next to the setting)."""

import hashlib
import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ..broker import enqueue_trf_import
from ..errors import PermissionDenied, ServiceError
from ..models import Event, ImportJob, League
from ..permissions import AnyUser, acting_user, is_league_organiser
from .trf import event_import_trf

log = logging.getLogger(__name__)

#: how far an import is at the start of each step, in percent (the players' step runs to the next one)
STEP_PERCENT = {"queued": 0, "reading": 5, "players": 10, "games": 70, "checking": 90, "done": 100}
PROGRESS_SECONDS = 3600


def runs_in_worker(players: int, rounds: int) -> bool:
    """True when an import of this size would keep the confirming request waiting too long."""
    return players * max(rounds, 1) > settings.TRF_IMPORT_IN_REQUEST_MAX


def _progress_key(job_id: int) -> str:
    return f"trf-import-progress:{job_id}"


def _job_key(data: bytes, preview: str) -> tuple[str, str]:
    digest = hashlib.sha256(data).hexdigest()
    return digest, hashlib.sha256(json.dumps([digest, preview]).encode()).hexdigest()


def _organiser(league: League, user: AnyUser) -> User:
    who = acting_user(user)
    if who is None or not is_league_organiser(user, league.pk):
        raise PermissionDenied(_("Only the league's organiser may import events."))
    return who


def _ended_or_waiting(league: League, who: User, key: str) -> ImportJob | None:
    return (
        ImportJob.objects.filter(league=league, requested_by=who, key=key)
        .exclude(status=ImportJob.Status.FAILED)
        .select_related("event")
        .first()
    )


def _once(league: League, who: User, key: str, create: Callable[[], ImportJob]) -> tuple[ImportJob, bool]:
    """The job of `key` that is waiting, running or done; else `create()`'s, in a transaction (True). When the
    other request of a double click stored its job a moment ago, that one (the key is unique)."""
    job = _ended_or_waiting(league, who, key)
    if job is not None:
        return job, False
    try:
        with transaction.atomic():
            return create(), True
    except IntegrityError:
        found = _ended_or_waiting(league, who, key)
        if found is None:
            raise
        return found, False


def import_job_queue(
    *,
    league: League,
    user: AnyUser,
    data: bytes,
    params: dict[str, Any],
    preview: str,
    players: int = 0,
    rounds: int = 0,
) -> ImportJob:
    """Store the file and the answers (`params`: event_import_trf's name, slug, season id, system, event id,
    same_players_confirmed, accept_points_column, start_date, rule_set) and send the import to a worker
    after the commit. `preview` names the preview the organiser confirms: the same preview of the same file
    confirmed again, while its job is waiting, running or done, returns that job and sends nothing (a double
    click imports once); a failed job may be confirmed again."""
    who = _organiser(league, user)
    params = {**params, "language": translation.get_language()}  # the worker refuses in the organiser's language
    fields = _job_fields(league, who, data, preview, params, players, rounds)
    key = fields["key"]

    def create() -> ImportJob:
        job = ImportJob.objects.create(**fields, data=data)
        transaction.on_commit(lambda: _send(job.pk))
        return job

    return _once(league, who, key, create)[0]


def _job_fields(
    league: League, who: User, data: bytes, preview: str, params: dict[str, Any], players: int, rounds: int
) -> dict[str, Any]:
    """What a new import job records of its request, whether queued or imported in the request."""
    digest, key = _job_key(data, preview)
    return dict(league=league, requested_by=who, key=key, digest=digest, params=params, players=players, rounds=rounds)


def import_here(
    *,
    league: League,
    user: AnyUser,
    data: bytes,
    params: dict[str, Any],
    preview: str,
    players: int = 0,
    rounds: int = 0,
) -> tuple[ImportJob, bool]:
    """A small file imported in the request, recorded as an ended job in the same transaction (`params` and
    `preview` as for import_job_queue); True when this call imported it. The same preview confirmed twice at
    once (a double click) imports once: the second waits for the first's commit and gets its job (False).
    Raises ServiceError or PermissionDenied (then nothing was saved)."""
    who = _organiser(league, user)
    fields = _job_fields(league, who, data, preview, params, players, rounds)
    key = fields["key"]

    def create() -> ImportJob:
        job = ImportJob.objects.create(**fields, status=ImportJob.Status.RUNNING)
        job.event = _import(job, data=data)
        job.status, job.finished = ImportJob.Status.DONE, timezone.now()
        job.save(update_fields=["status", "event", "finished"])
        return job

    return _once(league, who, key, create)


def _send(job_id: int) -> None:
    """Send the job to a worker after its commit; a broker that cannot take it fails the job, which says so
    (nothing was imported: the organiser confirms again), instead of leaving it waiting for ever."""
    try:
        enqueue_trf_import(job_id)
    except Exception:
        log.warning("TRF import job %s could not be sent to a worker", job_id, exc_info=True)
        ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(
            status=ImportJob.Status.FAILED,
            problem=_("The import could not be handed to a worker; nothing was saved. Please upload the file again."),
            data=b"",
            finished=timezone.now(),
        )


def import_job_of(*, league: League, user: AnyUser, job_id: int) -> ImportJob | None:
    """The league's job if this user may follow it (the league's organisers), else None."""
    if not is_league_organiser(user, league.pk):
        return None
    return ImportJob.objects.filter(league=league, pk=job_id).select_related("event").first()


def import_jobs_recent(*, league: League, user: AnyUser, count: int = 5) -> list[ImportJob]:
    """The league's latest imports run by a worker, for its organisers' upload page (a way back to each)."""
    if not is_league_organiser(user, league.pk):
        return []
    jobs = (
        ImportJob.objects.filter(league=league)
        .annotate(size=F("players") * F("rounds"))
        .filter(size__gt=settings.TRF_IMPORT_IN_REQUEST_MAX)
    )
    return list(jobs.select_related("event").defer("data").order_by("-pk")[:count])


def import_job_repeated(*, league: League, user: AnyUser, digest: str) -> ImportJob | None:
    """This user's latest job of the file with this digest that did not fail (a confirmation sent again)."""
    if not digest:
        return None
    return (
        ImportJob.objects.filter(league=league, requested_by=acting_user(user), digest=digest)
        .exclude(status=ImportJob.Status.FAILED)
        .order_by("-pk")
        .first()
    )


def import_job_progress(job: ImportJob) -> dict[str, Any]:
    """The job's status, percent done, its step (step name, done, total) and its problem, for the page."""
    if job.status in (ImportJob.Status.DONE, ImportJob.Status.FAILED):
        percent = 100
        step: dict[str, Any] = {"step": job.status, "done": 0, "total": 0}
    else:
        step = cache.get(_progress_key(job.pk)) or {"step": "queued", "done": 0, "total": 0}
        percent = STEP_PERCENT.get(step["step"], 0)
        if step["step"] == "players" and step["total"]:
            percent += (STEP_PERCENT["games"] - percent) * step["done"] // step["total"]
    status = job.status
    if status == ImportJob.Status.QUEUED and step["step"] != "queued":
        status = ImportJob.Status.RUNNING  # the worker holds the job; its row says so at the end
    return {"status": status, "progress": percent, "problem": job.problem, **step}


def import_job_run(*, job_id: int) -> None:
    """The worker's part: import the job's file in one transaction; the job ends done (with its event) or
    failed (with the reason; then nothing of the file was saved). A job already ended is left alone, so a
    task delivered twice imports once. A refusal is written in the language of the organiser who confirmed."""
    language = ImportJob.objects.filter(pk=job_id).values_list("params__language", flat=True).first()
    with translation.override(language or settings.LANGUAGE_CODE):
        _run(job_id)


def _run(job_id: int) -> None:
    try:
        with transaction.atomic():
            job = ImportJob.objects.select_for_update().select_related("league", "requested_by").get(pk=job_id)
            if job.status in (ImportJob.Status.DONE, ImportJob.Status.FAILED):
                return
            problem, event = "", None
            try:
                event = _import(job)
            except (ServiceError, PermissionDenied) as exc:
                problem = exc.message
            job.status = ImportJob.Status.FAILED if problem else ImportJob.Status.DONE
            job.problem, job.event, job.data, job.finished = problem[:2000], event, b"", timezone.now()
            job.save(update_fields=["status", "problem", "event", "data", "finished"])
    except ImportJob.DoesNotExist:
        return
    except Exception:  # an unexpected error: the import's transaction is rolled back, the page says so
        log.exception("TRF import job %s failed", job_id)
        ImportJob.objects.filter(pk=job_id).exclude(status=ImportJob.Status.DONE).update(
            status=ImportJob.Status.FAILED,
            problem=_("The import failed unexpectedly; nothing was saved. Please try again."),
            data=b"",
            finished=timezone.now(),
        )
    finally:
        cache.delete(_progress_key(job_id))


def _import(job: ImportJob, data: bytes | None = None) -> Event:
    """Import the job's file (`data`: the file imported in the request, never stored; then no progress)."""
    params = job.params

    def progress(step: str, done: int, total: int) -> None:
        cache.set(_progress_key(job.pk), {"step": step, "done": done, "total": total}, PROGRESS_SECONDS)

    target = Event.objects.filter(league=job.league, pk=params["event"]).first() if params.get("event") else None
    if params.get("event") and target is None:
        raise ServiceError(_("The event this file updates no longer exists."), code="event_gone")
    return event_import_trf(
        league=job.league,
        name=params["name"],
        slug=params["slug"],
        data=bytes(job.data) if data is None else data,
        user=job.requested_by,
        system=params.get("system") or None,
        season=job.league.seasons.filter(pk=params.get("season")).first() if params.get("season") else None,
        event=target,
        same_players_confirmed=bool(params.get("same_players_confirmed")),
        accept_points_column=bool(params.get("accept_points_column")),
        start_date=params.get("start_date") or None,
        rule_set=params.get("rule_set") or None,
        progress=progress if data is None else None,
        publish=params.get("publish", True),  # the page asks; the API and older jobs publish
    )
