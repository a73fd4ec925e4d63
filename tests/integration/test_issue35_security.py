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


@pytest.mark.parametrize("token", [b"\xff", b"cl_\xc3\xa9t\xc3\xa9", b"cl_\xff\xfe\xfd" * 10, b"cl_a\x00b"])
@pytest.mark.parametrize("prefix", ["Bearer", "Token"])
def test_an_undecodable_or_non_ascii_token_is_refused_with_401(token, prefix):
    header = f"{prefix} ".encode() + token
    answer = APIClient().get("/api/v1/tokens/", HTTP_AUTHORIZATION=header.decode("latin-1"))
    assert answer.status_code == 401
    assert answer.json()["code"] == "authentication_failed"
