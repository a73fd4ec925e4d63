"""Webhooks end to end: a real worker delivers to real receiver processes over HTTP."""

import json
import tempfile
import time
from pathlib import Path

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import Game, WebhookDelivery, WebhookSubscription
from tests.conftest import redis_database, require
from tests.e2e.worker import broker_for_this_process, celery_worker, redis_answers, wait_until
from tests.factories import organiser_of, swiss_event
from tests.webhooks import receiver, signature_is_valid

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
BROKER = redis_database(5)  # a queue of its own: no other test's worker takes these tasks


@pytest.fixture
def worker(on_postgres):
    require(redis_answers(BROKER), f"Redis does not answer at {BROKER}")
    env = {"WEBHOOKS_RETRY_SECONDS": "1", "WEBHOOKS_PAUSE_AFTER_FAILURES": "50"}
    log = Path(tempfile.gettempdir()) / "e2e-webhooks-worker.log"
    with (
        celery_worker(BROKER, name="webhooks", concurrency=2, log_path=log, env_extra=env) as process,
        broker_for_this_process(BROKER),
    ):
        yield process


def subscribe(client, url, event, events=("result.recorded",)):
    answer = client.post("/api/v1/webhooks/", {"url": url, "events": list(events), "event": event.slug}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_a_round_sheet_result_reaches_the_receiver_signed_once_retries_on_500_and_skips_paused(
    worker, client, tmp_path
):
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    api = APIClient()
    api.force_login(organiser)
    with (
        receiver(tmp_path, 200, name="ok") as ok,
        receiver(tmp_path, 500, name="failing") as failing,
        receiver(tmp_path, 200, name="paused") as paused,
    ):
        good = subscribe(api, ok.url, event)
        subscribe(api, failing.url, event)
        stopped = subscribe(api, paused.url, event)
        WebhookSubscription.objects.filter(pk=stopped["id"]).update(paused_at=timezone.now())

        client.force_login(organiser)
        sheet = client.post(
            f"/en/manage/events/{event.slug}/rounds/1/",
            {
                "reason": "",
                f"result_{games[0].pk}": "1-0",
                f"version_{games[0].pk}": 0,
                f"result_{games[1].pk}": "",
                f"version_{games[1].pk}": 0,
            },
        )
        assert sheet.status_code in (200, 302), sheet.content.decode()[-1500:]
        assert Game.objects.get(pk=games[0].pk).result == "1-0"

        assert wait_until(lambda: ok.received(), timeout=30), "the receiver got nothing"
        assert wait_until(lambda: len(failing.received()) >= 3, timeout=30), "no retries after 500"
        time.sleep(2)  # anything more that would arrive, arrives now

        requests = ok.received()
        assert len({r["headers"]["X-Chess-League-Delivery"] for r in requests}) == 1
        first = requests[0]
        body = json.loads(first["body"])
        assert signature_is_valid(good["secret"], first)
        assert not signature_is_valid("whsec_wrong", first)
        assert first["headers"]["X-Chess-League-Event"] == body["type"] == "result.recorded"
        assert first["headers"]["X-Chess-League-Delivery"] == body["id"]
        assert body["data"]["game"] == games[0].pk and body["data"]["result"] == "1-0"
        assert body["data"]["event"] == event.slug

        retried = failing.received()
        assert len({r["headers"]["X-Chess-League-Delivery"] for r in retried}) == 1  # the same delivery
        assert len({r["body"] for r in retried}) == 1
        assert paused.received() == []

    log = api.get(f"/api/v1/webhooks/{good['id']}/deliveries/").json()["results"]
    assert [(d["event_type"], d["status"], d["response_code"]) for d in log] == [("result.recorded", "delivered", 200)]
    failing_log = WebhookDelivery.objects.get(subscription__url=failing.url)
    assert failing_log.status == "failed" and failing_log.response_code == 500 and failing_log.attempts >= 3


def test_the_test_event_and_a_new_snapshot_reach_the_receiver(worker, tmp_path):
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    api = APIClient()
    api.force_login(organiser)
    with receiver(tmp_path, 200) as ok:
        hook = subscribe(api, ok.url, event, events=("standings.updated",))
        assert api.post(f"/api/v1/webhooks/{hook['id']}/test/").status_code == 202
        assert wait_until(lambda: ok.received(), timeout=30)
        assert json.loads(ok.received()[0]["body"])["type"] == "test"

        api.post(f"/api/v1/games/{games[1].pk}/result/", {"result": "0-1"}, format="json")
        standings = wait_until(
            lambda: [r for r in ok.received() if r["headers"]["X-Chess-League-Event"] == "standings.updated"],
            timeout=30,
        )
        assert standings, "no standings.updated delivery"
        data = json.loads(standings[0]["body"])["data"]
        assert data["version"] == 1 and data["url"].endswith(f"/api/v1/events/{event.slug}/standings/")
