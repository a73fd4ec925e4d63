"""A Redis that does not answer costs a process one timeout, then is skipped for a few seconds.

Requests use Redis for the page cache, the throttles and, after their commit, the broker. With Redis hung
each call waits out its half-second timeout, and one result entered makes several calls. So after a
timeout or a refused connection the process skips that Redis (pages render, throttles let requests
through, tasks are left for the sweep) for SKIP_SECONDS, then asks it again.
"""

import time
from contextlib import contextmanager

import redis

SKIP_SECONDS = 5.0
_skipped_until: dict[str, float] = {}  # Redis address -> monotonic time to ask it again


class RedisSkipped(redis.ConnectionError):
    """Not asked: this Redis did not answer a moment ago."""


@contextmanager
def guarded(address: str, errors: tuple[type[BaseException], ...] = (redis.ConnectionError, redis.TimeoutError)):
    """Raise RedisSkipped at once while `address` is skipped; an error in `errors` starts skipping it."""
    if time.monotonic() < _skipped_until.get(address, 0.0):
        raise RedisSkipped(f"Redis at {address.rsplit('@', 1)[-1]} did not answer a moment ago; not asked")
    try:
        yield
    except errors:
        _skipped_until[address] = time.monotonic() + SKIP_SECONDS
        raise


class GuardedRedis(redis.Redis):
    """A Redis client whose commands go through `guarded` (pipelines: wrap their execute())."""

    outage_address: str

    def execute_command(self, *args, **options):
        with guarded(self.outage_address):
            return super().execute_command(*args, **options)


def client(url: str, timeout: float) -> GuardedRedis:
    connection = GuardedRedis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    if not isinstance(connection, GuardedRedis):
        raise RuntimeError("from_url builds the class it is called on (typed as Redis)")
    connection.outage_address = url
    return connection
