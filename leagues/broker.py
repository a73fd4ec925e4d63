"""The message broker: its URL, the one Redis client of a process, the queue of standings recomputes
and the workers' heartbeat.

Without a broker (``CELERY_BROKER_URL`` unset) there is no Redis: tasks run in-process and the
coalescing marker and heartbeat are skipped. Writes send the recompute by its task name, so the
services never import the tasks (which call the services).
"""

import time
from collections.abc import Sequence
from functools import cache
from typing import Any

import redis
from celery import current_app
from django.conf import settings

from .redis_outage import client as guarded_client
from .redis_outage import guarded

RECOMPUTE_TASK = "leagues.tasks.standings_recompute"
PAIRING_TASK = "leagues.tasks.round_pairing_compute"
TRF_IMPORT_TASK = "leagues.tasks.trf_import_run"
PGN_IMPORT_TASK = "leagues.tasks.pgn_import_run"
WEBHOOK_FAN_OUT_TASK = "leagues.tasks.webhooks_fan_out"
WEBHOOK_DELIVERY_TASK = "leagues.tasks.webhook_deliver"
WEBHOOK_PAUSED_TASK = "leagues.tasks.webhook_paused_email"
RENDER_PASS_TASK = "leagues.tasks.event_pages_render"  # noqa: S105 - a task name
FIDE_CHECK_TASK = "leagues.tasks.event_fide_check"
EXPORT_BUILD_TASK = "leagues.tasks.export_build"
PENDING_TTL = 120  # seconds; a lost marker only delays coalescing, the sweep still catches the event
HEARTBEAT_TTL = 3600


def broker_url() -> str:
    """The URL tasks are sent to (read at call time: the end-to-end tests switch it)."""
    return current_app.conf.broker_url or ""


@cache
def _client_for(url: str) -> redis.Redis:
    # short timeouts: requests use this client after their commit; a hung Redis must not hold them
    return guarded_client(url, 0.5)


def redis_client() -> redis.Redis | None:
    """The broker's Redis, or None when tasks run in-process (or the broker is not Redis)."""
    url = broker_url()
    return _client_for(url) if url.startswith(("redis://", "rediss://")) else None


def _send(task: str, *args: Any, **options: Any) -> None:
    """Send a task; a Redis broker that failed a moment ago is not asked again (redis_outage)."""
    url = broker_url()
    if not url.startswith(("redis://", "rediss://")):
        current_app.signature(task, args=args).apply_async(**options)  # in-process (eager) or another transport
        return
    with guarded(url, errors=(Exception,)):
        current_app.signature(task, args=args).apply_async(**options)


def _pending_key(event_id: int) -> str:
    return f"chess-league:recompute-pending:{event_id}"


def enqueue_recompute(event_id: int) -> bool:
    """Send one recompute for the event unless one is already waiting in the queue. True if sent."""
    client = redis_client()
    if client is not None and not client.set(_pending_key(event_id), 1, nx=True, ex=PENDING_TTL):
        return False  # a queued recompute will read the newest results when it starts
    try:
        _send(RECOMPUTE_TASK, event_id)
    except Exception:
        if client is not None:
            client.delete(_pending_key(event_id))
        raise
    return True


def enqueue_pairing(pairing_id: int, attempt: int) -> None:
    """Send a round's pairing to a worker (the engine may take minutes: no request waits for it)."""
    _send(PAIRING_TASK, pairing_id, attempt)


def enqueue_trf_import(job_id: int) -> None:
    """Send a big TRF import to a worker (a 2,000-player file takes seconds: no request waits for it)."""
    _send(TRF_IMPORT_TASK, job_id)


def enqueue_pgn_import(job_id: int) -> None:
    """Send a big PGN file of an event to a worker (2,000 games take seconds to read: no request waits for it)."""
    _send(PGN_IMPORT_TASK, job_id)


def enqueue_fide_check(event_id: int) -> None:
    """Send the check of an event by FIDE's tools to a worker (after a recompute stored new standings)."""
    _send(FIDE_CHECK_TASK, event_id)


def enqueue_export_build(scope: str, ident: str, kind: str) -> None:
    """Send the build of an open-data download to a worker (a 2,000-player event's Chess-JSON takes seconds: no
    request builds it; leagues/services/export_cache.py)."""
    _send(EXPORT_BUILD_TASK, scope, ident, kind)


def enqueue_webhook_fan_out(event_id: int, items: Sequence[tuple[str, Any, Any]]) -> None:
    """Find the webhook subscribers of an event's occurrences, [(event type, occurrence, data), ...], in a worker
    (one message, whatever their number)."""
    _send(WEBHOOK_FAN_OUT_TASK, event_id, items)


def enqueue_webhook_delivery(delivery_id: str) -> None:
    _send(WEBHOOK_DELIVERY_TASK, delivery_id)


def enqueue_webhook_paused(subscription_id: int) -> None:
    _send(WEBHOOK_PAUSED_TASK, subscription_id)


def enqueue_render_pass(slug: str) -> None:
    """Send a worker to render the pages of an event that readers asked for (leagues.page_cache). Its priority is
    the lowest (Redis: 9 comes after every task sent without one): it runs when no recompute waits."""
    _send(RENDER_PASS_TASK, slug, priority=9)


