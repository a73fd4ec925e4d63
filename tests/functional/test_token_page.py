"""The workspace's API tokens page: make a token (shown once), see it by its prefix, revoke it."""

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.helpers import search

pytestmark = pytest.mark.django_db


def test_a_user_makes_sees_and_revokes_a_token_on_the_workspace_page(client):
    user = UserFactory()
    client.force_login(user)
    page = client.post(
        "/en/manage/account/tokens/", {"name": "league bot", "scopes": ["results", "webhooks"]}, follow=True
    )
    html = page.content.decode()
    key = search(r"Your new API token: (cl_[0-9a-f]+)", html).group(1)
    assert "league bot" in html and key[:15] in html

    later = client.get("/en/manage/account/tokens/").content.decode()
    assert key[:15] in later and key not in later
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert api.get("/api/v1/webhooks/").status_code == 200

    client.post("/en/manage/account/tokens/", {"revoke": key[:15]})
    assert not AuthToken.objects.filter(user=user).exists()
    assert api.get("/api/v1/webhooks/").status_code == 401


def test_the_tokens_page_is_right_to_left_in_hebrew(client):
    client.force_login(UserFactory())
    html = client.get("/he/manage/account/tokens/").content.decode()
    assert 'dir="rtl"' in html and "Make a token" not in html
