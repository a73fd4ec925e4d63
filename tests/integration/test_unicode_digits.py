"""Characters that Python calls digits but int() refuses ("²", "³") are just text: never a 500."""

import pytest
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, organiser_of, swiss_event

pytestmark = pytest.mark.django_db


def test_a_superscript_webhook_id_is_not_found():
    client = APIClient()
    client.force_login(organiser_of(swiss_event()[0].league))
    assert client.post("/api/v1/webhooks/%C2%B2/test/").status_code == 404


def test_a_superscript_player_search_finds_nobody(client):
    PlayerFactory(name="Kaya, Mehmet", fide_id=2)
    answer = client.get("/en/players/", {"q": "²"})
    assert answer.status_code == 200 and "Kaya" not in answer.content.decode()
