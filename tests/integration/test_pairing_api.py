"""The pairing API: the organiser pairs (202, a worker pairs the round), reads the preview and publishes;
everyone else reads only published boards, with the points before the round."""

import json

import pytest
from rest_framework.test import APIClient

from leagues.models import Game
from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory, organiser_of
from tests.helpers import present

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = EventFactory(rounds_count=4, status="published")
    for n in range(1, 6):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2100 - n)
    return event


def test_organiser_pairs_reads_and_publishes_while_the_public_sees_only_published_boards(
    event, django_capture_on_commit_callbacks
):
    url = f"/api/v1/events/{event.slug}/rounds/1/pairing/"
    organiser, public = APIClient(), APIClient()
    organiser.force_authenticate(organiser_of(event.league))
    with django_capture_on_commit_callbacks(execute=True):
        answer = organiser.post(url)
    assert answer.status_code == 202, answer.json()
    preview = organiser.get(url).json()
    assert preview["status"] == "ready"
    assert [b["board"] for b in preview["boards"]] == [1, 2, 3]
    assert preview["boards"][-1]["black"] is None  # five players: the last board is the bye
    seen = public.get(url).json()
    assert seen["status"] is None and seen["boards"] == []  # not published: not public
    assert public.post(f"{url}publish/").status_code in (401, 403)
    published = organiser.post(f"{url}publish/")
    assert published.status_code == 200, published.json()
    seen = public.get(url).json()
    assert seen["status"] == "published"
    assert [(b["white"]["start_number"], (b["black"] or {}).get("start_number")) for b in seen["boards"]] == [
        (b["white"]["start_number"], (b["black"] or {}).get("start_number")) for b in preview["boards"]
    ]
    assert {b["white"]["points"] for b in seen["boards"]} == {"0"}
    assert Game.objects.filter(round__event=event, round__number=1).count() == 3


def test_pairing_is_refused_to_others_and_for_a_round_out_of_turn(event):
    url = f"/api/v1/events/{event.slug}/rounds/2/pairing/"
    client = APIClient()
    client.force_authenticate(UserFactory())
    answer = client.post(f"/api/v1/events/{event.slug}/rounds/1/pairing/")
    assert answer.status_code == 403
    client.force_authenticate(organiser_of(event.league))
    answer = client.post(url)
    assert answer.status_code == 400
    assert answer.json()["code"] == "not_pairable"
    assert not Game.objects.filter(round__event=event).exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_publishing_tells_the_webhook_subscribers(event, tmp_path):
    from tests.webhooks import receiver

    client = APIClient()
    client.force_login(organiser_of(event.league))
    url = f"/api/v1/events/{event.slug}/rounds/1/pairing/"
    with receiver(tmp_path, 200) as hook:
        subscribed = client.post(
            "/api/v1/webhooks/", {"url": hook.url, "events": ["pairings.published"], "event": event.slug}, format="json"
        )
        assert subscribed.status_code == 201, subscribed.json()
        assert client.post(url).status_code == 202
        assert hook.received() == []  # paired, not published: nobody is told
        assert client.post(f"{url}publish/").status_code == 200
        bodies = [json.loads(request["body"]) for request in hook.received()]
    deliveries = [body for body in bodies if body["type"] == "pairings.published"]
    assert len(deliveries) == 1, bodies
    assert deliveries[0]["data"]["round"] == 1
    assert deliveries[0]["data"]["url"].endswith(url)


def test_a_token_pairs_only_with_the_organiser_scope(event, django_capture_on_commit_callbacks):
    from leagues.services.tokens import api_token_create

    organiser = organiser_of(event.league)
    url = f"/api/v1/events/{event.slug}/rounds/1/pairing/"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=organiser, name='r', scopes=['results'])[1]}")
    refused = client.post(url)
    assert refused.status_code == 403 and "organiser" in refused.json()["message"]
    client.credentials(
        HTTP_AUTHORIZATION=f"Token {api_token_create(user=organiser, name='o', scopes=['organiser'])[1]}"
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url).status_code == 202
    assert client.post(f"{url}publish/").status_code == 200


def test_the_organiser_sets_the_round_by_hand_and_a_round_with_a_player_twice_is_refused(
    event, django_capture_on_commit_callbacks
):
    from leagues.models import PairingChange

    url = f"/api/v1/events/{event.slug}/rounds/1/pairing/"
    organiser = APIClient()
    organiser.force_authenticate(organiser_of(event.league))
    with django_capture_on_commit_callbacks(execute=True):
        organiser.post(url)
    body = {"boards": [[1, 2], [3, 4]], "pab": None, "byes": [{"start_number": 5, "kind": "half"}], "reason": "club"}
    answer = organiser.post(f"{url}edit/", body, format="json")
    assert answer.status_code == 200, answer.json()
    data = answer.json()
    assert data["changed_by_hand"] is True
    assert [(b["white"]["start_number"], b["black"]["start_number"]) for b in data["boards"]] == [(1, 2), (3, 4)]
    assert [(b["start_number"], b["result"]) for b in data["byes"]] == [(5, "bye:half")]
    twice = {**body, "boards": [[1, 2], [3, 1]], "byes": [{"start_number": 5, "kind": "half"}]}
    refused = organiser.post(f"{url}edit/", twice, format="json")
    assert refused.status_code == 400 and "twice" in refused.json()["message"], refused.json()
    assert PairingChange.objects.count() == 1
    assert organiser.post(f"{url}publish/").status_code == 200
    byes = Game.objects.filter(round__event=event, round__number=1, black__isnull=True)
    assert [(present(g.white).start_number, g.result) for g in byes] == [(5, "bye:half")]
