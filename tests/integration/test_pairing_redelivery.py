"""A big round takes longer to pair than the broker's visibility timeout, so the broker hands the same pairing
out again while a worker still computes it: the second delivery leaves it to the first, and a pairing whose worker
died (its connection, and so its lock, gone) is computed by the next delivery."""

import time
import zlib

import pytest
from django.db import connection, connections

from leagues.models import RoundPairing
from leagues.services.round_pairings import pairing_compute, round_pair
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of

pytestmark = pytest.mark.django_db


def _lock_key(pairing):
    return zlib.crc32(f"pairing:{pairing.pk}:{pairing.attempt}".encode())  # the attempt's (paired again: computed)


def _wait_until_released(key, seconds=30):
    """The server ends a closed session's backend (and drops its locks) a moment after the client goes."""
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database "
                "WHERE l.locktype = 'advisory' AND l.objid = %s AND d.datname = current_database()",
                [key],
            )
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)
    raise AssertionError("the closed session still holds its lock")


def _queued_pairing():
    event = EventFactory(rounds_count=5)
    for n in range(1, 7):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2400 - 10 * n)
    pairing = round_pair(event=event, round_number=1, user=organiser_of(event.league))  # no commit: not sent
    assert pairing.status == RoundPairing.Status.QUEUED
    return pairing


def test_a_pairing_delivered_again_while_it_is_computed_is_left_to_the_worker_computing_it():
    pairing = _queued_pairing()
    first_worker = connections.create_connection("default")  # another process's database session
    with first_worker.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [_lock_key(pairing)])
    try:
        pairing_compute(pairing_id=pairing.pk, attempt=pairing.attempt)  # the second delivery
        pairing.refresh_from_db()
        assert pairing.status == RoundPairing.Status.QUEUED and pairing.boards == []
    finally:
        first_worker.close()  # the first worker dies: its lock goes with its connection
    _wait_until_released(_lock_key(pairing))

    pairing_compute(pairing_id=pairing.pk, attempt=pairing.attempt)  # delivered once more
    pairing.refresh_from_db()
    assert pairing.status == RoundPairing.Status.READY and len(pairing.boards) == 3