def _rerun_key(event_id: int) -> str:
    return f"chess-league:recompute-rerun:{event_id}"


def recompute_started(event_id: int) -> None:
    """A worker holds the event's lock and is about to read its results: results saved from now on send a new
    recompute, and the reruns asked so far are answered by this one."""
    client = redis_client()
    if client is not None:
        client.delete(_pending_key(event_id), _rerun_key(event_id))


def recompute_rerun_ask(event_id: int) -> bool:
    """A recompute found another worker recomputing the event: ask that one to run again once done (it reads
    results saved since it started, recompute_rerun_asked), rather than wait for it. False without a broker (tasks
    run in-process: nothing to ask through)."""
    client = redis_client()
    if client is None:
        return False
    client.set(_rerun_key(event_id), 1, ex=PENDING_TTL)
    return True


def recompute_rerun_asked(event_id: int) -> bool:
    """Whether another worker asked for a rerun of the event since its recompute started (the request is taken)."""
    client = redis_client()
    return client is not None and bool(client.delete(_rerun_key(event_id)))


def heartbeat_key() -> str:
    """The Redis key of the workers' heartbeat (a setting, so test runs sharing a Redis never share it)."""
    return settings.WORKER_HEARTBEAT_KEY


def record_heartbeat() -> None:
    client = redis_client()
    if client is not None:
        client.set(heartbeat_key(), str(time.time()), ex=HEARTBEAT_TTL)


def heartbeat_age_seconds() -> int | None:
    """Seconds since a worker last ran a task (None without a broker or without a heartbeat)."""
    client = redis_client()
    beat = client.get(heartbeat_key()) if client is not None else None
    return round(time.time() - float(beat)) if beat else None


# Each queue's last started task (the workers write it, /healthz reads it: leagues/health.py).

#: the Redis lists of one queue: kombu keeps each priority step of a queue in a list of its own
PRIORITY_STEPS = (0, 3, 6, 9)


def _queue_beat_key(queue: str) -> str:
    return f"{heartbeat_key()}:queue:{queue}"


def queue_names() -> list[str]:
    """The queues workers take tasks from (config/celery.py)."""
    return [queue.name for queue in current_app.conf.task_queues or ()]


def record_queue_beat(queue: str) -> None:
    client = redis_client()
    if client is not None:
        client.set(_queue_beat_key(queue), str(time.time()), ex=HEARTBEAT_TTL)


def queue_beat_age_seconds(queue: str) -> float | None:
    """Seconds since a worker last started a task of `queue` (None if none did for an hour, or without a broker)."""
    client = redis_client()
    beat = client.get(_queue_beat_key(queue)) if client is not None else None
    return time.time() - float(beat) if beat else None


def queue_length(queue: str) -> int | None:
    """Tasks waiting in `queue`, every priority (None without a broker)."""
    client = redis_client()
    if client is None:
        return None
    return sum(client.llen(queue if step == 0 else f"{queue}\x06\x16{step}") for step in PRIORITY_STEPS)


def recompute_waiting() -> bool:
    """Whether a task waits in the recompute queue at the default priority (a recompute, the sweep): a render pass,
    sent at priority 9, yields to it (leagues/page_cache/worker.py). One Redis call; False without a broker."""
    client = redis_client()
    if client is None:
        return False
    route = (current_app.conf.task_routes or {}).get(RECOMPUTE_TASK) or {}
    return bool(client.llen(route.get("queue", current_app.conf.task_default_queue)))


def queue_waiting_since(queue: str, waiting: bool) -> float | None:
    """When the queue was first seen with tasks waiting, as long as it keeps some (None when it has none)."""
    client = redis_client()
    if client is None:
        return None
    key = f"{heartbeat_key()}:queue-waiting:{queue}"
    if not waiting:
        client.delete(key)
        return None
    client.set(key, str(time.time()), nx=True, ex=HEARTBEAT_TTL)
    since = client.get(key)
    return float(since) if since else None


# At most WEBHOOKS_CONCURRENCY_PER_SUBSCRIPTION deliveries to one subscription at a time, across every worker: a
# slow receiver holds that many worker processes, never all of them.

_TAKE_SLOT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[3]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


def _slots_key(subscription_id: int) -> str:
    return f"{heartbeat_key()}:webhook-deliveries:{subscription_id}"


def webhook_slot_take(subscription_id: int, delivery_id: str, *, limit: int, hold_seconds: int) -> bool:
    """One of the subscription's `limit` delivery slots for `delivery_id`, held at most `hold_seconds` (a worker
    killed mid-delivery frees it then); False when they are all taken. Always True without a broker."""
    client = redis_client()
    if client is None:
        return True
    taken = client.eval(_TAKE_SLOT, 1, _slots_key(subscription_id), time.time(), delivery_id, hold_seconds, limit)
    return bool(taken)


def webhook_slot_free(subscription_id: int, delivery_id: str) -> None:
    client = redis_client()
    if client is not None:
        client.zrem(_slots_key(subscription_id), delivery_id)
