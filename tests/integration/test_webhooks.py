"""Webhook subscriptions: who may subscribe, which targets are refused, pausing after failures (tasks run
in-process here; tests/e2e/test_webhooks.py delivers through a real worker)."""

import pytest
from django.core import mail
from django.db import transaction
from django.test import override_settings
from rest_framework.test import APIClient

from leagues.models import Result, Role, WebhookDelivery, WebhookSubscription
from leagues.services.results import result_record
from leagues.services.tokens import api_token_create
from leagues.services.webhooks import webhooks_emit
from tests.factories import ClubFactory, UserFactory, organiser_of, swiss_event
from tests.helpers import played_division
from tests.webhooks import receiver

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def logged_in(user):
    client = APIClient()
    client.force_login(user)
    return client


def subscribe(client, url, **target):
    return client.post("/api/v1/webhooks/", {"url": url, "events": ["result.recorded"], **target}, format="json")


@override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=False)
@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://10.1.2.3/hook",
        "https://192.168.0.10/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/hook",
        "https://[fe80::1]/hook",
        "http://93.184.215.14/hook",
    ],
)
def test_private_loopback_link_local_and_plain_http_targets_are_refused(url):
    event, _entries, _games = swiss_event(players=4)
    answer = subscribe(logged_in(organiser_of(event.league)), url, event=event.slug)
    assert answer.status_code == 400
    assert answer.json()["code"] == "unsafe_webhook_url"
    assert not WebhookSubscription.objects.exists()


def test_only_organisers_secretaries_and_webhook_tokens_subscribe():
    club = ClubFactory()
    event, _entries, _games = swiss_event(players=4, club=club)
    organiser = organiser_of(event.league)
    secretary = UserFactory()
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=club)
    url = "http://127.0.0.1:9/hook"

    assert subscribe(APIClient(), url, event=event.slug).status_code == 401
    refused = subscribe(logged_in(UserFactory()), url, league=event.league.slug)
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    assert subscribe(logged_in(secretary), url, club=club.slug).status_code == 201
    assert subscribe(logged_in(secretary), url, league=event.league.slug).status_code == 403
    assert subscribe(logged_in(organiser), url, event=event.slug, league=event.league.slug).status_code == 400

    _, read_only = api_token_create(user=organiser, name="reader", scopes=["read"])
    _, hooks = api_token_create(user=organiser, name="hooks", scopes=["webhooks"])
    reader, hooker = APIClient(), APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {read_only}")
    hooker.credentials(HTTP_AUTHORIZATION=f"Bearer {hooks}")
    assert subscribe(reader, url, league=event.league.slug).status_code == 403
    made = subscribe(hooker, url, league=event.league.slug)
    assert made.status_code == 201 and made.json()["secret"].startswith("whsec_")
    listed = hooker.get("/api/v1/webhooks/").json()["results"]
    assert [h["id"] for h in listed] == [made.json()["id"]] and "secret" not in listed[0]
    assert logged_in(secretary).get(f"/api/v1/webhooks/{made.json()['id']}/").status_code == 404


@override_settings(WEBHOOKS_PAUSE_AFTER_FAILURES=2)
def test_repeated_failures_pause_the_subscription_and_email_its_owner(tmp_path):
    event, _entries, _games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    organiser.email = "organiser@example.org"
    organiser.save()
    client = logged_in(organiser)
    with receiver(tmp_path, 500) as failing:
        hook = subscribe(client, failing.url, event=event.slug).json()
        for _ in range(3):
            assert client.post(f"/api/v1/webhooks/{hook['id']}/test/").status_code == 202
        assert len(failing.received()) == 2  # the third found the subscription paused
    subscription = WebhookSubscription.objects.get(pk=hook["id"])
    assert subscription.paused_at is not None
    assert client.get(f"/api/v1/webhooks/{hook['id']}/").json()["paused"] is True
    assert [m.to for m in mail.outbox] == [["organiser@example.org"]]
    assert failing.url in mail.outbox[0].body
    assert WebhookDelivery.objects.filter(subscription=subscription, error="subscription paused").count() == 1

    resumed = client.post(f"/api/v1/webhooks/{hook['id']}/resume/").json()
    assert resumed["paused"] is False and resumed["failures_in_a_row"] == 0


def test_a_target_that_turns_private_after_subscribing_gets_nothing(tmp_path):
    event, _entries, _games = swiss_event(players=4)
    client = logged_in(organiser_of(event.league))
    with receiver(tmp_path, 200) as ok:
        hook = subscribe(client, ok.url, event=event.slug).json()
        with override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=False):
            client.post(f"/api/v1/webhooks/{hook['id']}/test/")
        assert ok.received() == []
    delivery = WebhookDelivery.objects.get(subscription_id=hook["id"])
    assert delivery.status == "failed" and delivery.response_code is None and "https" in delivery.error


def _subscription(owner, event_type: str, **target) -> WebhookSubscription:
    return WebhookSubscription.objects.create(
        owner=owner, url="https://hooks.example.org/in", secret="s" * 32, events=[event_type], **target
    )


def _subscribed_to_a_result(target_of):
    """A result is recorded in an event whose subscription `target_of(event)` names; the deliveries it made."""
    club = ClubFactory()
    event, _entries, games = swiss_event(players=4, club=club)
    organiser = organiser_of(event.league)
    subscription = _subscription(organiser, "result.recorded", **target_of(event, club))
    result_record(game_id=games[0].pk, result=Result.DRAW, user=organiser)
    return WebhookDelivery.objects.filter(subscription=subscription).count()


@pytest.mark.parametrize(
    "target_of",
    [
        lambda event, club: {"event": event},
        lambda event, club: {"league": event.league},
        lambda event, club: {"club": club},  # the players' club
    ],
    ids=["event", "league", "players-club"],
)
def test_every_kind_of_subscriber_of_an_event_gets_its_results(target_of):
    assert _subscribed_to_a_result(target_of) == 1


def test_a_teams_club_gets_its_match_results():
    event, sides = played_division(2)
    secretary = UserFactory()
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=sides[0].team.club)
    subscription = _subscription(secretary, "match_card.confirmed", club=sides[0].team.club)
    with transaction.atomic():  # as the match card's service does, inside its transaction
        webhooks_emit("match_card.confirmed", event_id=event.pk, occurrence="match:test", data={})
    assert WebhookDelivery.objects.filter(subscription=subscription).count() == 1
