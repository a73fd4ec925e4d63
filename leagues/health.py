"""/healthz for load balancers, and what organisers see of the workers."""

import time

import redis
from django.db import connection
from django.http import JsonResponse
from django.utils import timezone

from .models import StandingsSnapshot
from .tasks import standings_recompute

HEARTBEAT_KEY = "chess-league:worker-heartbeat"


def _broker():
    url = standings_recompute.app.conf.broker_url or ""
    if not url.startswith(("redis://", "rediss://")):
        return None
    return redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)


def healthz(request):
    """200 when the web process, the database and the broker answer; 503 with what failed otherwise."""
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as exc:  # any database error means unhealthy
        checks["database"] = f"error: {exc.__class__.__name__}"
    client = _broker()
    if client is None:
        checks["broker"] = "in-process tasks"
    else:
        try:
            client.ping()
            checks["broker"] = "ok"
        except redis.RedisError as exc:
            checks["broker"] = f"error: {exc.__class__.__name__}"
    healthy = all(v == "ok" or v == "in-process tasks" for v in checks.values())
    return JsonResponse({"status": "ok" if healthy else "unhealthy", "checks": checks}, status=200 if healthy else 503)


def record_heartbeat() -> None:
    client = _broker()
    if client is not None:
        client.set(HEARTBEAT_KEY, str(time.time()), ex=3600)


def worker_status() -> dict:
    """Last recompute, last worker heartbeat and queue length, for organisers."""
    last = StandingsSnapshot.objects.order_by("-computed_at").values("computed_at", "duration_ms").first()
    status = {
        "last_recompute": last["computed_at"] if last else None,
        "last_duration_ms": last["duration_ms"] if last else None,
        "heartbeat_age_seconds": None,
        "queue_length": None,
    }
    client = _broker()
    if client is not None:
        try:
            beat = client.get(HEARTBEAT_KEY)
            status["heartbeat_age_seconds"] = round(time.time() - float(beat)) if beat else None
            status["queue_length"] = client.llen("celery")
        except redis.RedisError:
            pass
    status["checked_at"] = timezone.now()
    return status


def ping(request):
    """Liveness only: answers without touching the database (also the benchmarks' bare Django view)."""
    from django.http import HttpResponse

    return HttpResponse("ok", content_type="text/plain")
