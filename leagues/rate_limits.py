"""Counting a client's requests across every process and host: the login throttle and the API throttles.

Counters live in the shared cache's Redis (in process memory when the site runs without Redis, as the
demo does). A counter starts with its first hit and lasts `window` seconds. When Redis does not answer
the counter fails open: `hit` returns None, the caller lets the request through and a warning is logged.
"""

import logging
import time
from functools import cache

import redis
from django.conf import settings

from . import redis_outage

log = logging.getLogger(__name__)
TIMEOUT = 0.5  # seconds: a hung Redis must not hold a request


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or with NUM_PROXIES proxies in front, the address the
    outermost of them saw (the entry they appended to X-Forwarded-For; what a client wrote is ignored)."""
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = settings.NUM_PROXIES
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    if not proxies or not forwarded:
        return remote
    return forwarded[-min(proxies, len(forwarded))][:64]


@cache
def _redis(location: str) -> redis.Redis:
    return redis_outage.client(location, TIMEOUT)


def _shared():
    """(Redis client, key prefix), or (None, None) when the cache is not Redis."""
    options = settings.CACHES["default"]
    if not options["BACKEND"].endswith("RedisCache"):
        return None, None
    return _redis(options["LOCATION"]), f"{options.get('KEY_PREFIX', '')}:limits"


_memory: dict[str, tuple[int, float]] = {}  # without Redis: key -> (count, expiry)


def hit(key: str, window: int) -> tuple[int, int] | None:
    """Count one hit on `key`: (hits in the current window, seconds until it ends), or None (fail open)."""
    client, prefix = _shared()
    if client is None:
        now = time.monotonic()
        count, until = _memory.get(key, (0, now + window))
        if until <= now:
            count, until = 0, now + window
        _memory[key] = (count + 1, until)
        return count + 1, max(1, round(until - now))
    name = f"{prefix}:{key}"
    try:
        pipe = client.pipeline(transaction=False)
        pipe.set(name, 0, ex=window, nx=True)
        pipe.incr(name)
        pipe.ttl(name)
        with redis_outage.guarded(client.outage_address):
            _created, count, ttl = pipe.execute()
    except redis.RedisError:
        log.warning("rate limit counter unreachable; %s let through", key.split(":")[0], exc_info=True)
        return None
    return int(count), max(1, int(ttl))


def hits(key: str) -> int | None:
    """Hits on `key` in its current window (0 if none), or None when the counter does not answer."""
    client, prefix = _shared()
    if client is None:
        count, until = _memory.get(key, (0, 0.0))
        return count if until > time.monotonic() else 0
    try:
        value = client.get(f"{prefix}:{key}")
    except redis.RedisError:
        log.warning("rate limit counter unreachable; %s let through", key.split(":")[0], exc_info=True)
        return None
    return int(value or 0)


def reset(key: str) -> None:
    client, prefix = _shared()
    if client is None:
        _memory.pop(key, None)
        return
    try:
        client.delete(f"{prefix}:{key}")
    except redis.RedisError:
        log.warning("rate limit counter unreachable; %s not reset", key.split(":")[0], exc_info=True)
