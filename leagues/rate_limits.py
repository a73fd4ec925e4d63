"""Counting a client's requests across every process and host: the login throttle and the API throttles.

Counters live in the shared cache's Redis (in process memory when the site runs without Redis, as the
demo does). A counter starts with its first hit and lasts `window` seconds. When Redis does not answer
the counter fails open: `hit` and `take` return None, the caller lets the request through and a warning is
logged.

The API's limits (`take`) let a web process count a busy client's next requests ahead, in the same round trip
as the one it is answering (settings API_COUNT_AHEAD): the requests it then answers from what it counted ask
Redis nothing, as a cached page asks nothing. Whatever a process answers is counted in Redis first, so no client
is answered more than its limit in a window, across every process and host; what a process counted and was not
asked for (the client went to another process) is at most API_COUNT_AHEAD - 1 requests per thread of that
process, and near the limit it counts ahead a sixteenth of what is left, so such a client is refused a few
requests early at most.
"""

import logging
import threading
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
    with _ahead_lock:
        _ahead.pop(key, None)
    client, prefix = _shared()
    if client is None:
        _memory.pop(key, None)
        return
    try:
        client.delete(f"{prefix}:{key}")
    except redis.RedisError:
        log.warning("rate limit counter unreachable; %s not reset", key.split(":")[0], exc_info=True)


class _Ahead:
    """Requests of one client this process has counted in Redis and not answered yet."""

    __slots__ = ("count", "left", "limit", "until", "want")

    def __init__(self, count: int, left: int, limit: int, until: float, want: int):
        self.count, self.left, self.limit, self.until, self.want = count, left, limit, until, want


_ahead: dict[str, _Ahead] = {}  # key -> what this process counted ahead for it, in its current window
_ahead_lock = threading.Lock()  # a web process answers several requests at once (gthread)
AHEAD_KEYS = 10_000


def take(key: str, limit: int, window: int) -> tuple[bool, int, int] | None:
    """One request on `key`, allowed `limit` requests per `window` seconds: (allowed, requests left, seconds until
    the window ends), or None (fail open). The first request of a window in this process counts one; each time the
    counted-ahead requests are used up the next round trip counts twice as many, up to API_COUNT_AHEAD and a
    sixteenth of what the client has left."""
    client, prefix = _shared()
    if client is None or settings.API_COUNT_AHEAD <= 1:
        counted = hit(key, window)
        return None if counted is None else (counted[0] <= limit, max(0, limit - counted[0]), counted[1])
    now = time.monotonic()
    with _ahead_lock:
        ahead = _ahead.get(key)
        if ahead is not None and (ahead.until <= now or ahead.limit != limit):
            ahead = None
        if ahead is not None and ahead.left > 0:
            ahead.left -= 1
            return True, max(0, limit - ahead.count) + ahead.left, max(1, round(ahead.until - now))
    want = 1 if ahead is None else min(2 * ahead.want, settings.API_COUNT_AHEAD, max(1, (limit - ahead.count) // 16))
    name = f"{prefix}:{key}"
    try:
        pipe = client.pipeline(transaction=False)
        pipe.set(name, 0, ex=window, nx=True)
        pipe.incrby(name, want)
        pipe.pttl(name)
        with redis_outage.guarded(client.outage_address):
            _created, count, pttl = pipe.execute()
    except redis.RedisError:
        log.warning("rate limit counter unreachable; %s let through", key.split(":")[0], exc_info=True)
        return None
    count, seconds = int(count), max(1, int(pttl)) / 1000
    granted = max(0, min(want, limit - (count - want)))  # of the `want` counted, those within the limit
    left = max(0, granted - 1)
    with _ahead_lock:
        if len(_ahead) >= AHEAD_KEYS:
            _forget_ended(now)
        other = _ahead.get(key)  # another thread's round trip for the same client meanwhile: keep its requests too
        if other is not None and other.limit == limit and other.until > now:
            left += other.left
            other.left = 0
        _ahead[key] = _Ahead(max(count, other.count if other else 0), left, limit, now + seconds, want)
    return granted > 0, max(0, limit - count) + left, max(1, round(seconds))


def _forget_ended(now: float) -> None:
    """Make room: drop the windows that ended, or the oldest half when none has."""
    ended = [key for key, ahead in _ahead.items() if ahead.until <= now]
    for key in ended or list(_ahead)[: AHEAD_KEYS // 2]:
        del _ahead[key]
