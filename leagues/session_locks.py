"""PostgreSQL session advisory locks: held by one process for as long as a piece of work runs, released when it
ends or when the process dies (its connection closes), so a task the broker hands out twice runs once at a time.
Other databases (the embedded SQLite of `make demo`, one process) have no such lock: the work always runs."""

import zlib
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def session_lock(name: str, *, wait: bool = False) -> Iterator[bool]:
    """Try the lock called ``name``: yields True while this process holds it, False when another one does; with
    `wait`, waits for the other one to release it (always True)."""
    if connection.vendor != "postgresql":
        yield True
        return
    key = zlib.crc32(name.encode())
    with connection.cursor() as cursor:
        if wait:
            cursor.execute("SELECT pg_advisory_lock(%s), true", [key])
        else:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        held = cursor.fetchone()[-1]
    try:
        yield held
    finally:
        if held:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
