"""End to end: a heavy page is rendered again by a worker after a change, its readers getting the page as it was
meanwhile; with no worker alive, the web process renders it for the reader at once.

gunicorn and a Celery worker share PostgreSQL and Redis. PAGE_HEAVY_RENDER_MS=1 makes every page heavy.
"""

import os
import signal
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
import redis
from django.conf import settings

from leagues import broker, page_cache
from leagues.models import Result, StandingsSnapshot
from leagues.services.results import result_record
from tests.conftest import require
from tests.e2e.worker import (
    TEST_BROKER,
    broker_for_this_process,
    celery_worker,
    database_url,
    redis_answers,
    wait_until,
)
from tests.factories import organiser_of, swiss_event
from tests.serving import PRODUCTION, gunicorn, site_env

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _read(url: str) -> tuple[str, str]:
    """(ETag, page) of an anonymous reader's request."""
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.headers["ETag"], answer.read().decode()


@pytest.fixture
def site(on_postgres, tmp_path):
    require(redis_answers(TEST_BROKER), f"Redis does not answer at {TEST_BROKER}")
    redis.Redis.from_url(TEST_BROKER).flushdb()
    cache = settings.CACHES["default"]
    require(bool(cache.get("LOCATION")), "the tests' page cache is not Redis")
    env = site_env(database_url()) | {
        "CELERY_BROKER_URL": TEST_BROKER,
        "CACHE_URL": cache["LOCATION"],
        "CACHE_KEY_PREFIX": cache.get("KEY_PREFIX") or "",
        "PAGE_HEAVY_RENDER_MS": "1",
        "PAGE_STAMP_SECONDS": "0",
        "WEB_CONCURRENCY": "1",
        "LOG_LEVEL": "INFO",
    }
    log = Path(tempfile.gettempdir()) / "e2e-render-worker.log"
    log.unlink(missing_ok=True)
    with (
        gunicorn(env, PRODUCTION) as base,
        celery_worker(TEST_BROKER, log_path=log, env_extra=env) as worker,
        broker_for_this_process(TEST_BROKER),
    ):
        yield base, log, worker


def test_a_heavy_page_is_rendered_by_the_worker_while_its_readers_get_it_as_it_was(site):
    base, log, worker = site
    event, entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    url = f"{base}/en/events/{event.slug}/"
    before, page_before = _read(url)
    assert _read(url)[0] == before  # kept

    # a result: the worker stores the new standings (and has run a task: it is alive)
    result_record(game_id=games[1].pk, result=Result.BLACK_WINS, user=organiser)
    assert wait_until(lambda: StandingsSnapshot.objects.filter(event=event, version=1).exists(), timeout=30)
    assert wait_until(lambda: broker.heartbeat_age_seconds() is not None, timeout=10)

    # the first reader after the change gets the page as it was, at once, and asks the worker for the new one
    assert _read(url) == (before, page_before)
    etag, page = wait_until(lambda: (answer := _read(url))[0] != before and answer, timeout=30)
    winner, loser = entries[3].player.name, entries[1].player.name  # start number 4 beat number 2 with black
    assert page.index(winner) < page.index(loser) and "Being updated" not in page
    # the pass logs itself once all its pages are stored: a reader may see the page before that line is written
    assert wait_until(lambda: f"render pass event={event.slug}" in log.read_text(), timeout=10)
    assert _read(url)[0] == etag  # kept again

    # the worker is gone, its last task long ago: the web process renders the page for its reader at once
    first, third = entries[0].player.name, entries[2].player.name
    assert page.index(first) < page.index(third)
    result_record(game_id=games[0].pk, result=Result.BLACK_WINS, user=organiser)  # number 3 beats number 1
    assert wait_until(lambda: StandingsSnapshot.objects.filter(event=event, version=2).exists(), timeout=30)
    # and has given its pages their new stamp (killed between its commit and that, its pages would keep the stamp of
    # the result, and a page a render pass stored under that stamp meanwhile: the sweep of a live worker renews them)
    assert wait_until(lambda: page_cache._store().get(page_cache._shown_key(event.slug)) == 2, timeout=30)
    os.killpg(worker.pid, signal.SIGTERM)
    worker.wait(timeout=30)
    redis.Redis.from_url(TEST_BROKER).set(broker.heartbeat_key(), str(time.time() - 3600))
    wait_until(lambda: False, timeout=1.2)  # the web process asks for the heartbeat once a second
    now, page = _read(url)
    assert now != etag and page.index(third) < page.index(first)
