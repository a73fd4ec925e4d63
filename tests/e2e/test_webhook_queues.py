"""A slow webhook receiver holds only its own deliveries: with a real worker (taking every queue, as `make worker`
does), a result in another league reaches its standings while a receiver trickling a byte every 4 seconds is being
delivered to."""

import tempfile
import time
from pathlib import Path

import pytest
import redis
from rest_framework.test import APIClient

from config.celery import app as celery_app
from leagues.broker import queue_names
from leagues.models import Game, StandingsSnapshot, WebhookDelivery
from tests.conftest import redis_database, require
from tests.e2e.worker import broker_for_this_process, celery_worker, redis_answers, wait_until
from tests.factories import organiser_of, swiss_event
from tests.webhooks import receiver

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
BROKER = redis_database(4)  # a broker of its own: no other test's worker takes these tasks


@pytest.fixture
def worker(on_postgres):
    require(redis_answers(BROKER), f"Redis does not answer at {BROKER}")
    redis.Redis.from_url(BROKER).flushdb()
    env = {
        "WEBHOOKS_RETRY_SECONDS": "1",
        "WEBHOOKS_PAUSE_AFTER_FAILURES": "50",
        "WEBHOOKS_CONCURRENCY_PER_SUBSCRIPTION": "1",
    }
    log = Path(tempfile.gettempdir()) / "e2e-webhook-queues-worker.log"
    with (
        celery_worker(BROKER, name="queues", concurrency=2, log_path=log, env_extra=env) as process,
        broker_for_this_process(BROKER),
    ):
        yield process


def test_the_worker_takes_every_queue(worker):
    replies = celery_app.control.inspect(timeout=2).active_queues() or {}
    taken = {queue["name"] for queues in replies.values() for queue in queues}
    assert taken == set(queue_names()) >= {"recompute", "pairing", "email", "webhooks"}


def logged_in(user) -> APIClient:
    api = APIClient()
    api.force_login(user)
    return api


def test_a_result_in_another_league_is_visible_while_a_trickling_receiver_is_delivered_to(worker, tmp_path):
    followed, _entries, games = swiss_event(players=8)
    other, _other_entries, other_games = swiss_event(players=4)
    assert followed.league_id != other.league_id
    organiser = organiser_of(followed.league)
    api = logged_in(organiser)
    with receiver(tmp_path, trickle=4, name="trickling") as slow:
        hook = api.post(
            "/api/v1/webhooks/", {"url": slow.url, "events": ["result.recorded"], "event": followed.slug}, format="json"
        )
        assert hook.status_code == 201
        for game in games:  # four deliveries to the trickling receiver: more than the worker's two processes
            assert api.post(f"/api/v1/games/{game.pk}/result/", {"result": "1-0"}, format="json").status_code == 200
        assert wait_until(lambda: slow.received(), timeout=30), "the trickling receiver got nothing"

        answer = logged_in(organiser_of(other.league)).post(
            f"/api/v1/games/{other_games[0].pk}/result/", {"result": "0-1"}, format="json"
        )
        assert answer.status_code == 200
        sent = time.monotonic()
        visible = wait_until(lambda: StandingsSnapshot.objects.filter(event=other, version=1).exists(), timeout=60)
        assert visible, "the other league's standings waited behind the trickling receiver"
        # reported, never asserted (machine load moves it): the figure issue #35 asks for
        print(f"\nthe other league's result was in its standings {time.monotonic() - sent:.2f} s after it was entered")
        assert not WebhookDelivery.objects.filter(subscription_id=hook.json()["id"], status="delivered").exists()
    assert Game.objects.get(pk=other_games[0].pk).result == "0-1"
