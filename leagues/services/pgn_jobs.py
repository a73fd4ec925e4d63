"""Big PGN files of an event's games, read and attached by a worker (issue #34): a file above
settings.PGN_ATTACH_IN_REQUEST_MAX_CHARS is stored as a PgnImportJob and the page answers at once; the worker reads
it with python-chess and matches its games to the event's boards (leagues.services.games: the players' FIDE ids or
names, the round, then the board), telling its progress (the page follows it with static/progress.js); the
organiser sees what matched, the results that differ and the games waiting for a decision, and confirms; the worker
then attaches every chosen game in one transaction, all of them or none. An API client's upload is its confirmation:
its games are attached at once when none waits for a decision.

The reason of the threshold is next to the setting."""

import hashlib
import logging
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ..broker import enqueue_pgn_import
from ..errors import DEFAULT_PERMISSION_MESSAGE, PermissionDenied, ServiceError
from ..models import Event, Game, GamePgn, PgnImportJob
from ..permissions import AnyUser, acting_user, can_manage_event
from .games import PGN_MAX_CHARS, attach_boards, attach_planned, pgn_plan, pgn_read

log = logging.getLogger(__name__)

#: how far a job is at the start of each step, in percent (reading and saving run to the next step's)
STEP_PERCENT = {"queued": 0, "reading": 5, "matching": 60, "saving": 65, "done": 100}
STEP_END = {"reading": 60, "saving": 99}
PROGRESS_SECONDS = 3600
Status = PgnImportJob.Status


def pgn_runs_in_worker(text: str) -> bool:
    """True when reading and matching this text would keep the request waiting too long."""
    return len(text) > settings.PGN_ATTACH_IN_REQUEST_MAX_CHARS


def _progress_key(job_id: int) -> str:
    return f"pgn-import-progress:{job_id}"


def _manager(event: Event, user: AnyUser) -> Any:
    who = acting_user(user)
    if who is None or not can_manage_event(user, event):
        raise PermissionDenied(DEFAULT_PERMISSION_MESSAGE)
    return who


def pgn_job_queue(
    *,
    event: Event,
    user: AnyUser,
    text: str,
    source: str = GamePgn.Source.FILE,
    confirmed: bool = False,
    decisions: dict[int, int | None] | None = None,
) -> PgnImportJob:
    """Store the text for a worker, which reads it and matches its games to the event's boards; `confirmed`: then
    attaches them too (`decisions` as pgn_attach takes them), unless a game waits for a decision. Sent after the
    commit."""
    who = _manager(event, user)
    if len(text) > PGN_MAX_CHARS:
        raise ServiceError(_("The PGN is too long to read at once."), code="pgn_too_long")
    if not text.strip():
        raise ServiceError(_("No game was found in the PGN."), code="no_games")
    job = PgnImportJob.objects.create(
        event=event,
        requested_by=who,
        digest=hashlib.sha256(text.encode()).hexdigest(),
        text=text,
        source=source,
        confirmed=confirmed,
        decisions={str(number): game for number, game in (decisions or {}).items()},
        language=translation.get_language() or "",
    )
    transaction.on_commit(lambda: _send(job.pk))
    return job


def pgn_job_confirm(*, job: PgnImportJob, user: AnyUser, decisions: dict[int, int | None]) -> PgnImportJob:
    """The organiser's confirmation of a checked job, with a decision for each game waiting for one: a worker
    attaches the games. A job not waiting for its confirmation (a second click) is left as it is."""
    _manager(job.event, user)
    with transaction.atomic():
        sent = PgnImportJob.objects.filter(pk=job.pk, status=Status.CHECKED).update(
            status=Status.QUEUED,
            confirmed=True,
            decisions={str(number): game for number, game in decisions.items()},
            language=translation.get_language() or job.language,
        )
        if sent:
            transaction.on_commit(lambda: _send(job.pk))
    job.refresh_from_db()
    return job


def _send(job_id: int) -> None:
    """Send the job to a worker; a broker that cannot take it fails the job, which says so (nothing was attached),
    instead of leaving it waiting for ever."""
    try:
        enqueue_pgn_import(job_id)
    except Exception:
        log.warning("PGN import job %s could not be sent to a worker", job_id, exc_info=True)
        PgnImportJob.objects.filter(pk=job_id, status=Status.QUEUED).update(
            status=Status.FAILED,
            problem=_("The file could not be handed to a worker; nothing was attached. Please upload it again."),
            text="",
            finished=timezone.now(),
        )


def pgn_job_of(*, event: Event, user: AnyUser, job_id: int) -> PgnImportJob | None:
    """The event's job if this user may follow it (who manages the event), else None."""
    if not can_manage_event(user, event):
        return None
    return PgnImportJob.objects.filter(event=event, pk=job_id).defer("text").first()


