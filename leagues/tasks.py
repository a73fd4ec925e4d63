"""Thin Celery tasks: they take ids and call the recompute or a service. Bursts of results coalesce in
:mod:`leagues.broker`, which sends the recompute."""

import logging

from celery import shared_task

from . import broker
from .recompute import LockBusy, stale_event_ids, standings_recompute_event
from .services.match_cards import match_cards_auto_confirm as auto_confirm

log = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, max_retries=None)
def standings_recompute(self, event_id: int) -> None:
    broker.recompute_started(event_id)
    try:
        standings_recompute_event(event_id)
        broker.record_heartbeat()
    except LockBusy:
        # another worker is computing this event; run again after it, so the newest results are seen
        raise self.retry(countdown=0.5) from None


@shared_task
def standings_sweep() -> int:
    """Enqueue every event whose snapshot is older than its results (also a worker heartbeat)."""
    broker.record_heartbeat()
    ids = stale_event_ids()
    for event_id in ids:
        standings_recompute.delay(event_id)
    if ids:
        log.info("sweep enqueued %d stale events: %s", len(ids), ids)
    return len(ids)


@shared_task
def match_cards_auto_confirm() -> int:
    """Confirm match cards the other club left unanswered for the league's number of days."""
    return auto_confirm()
