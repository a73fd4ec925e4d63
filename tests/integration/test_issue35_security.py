"""Issue #35: security findings, each through every door it applies to."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from leagues.services.tokens import api_token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def api_client(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=user, name='t', scopes=['organiser'])[1]}")
    return client


@pytest.mark.parametrize("action", ["confirm", "dispute"])
@pytest.mark.parametrize("match_id", ["999999", "99999999999"])
def test_confirming_or_disputing_an_unknown_match_is_not_found(action, match_id):
    user = UserFactory()
    answer = api_client(user).post(
        f"/api/v1/matches/{match_id}/{action}/", {"version": 0, "reason": "board 2"}, format="json"
    )
    assert answer.status_code == 404
    assert answer.json()["code"] in ("unknown_match", "not_found")
    page = Client()
    page.force_login(user)
    answer = page.post(f"/en/manage/matches/{match_id}/{action}/", {"card_version": "0", "reason": "board 2"})
    assert answer.status_code == 404