def pgn_job_for(*, user: AnyUser, job_id: int) -> PgnImportJob | None:
    """The job if this user may follow it (who manages its event), else None."""
    job = PgnImportJob.objects.filter(pk=job_id).select_related("event").defer("text").first()
    return job if job is not None and can_manage_event(user, job.event) else None


def pgn_jobs_recent(*, event: Event, user: AnyUser, count: int = 5) -> list[PgnImportJob]:
    """The event's latest big PGN files, for the page of its moves (a way back to each)."""
    if not can_manage_event(user, event):
        return []
    return list(PgnImportJob.objects.filter(event=event).defer("text").order_by("-pk")[:count])


def pgn_job_progress(job: PgnImportJob) -> dict[str, Any]:
    """The job's status, percent done, its step (step name, done, total) and its problem, for the page."""
    if job.status in (Status.CHECKED, Status.DONE, Status.FAILED):
        percent = 100
        step: dict[str, Any] = {"step": job.status, "done": 0, "total": 0}
    else:
        step = cache.get(_progress_key(job.pk)) or {"step": "queued", "done": 0, "total": 0}
        percent = STEP_PERCENT.get(step["step"], 0)
        if step["step"] in STEP_END and step["total"]:
            percent += (STEP_END[step["step"]] - percent) * step["done"] // step["total"]
    status = job.status
    if status == Status.QUEUED and step["step"] != "queued":
        status = Status.RUNNING  # the worker holds the job; its row says so at the end
    return {"status": status, "progress": percent, "problem": job.problem, **step}


def pgn_job_run(*, job_id: int) -> None:
    """The worker's part: read and match the job's text; attach its games if the job is confirmed and no game
    waits for a decision, in one transaction (all or nothing). A job that is not waiting for a worker is left
    alone, so a task delivered twice works once. A refusal is written in the language of who sent the job."""
    language = PgnImportJob.objects.filter(pk=job_id).values_list("language", flat=True).first()
    with translation.override(language or settings.LANGUAGE_CODE):
        _run(job_id)


def _run(job_id: int) -> None:
    try:
        with transaction.atomic():
            job = PgnImportJob.objects.select_for_update().select_related("event", "requested_by").get(pk=job_id)
            if job.status not in (Status.QUEUED, Status.RUNNING):
                return
            try:
                with transaction.atomic():
                    _work(job)
            except (ServiceError, PermissionDenied) as exc:
                job.status, job.problem, job.text = Status.FAILED, exc.message[:2000], ""
            if job.status != Status.CHECKED:
                job.finished = timezone.now()
            job.save()
    except PgnImportJob.DoesNotExist:
        return
    except Exception:  # an unexpected error: the attach's transaction is rolled back, the page says so
        log.exception("PGN import job %s failed", job_id)
        PgnImportJob.objects.filter(pk=job_id).exclude(status=Status.DONE).update(
            status=Status.FAILED,
            problem=_("The file could not be attached; nothing was saved. Please try again."),
            text="",
            finished=timezone.now(),
        )
    finally:
        cache.delete(_progress_key(job_id))


def _work(job: PgnImportJob) -> None:
    def progress(step: str, done: int, total: int) -> None:
        cache.set(_progress_key(job.pk), {"step": step, "done": done, "total": total}, PROGRESS_SECONDS)

    file_games = pgn_read(job.text, progress)
    progress("matching", 0, len(file_games))
    games = Game.objects.filter(round__event=job.event).select_for_update(of=("self",))
    plan = pgn_plan(attach_boards(games, job.requested_by), file_games)
    decisions = {int(number): game for number, game in job.decisions.items()}
    job.games, job.matched = len(file_games), len(plan.matched)
    job.differences = [
        {
            "number": m.file_game.number,
            "round": m.game.round.number,
            "board": m.game.board,
            "white": m.file_game.white,
            "black": m.file_game.black,
            "difference": m.difference,
        }
        for m in plan.matched
        if m.difference
    ]
    job.unmatched = [
        {
            "number": u.file_game.number,
            "round": u.file_game.round,
            "white": u.file_game.white,
            "black": u.file_game.black,
            "reason": u.reason,
        }
        for u in plan.unmatched
    ]
    if not job.confirmed or any(u.file_game.number not in decisions for u in plan.unmatched):
        job.status = Status.CHECKED  # the organiser confirms, deciding about the games listed
        return
    saved = attach_planned(plan, decisions, job.requested_by, job.source, progress)
    job.attached, job.status, job.text = len(saved), Status.DONE, ""
