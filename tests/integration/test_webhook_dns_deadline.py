"""Issue 35: looking up a webhook receiver's name counts in the delivery's deadline. A name server that answers
only after the deadline (a real UDP name server in a thread of the test, WEBHOOKS_DNS_SERVERS) no longer holds a
delivery past it: the delivery is recorded as timed out while the server still holds its answer, and the worker
goes on. With the same server answering at once, the same subscription is delivered (the name is really looked
up there)."""

import socket
import threading

import dns.message
import dns.rrset
import pytest
from rest_framework.test import APIClient

from leagues.models import WebhookDelivery
from tests.factories import organiser_of, swiss_event
from tests.webhooks import receiver

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

NAME = "hooks.chess-league.test"


class NameServer:
    """Answers A queries for every name with 127.0.0.1 (AAAA: no record); while `slow` is set, holds each answer
    until `release` is set (or a minute has passed)."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.slow, self.release, self.stop = threading.Event(), threading.Event(), threading.Event()
        self.queries, self.held, self.answered_late = [], 0, 0
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self):
        while not self.stop.is_set():
            try:
                data, peer = self.sock.recvfrom(4096)
            except TimeoutError:
                continue
            query = dns.message.from_wire(data)
            question = query.question[0]
            self.queries.append((question.name.to_text(), dns.rdatatype.to_text(question.rdtype)))
            answer = dns.message.make_response(query)
            if question.rdtype == dns.rdatatype.A:
                answer.answer.append(dns.rrset.from_text(question.name, 60, "IN", "A", "127.0.0.1"))
            if self.slow.is_set():
                self.held += 1
                threading.Thread(target=self._answer_later, args=(answer, peer), daemon=True).start()
            else:
                self.sock.sendto(answer.to_wire(), peer)

    def _answer_later(self, answer, peer):
        self.release.wait(60)
        try:
            self.sock.sendto(answer.to_wire(), peer)
        except OSError:
            pass
        self.answered_late += 1

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


def test_a_name_server_slower_than_the_deadline_does_not_hold_a_delivery_past_it(tmp_path, settings):
    event, _entries, _games = swiss_event(players=4)
    api = APIClient()
    api.force_login(organiser_of(event.league))
    with NameServer() as names, receiver(tmp_path) as hook:
        settings.WEBHOOKS_DNS_SERVERS = [f"127.0.0.1:{names.port}"]
        url = hook.url.replace("127.0.0.1", NAME)
        created = api.post("/api/v1/webhooks/", {"url": url, "events": ["result.recorded"], "event": event.slug})
        assert created.status_code == 201, created.content
        subscription = created.json()["id"]

        assert api.post(f"/api/v1/webhooks/{subscription}/test/").status_code == 202  # delivered in this process
        assert WebhookDelivery.objects.get(subscription_id=subscription).status == "delivered"
        assert len(hook.received()) == 1
        assert (f"{NAME}.", "A") in names.queries  # the name was looked up at our name server

        names.slow.set()  # from now on every answer comes only when the test releases it
        assert api.post(f"/api/v1/webhooks/{subscription}/test/").status_code == 202
        assert names.held >= 1 and names.answered_late == 0  # it ended while the name server held its answer
        late = WebhookDelivery.objects.filter(subscription_id=subscription).order_by("-created_at").first()
        assert late is not None
        assert (late.status, late.response_code) == ("failed", None)
        assert late.error == "timed out: no answer within 5 s"
        assert len(hook.received()) == 1  # nothing sent
