"""Thin Celery tasks: they take ids and call the recompute."""

import logging

from celery import shared_task

from .recompute import LockBusy, stale_event_ids, standings_recompute_event

log = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, max_retries=20, default_retry_delay=1)
def standings_recompute(self, event_id: int) -> None:
    try:
        standings_recompute_event(event_id)
    except LockBusy as exc:
        # another worker is computing this event; run again after it, so the newest results are seen
        raise self.retry(exc=exc, countdown=1) from None


@shared_task
def standings_sweep() -> int:
    """Enqueue every event whose snapshot is older than its results."""
    ids = stale_event_ids()
    for event_id in ids:
        standings_recompute.delay(event_id)
    if ids:
        log.info("sweep enqueued %d stale events: %s", len(ids), ids)
    return len(ids)
