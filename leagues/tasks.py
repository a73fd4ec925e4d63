"""Thin Celery tasks: they take ids and call the recompute or a service. Bursts of results coalesce in
:mod:`leagues.broker`, which sends the recompute."""

import logging
import smtplib

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage

from . import broker, notifications, page_cache
from .recompute import renew_lost_pages, stale_event_ids, standings_recompute_event
from .services import export_cache, follows
from .services.disputes import match_cards_remind as remind
from .services.fide_check import event_fide_check as fide_check
from .services.match_cards import match_cards_auto_confirm as auto_confirm
from .services.pgn_jobs import pgn_job_run
from .services.round_pairings import pairing_compute
from .services.trf_jobs import import_job_run
from .services.webhooks import SubscriptionBusy, webhook_attempt, webhook_next_try_in, webhook_paused_message
from .services.webhooks import webhooks_fan_out as fan_out

log = logging.getLogger(__name__)


@shared_task(acks_late=True)
def standings_recompute(event_id: int) -> None:
    """One event's recompute; sent while another worker recomputes the event, it is left to that one, which runs
    again once done (standings_recompute_event)."""
    if standings_recompute_event(event_id):
        page_cache.render_pass_after_recompute(event_id)
    broker.record_heartbeat()


@shared_task
def standings_sweep() -> int:
    """Enqueue every event whose snapshot is older than its results, renew the pages of snapshots whose worker
    died before renewing them and the downloads whose held-back moves are due (also a worker heartbeat)."""
    broker.record_heartbeat()
    renew_lost_pages()
    export_cache.renew_revealed()
    ids = stale_event_ids()
    for event_id in ids:
        standings_recompute.delay(event_id)
    if ids:
        log.info("sweep enqueued %d stale events: %s", len(ids), ids)
    return len(ids)


@shared_task
def event_pages_render(slug: str) -> int:
    """Render the heavy pages of an event that readers asked for since it changed (they got the page as it was
    meanwhile); a recompute waiting makes it stop between two pages and send itself again behind it."""
    rendered = page_cache.render_pass(slug)
    broker.record_heartbeat()
    return rendered


@shared_task(acks_late=True)
def event_fide_check(event_id: int) -> None:
    """Check the event with FIDE's pairing and tie-break checkers and keep the verdict (after each round)."""
    fide_check(event_id=event_id)


@shared_task
def export_build(scope: str, ident: str, kind: str) -> bool:
    """Build one open-data download of an event or season and keep it in the page cache (its readers got the
    previous copy, or 503 with Retry-After, meanwhile)."""
    built = export_cache.export_build(scope, ident, kind)
    broker.record_heartbeat()
    return built


@shared_task(acks_late=True)
def round_pairing_compute(pairing_id: int, attempt: int) -> None:
    """Pair a round with the engine (a big open takes a while); a late or repeated run stores nothing."""
    pairing_compute(pairing_id=pairing_id, attempt=attempt)
    broker.record_heartbeat()


@shared_task(acks_late=True)
def trf_import_run(job_id: int) -> None:
    """Import a big TRF file in one transaction; a job already ended is left alone (delivered twice: once)."""
    import_job_run(job_id=job_id)
    broker.record_heartbeat()


@shared_task(acks_late=True)
def pgn_import_run(job_id: int) -> None:
    """Read and match a big PGN file of an event, and attach its games once confirmed, in one transaction."""
    pgn_job_run(job_id=job_id)
    broker.record_heartbeat()


@shared_task
def match_cards_auto_confirm() -> int:
    """Confirm match cards the other club left unanswered for the league's number of days."""
    return auto_confirm()


@shared_task
def match_cards_remind() -> int:
    """Remind the other club a day before an unanswered match card confirms itself."""
    return remind()


@shared_task(acks_late=True)
def send_notification(kind: str, params: dict) -> int:
    """Write the emails of one notification (each in its recipient's language) and queue each one."""
    return notifications.queue_messages(kind, params)


@shared_task(acks_late=True)
def follow_digest(email: str, event_id: int) -> int:
    """One e-mail with every waiting piece of news of one follower and one event (leagues/services/follows.py)."""
    return follows.follow_digest(email=email, event_id=event_id)


#: the longest wait between two tries of an email (the waits double from EMAIL_RETRY_SECONDS)
EMAIL_RETRY_MAX_SECONDS = 3600


@shared_task(bind=True, acks_late=True, max_retries=30)
def send_email(self, message: dict) -> None:
    """Deliver one email; while the mail server fails, retry with exponential backoff. In-process (no
    broker: `make demo`, tests) a failure is logged instead, so no request waits for a mail server."""
    try:
        EmailMessage(
            message["subject"],
            message["body"],
            settings.DEFAULT_FROM_EMAIL,
            message["to"],
            headers=message.get("headers"),
        ).send()
    except (OSError, smtplib.SMTPException) as exc:
        if self.request.is_eager:
            log.warning("email to %s not delivered: %s", message["to"], exc)
            return
        countdown = min(EMAIL_RETRY_MAX_SECONDS, settings.EMAIL_RETRY_SECONDS * 2**self.request.retries)
        raise self.retry(exc=exc, countdown=countdown) from None


@shared_task(acks_late=True)
def webhooks_fan_out(event_id: int, items: list) -> int:
    """Write one delivery per subscriber of each of an event's occurrences and send each as its own task."""
    return len(fan_out(event_id, [(event_type, occurrence, data) for event_type, occurrence, data in items]))


@shared_task(bind=True, acks_late=True, max_retries=None)
def webhook_deliver(self, delivery_id: str) -> None:
    """One signed POST; a failure tries again after WEBHOOKS_RETRY_SECONDS, doubling each time, up to
    WEBHOOKS_MAX_ATTEMPTS tries (in-process, without a broker, it is tried once). While the subscription has its
    most deliveries under way this one waits, without counting as a try, as long as one of them may take."""
    try:
        delivered = webhook_attempt(delivery_id)
    except SubscriptionBusy:
        raise self.retry(countdown=settings.WEBHOOKS_TIMEOUT_SECONDS) from None
    if delivered is False and not self.request.is_eager:
        wait = webhook_next_try_in(delivery_id)
        if wait is not None:
            raise self.retry(countdown=wait)


@shared_task
def webhook_paused_email(subscription_id: int) -> None:
    """Tell a subscription's owner it paused after repeated failures."""
    message = webhook_paused_message(subscription_id)
    if message:
        send_email.delay(message)
