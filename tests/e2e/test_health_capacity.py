"""Health checks never wait behind heavy pages: gunicorn with the production serving config
(config/gunicorn.py) on PostgreSQL answers /ping and /healthz while eight uncached crosstables of a
400-player event hold eight of its threads. The figures are in tests/bench/bench_health.py."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from leagues.models import League, StandingsSnapshot
from leagues.services.trf import event_import_trf
from tests.e2e.worker import database_url, wait_until
from tests.serving import BIG_TRF, PRODUCTION, first_players, get, gunicorn, site_env

# real commits: the gunicorn processes read the imported event through their own connections
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HEAVY = 8


def _crosstables_waiting_on_the_lock() -> int:
    """Server-side: how many of the site's database sessions wait for the lock this test holds on the snapshots."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE relation = %s::regclass AND NOT granted",
            [StandingsSnapshot._meta.db_table],
        )
        return cursor.fetchone()[0]


def test_ping_and_healthz_answer_while_eight_uncached_400_player_crosstables_render(on_postgres):
    """The eight crosstables are held in the server by a lock on the standings snapshots (every crosstable reads
    them; /ping and /healthz do not): the probes are asked only once PostgreSQL shows all eight waiting, so they
    are answered while the eight occupy their threads, however fast or slow the machine is; then the lock goes
    and the eight are rendered in full."""
    league = League.objects.create(name="Big open", slug="big-open")
    organiser = get_user_model().objects.create_superuser("big-organiser", password="not-used-x1")
    data = first_players(BIG_TRF.read_bytes(), 400)
    event = event_import_trf(league=league, name="Big open", slug="big-open", data=data, user=organiser)
    assert event.entries.count() == 400

    with gunicorn(site_env(database_url()), PRODUCTION) as base:
        crosstable = f"{base}/en/events/{event.slug}/crosstable/"
        heavy: list[int | str] = []

        def render():
            try:
                heavy.append(get(crosstable, timeout=300))
            except OSError as exc:
                heavy.append(f"error: {exc}")

        threads = [threading.Thread(target=render, daemon=True) for _ in range(HEAVY)]
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {StandingsSnapshot._meta.db_table} IN ACCESS EXCLUSIVE MODE")
            for thread in threads:
                thread.start()
            waiting = wait_until(lambda: _crosstables_waiting_on_the_lock() == HEAVY, timeout=120)
            assert waiting, f"only {_crosstables_waiting_on_the_lock()} of {HEAVY} crosstables reached the server"
            # all eight are in the server's threads, and none can finish before the lock goes
            assert get(f"{base}/ping", timeout=60) == 200
            assert get(f"{base}/healthz", timeout=60) == 200
            assert heavy == [] and _crosstables_waiting_on_the_lock() == HEAVY
        for thread in threads:
            thread.join(300)
    assert heavy == [200] * HEAVY
