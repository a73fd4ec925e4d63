"""A delivery has one deadline for all of it: a receiver that answers a byte every 4 seconds (never 5 s without a
byte, so no single read times out) is cut at WEBHOOKS_TIMEOUT_SECONDS, the delivery recorded as failed, and the
worker goes on to the next delivery (tasks run in-process here: the test's own process is the worker)."""

import pytest
from rest_framework.test import APIClient

from leagues.models import WebhookDelivery
from tests.factories import organiser_of, swiss_event
from tests.webhooks import receiver

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def test_a_receiver_trickling_a_byte_every_4_seconds_is_cut_at_the_deadline_and_the_worker_goes_on(tmp_path):
    event, _entries, _games = swiss_event(players=4)
    api = APIClient()
    api.force_login(organiser_of(event.league))
    with receiver(tmp_path, trickle=4, name="trickling") as slow, receiver(tmp_path, name="ok") as ok:
        hooks = [
            api.post(
                "/api/v1/webhooks/",
                {"url": hook.url, "events": ["result.recorded"], "event": event.slug},
                format="json",
            ).json()
            for hook in (slow, ok)
        ]
        for hook in hooks:
            assert api.post(f"/api/v1/webhooks/{hook['id']}/test/").status_code == 202  # delivered in this process
        assert len(slow.received()) == 1  # it was sent ...
        assert len(ok.received()) == 1  # ... and the next delivery went out after it was cut
    cut = WebhookDelivery.objects.get(subscription_id=hooks[0]["id"])
    assert (cut.status, cut.response_code, cut.attempts) == ("failed", None, 1)
    assert cut.error == "timed out: no answer within 5 s"
    answered = api.get(f"/api/v1/webhooks/{hooks[0]['id']}/deliveries/").json()["results"]
    assert [(d["status"], d["error"]) for d in answered] == [("failed", "timed out: no answer within 5 s")]
    assert WebhookDelivery.objects.get(subscription_id=hooks[1]["id"]).status == "delivered"
