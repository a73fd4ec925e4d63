"""/healthz names a queue whose tasks wait while no worker starts any of them (here: no worker at all takes the
webhooks queue), and says the others are fine."""

import pytest
import redis
from django.test import override_settings

from leagues import broker
from tests.conftest import redis_database, require
from tests.e2e.worker import broker_for_this_process, redis_answers

pytestmark = pytest.mark.django_db
BROKER = redis_database(8)  # a broker of its own: no worker anywhere takes its tasks


@override_settings(QUEUE_STALLED_SECONDS=0)
def test_healthz_reports_a_stalled_queue(client):
    require(redis_answers(BROKER), f"Redis does not answer at {BROKER}")
    redis.Redis.from_url(BROKER).flushdb()
    with broker_for_this_process(BROKER):
        broker.enqueue_webhook_delivery("5d0c0000-0000-4000-8000-000000000000")
        answer = client.get("/healthz")
    redis.Redis.from_url(BROKER).flushdb()
    checks = answer.json()["checks"]
    assert answer.status_code == 503 and answer.json()["status"] == "unhealthy"
    assert checks["queue webhooks"].startswith("stalled: 1 waiting, none started for ")
    assert checks["queue recompute"] == checks["queue email"] == checks["queue pairing"] == "ok"
