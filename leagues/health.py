"""/healthz for load balancers, and what organisers see of the workers."""

import time

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpResponse, JsonResponse
from django.utils import timezone

from .broker import (
    heartbeat_age_seconds,
    queue_beat_age_seconds,
    queue_length,
    queue_names,
    queue_waiting_since,
    redis_client,
)
from .models import StandingsSnapshot


def healthz(request):
    """200 when the web process, the database and the broker answer; 503 with what failed otherwise."""
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as exc:  # any database error means unhealthy
        checks["database"] = f"error: {exc.__class__.__name__}"
    client = redis_client()
    if client is None:
        checks["broker"] = "in-process tasks"
    else:
        try:
            client.ping()
            checks["broker"] = "ok"
            checks["worker"] = _worker_check(heartbeat_age_seconds())
            checks.update((f"queue {queue}", _queue_check(queue)) for queue in queue_names())
        except redis.RedisError as exc:
            checks["broker"] = f"error: {exc.__class__.__name__}"
    healthy = all(v in ("ok", "in-process tasks", "no heartbeat yet") for v in checks.values())
    return JsonResponse({"status": "ok" if healthy else "unhealthy", "checks": checks}, status=200 if healthy else 503)


def _queue_check(queue: str) -> str:
    """A queue is stalled when it has had tasks waiting for QUEUE_STALLED_SECONDS and no worker started one of them
    meanwhile (its workers all stuck, or none takes it)."""
    waiting = queue_length(queue) or 0
    since = queue_waiting_since(queue, waiting > 0)
    if since is None:
        return "ok"
    started = queue_beat_age_seconds(queue)
    idle = min(time.time() - since, started if started is not None else float("inf"))
    if idle < settings.QUEUE_STALLED_SECONDS:
        return "ok"
    return f"stalled: {waiting} waiting, none started for {round(idle)} s"


def heartbeat_stale_after() -> int:
    """Seconds without a worker's heartbeat after which the workers count as stuck: beat sends the sweep
    every SWEEP_SECONDS, so a live worker beats at least that often."""
    return max(300, 5 * settings.CELERY_BEAT_SCHEDULE["standings-sweep"]["schedule"])


def _worker_check(age: int | None) -> str:
    if age is None:
        return "no heartbeat yet"  # a fresh deployment: the first sweep will beat
    return "ok" if age <= heartbeat_stale_after() else f"stale: last heartbeat {age} s ago"


def worker_status() -> dict:
    """Last recompute, last worker heartbeat and queue length, for organisers."""
    last = StandingsSnapshot.objects.order_by("-computed_at").values("computed_at", "duration_ms").first()
    status = {
        "last_recompute": last["computed_at"] if last else None,
        "last_duration_ms": last["duration_ms"] if last else None,
        "heartbeat_age_seconds": None,
        "queue_length": None,
    }
    client = redis_client()
    if client is not None:
        try:
            status["heartbeat_age_seconds"] = heartbeat_age_seconds()
            status["queue_length"] = sum(queue_length(queue) or 0 for queue in queue_names())
        except redis.RedisError:
            pass
    status["checked_at"] = timezone.now()
    return status


def ping(request):
    """Liveness only: answers without touching the database (also the benchmarks' bare Django view)."""
    return HttpResponse("ok", content_type="text/plain")
