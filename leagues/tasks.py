"""Thin Celery tasks: they take ids and call the recompute. Bursts of results coalesce here."""

import logging

import redis
from celery import shared_task

from .recompute import LockBusy, stale_event_ids, standings_recompute_event

log = logging.getLogger(__name__)
PENDING_TTL = 120  # seconds; a lost marker only delays coalescing, the sweep still catches the event


def _pending_key(event_id: int) -> str:
    return f"chess-league:recompute-pending:{event_id}"


def _redis():
    url = standings_recompute.app.conf.broker_url or ""
    return redis.Redis.from_url(url, socket_timeout=2) if url.startswith(("redis://", "rediss://")) else None


def enqueue_recompute(event_id: int) -> bool:
    """Send one recompute for the event unless one is already waiting in the queue. True if sent."""
    client = _redis()
    if client is not None and not client.set(_pending_key(event_id), 1, nx=True, ex=PENDING_TTL):
        return False  # a queued recompute will read the newest results when it starts
    try:
        standings_recompute.delay(event_id)
    except Exception:
        if client is not None:
            client.delete(_pending_key(event_id))
        raise
    return True


@shared_task(bind=True, acks_late=True, max_retries=None)
def standings_recompute(self, event_id: int) -> None:
    client = _redis()
    if client is not None:
        client.delete(_pending_key(event_id))  # results saved from now on send a new recompute
    try:
        standings_recompute_event(event_id)
        from .health import record_heartbeat

        record_heartbeat()
    except LockBusy:
        # another worker is computing this event; run again after it, so the newest results are seen
        raise self.retry(countdown=0.5) from None


@shared_task
def standings_sweep() -> int:
    """Enqueue every event whose snapshot is older than its results (also a worker heartbeat)."""
    from .health import record_heartbeat

    record_heartbeat()
    ids = stale_event_ids()
    for event_id in ids:
        standings_recompute.delay(event_id)
    if ids:
        log.info("sweep enqueued %d stale events: %s", len(ids), ids)
    return len(ids)


@shared_task
def match_cards_auto_confirm() -> int:
    """Confirm match cards the other club left unanswered for the league's number of days."""
    from .entry_services import match_cards_auto_confirm as confirm

    return confirm()
