"""Issue #35: security findings, each through every door it applies to."""

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.test import APIClient

from leagues.models import ApiToken, WebhookSubscription
from leagues.services.tokens import api_token_create
from leagues.services.webhooks import checked_addresses
from tests.factories import UserFactory, organiser_of, swiss_event

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


# 2. a token made by a token never outlives it, never holds more, and a narrow token revokes no broader one


def bearer(key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def test_a_token_made_by_an_expiring_token_expires_with_it_at_the_latest():
    user = UserFactory()
    soon = timezone.now() + timedelta(seconds=60)
    _, parent = api_token_create(user=user, name="short", scopes=["tokens", "organiser"], expires_at=soon)

    forever = bearer(parent).post("/api/v1/tokens/", {"name": "forever", "scopes": ["organiser"]}, format="json")
    assert forever.status_code == 201
    assert parse_datetime(forever.json()["expires_at"]) == soon
    later = (timezone.now() + timedelta(days=30)).isoformat()
    for expires_at in (later, "2099-01-01T00:00:00Z"):
        refused = bearer(parent).post(
            "/api/v1/tokens/", {"name": "2099", "scopes": ["read"], "expires_at": expires_at}, format="json"
        )
        assert refused.status_code == 403
        assert refused.json()["code"] == "permission_denied"
    sooner = (timezone.now() + timedelta(seconds=30)).replace(microsecond=0)
    made = bearer(parent).post(
        "/api/v1/tokens/", {"name": "half", "scopes": ["read"], "expires_at": sooner.isoformat()}, format="json"
    )
    assert parse_datetime(made.json()["expires_at"]) == sooner
    assert sorted(ApiToken.objects.filter(auth_token__user=user).values_list("name", flat=True)) == [
        "forever",
        "half",
        "short",
    ]
    # and its own children in turn: the grandchild made without an expiry expires with the first token too
    child = forever.json()["token"]
    assert bearer(child).post("/api/v1/tokens/", {"name": "x", "scopes": ["read"]}, format="json").status_code == 403
    _, wide = api_token_create(user=user, name="wide", scopes=["tokens"], expires_at=soon)
    grandchild = bearer(wide).post("/api/v1/tokens/", {"name": "grand", "scopes": ["tokens"]}, format="json").json()
    again = bearer(grandchild["token"]).post("/api/v1/tokens/", {"name": "great", "scopes": ["read"]}, format="json")
    assert parse_datetime(again.json()["expires_at"]) == soon


def test_a_token_made_by_a_token_never_holds_a_scope_its_maker_lacks():
    user = UserFactory()
    _, maker = api_token_create(user=user, name="maker", scopes=["tokens", "results"])
    for scopes in (["organiser"], ["webhooks"], ["results", "organiser"]):
        answer = bearer(maker).post("/api/v1/tokens/", {"name": "x", "scopes": scopes}, format="json")
        assert answer.status_code == 403, scopes
    assert list(ApiToken.objects.filter(auth_token__user=user).values_list("name", flat=True)) == ["maker"]


def test_a_narrow_token_cannot_revoke_a_broader_one():
    user = UserFactory()
    _, narrow = api_token_create(user=user, name="narrow", scopes=["tokens"])
    organiser_token, _key = api_token_create(user=user, name="organiser", scopes=["organiser"])
    reader, _key = api_token_create(user=user, name="reader", scopes=["read"])

    refused = bearer(narrow).delete(f"/api/v1/tokens/{organiser_token.auth_token.token_key}/")
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert ApiToken.objects.filter(name="organiser").exists()
    assert bearer(narrow).delete(f"/api/v1/tokens/{reader.auth_token.token_key}/").status_code == 204
    assert not ApiToken.objects.filter(name="reader").exists()
    session = APIClient()
    session.force_login(user)  # the user themself, signed in, revokes any of their tokens
    assert session.delete(f"/api/v1/tokens/{organiser_token.auth_token.token_key}/").status_code == 204


# 4. password reset e-mails are throttled per account and per client address


def test_password_reset_mails_one_account_a_few_times_whatever_the_requests(
    settings, django_capture_on_commit_callbacks
):
    user = UserFactory(email="kari@example.org")
    for number in range(24):  # from as many addresses: the account's own limit holds
        with django_capture_on_commit_callbacks(execute=True):
            answer = Client(REMOTE_ADDR=f"10.1.0.{number}").post(
                "/en/accounts/password_reset/", {"email": "kari@example.org"}
            )
        assert answer.status_code == 302  # the same answer every time: nothing says whether the address is known
    sent = [message for message in mail.outbox if message.to == [user.email]]
    assert 1 <= len(sent) <= settings.PASSWORD_RESET_EMAILS < 24
    # another account is not held back by this one's limit
    UserFactory(email="ola@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        Client().post("/en/accounts/password_reset/", {"email": "ola@example.org"}, REMOTE_ADDR="10.0.0.8")
    assert [message.to for message in mail.outbox].count(["ola@example.org"]) == 1


def test_password_reset_requests_from_one_address_are_refused_after_a_while(
    settings, django_capture_on_commit_callbacks
):
    for number in range(30):
        UserFactory(email=f"player{number}@example.org")
    page = Client()
    answers = []
    for number in range(30):
        with django_capture_on_commit_callbacks(execute=True):
            answers.append(page.post("/en/accounts/password_reset/", {"email": f"player{number}@example.org"}))
    limit = settings.PASSWORD_RESET_ADDRESS_ATTEMPTS
    assert limit < 30
    assert [a.status_code for a in answers] == [302] * limit + [429] * (30 - limit)
    assert "Too many" in answers[-1].content.decode()
    assert len(mail.outbox) == limit
    # another client address is not refused
    other = Client(REMOTE_ADDR="10.0.0.9").post("/en/accounts/password_reset/", {"email": "player29@example.org"})
    assert other.status_code == 302


# 5. webhook targets: IPv6 addresses that carry a private IPv4 address (NAT64, 6to4, Teredo, IPv4-mapped) are refused

HIDDEN_PRIVATE = [
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "64:ff9b:1::a00:1",  # local-use NAT64
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2002:c0a8:1::1",  # 6to4 of 192.168.0.1
    "2001:0:4136:e378:8000:63bf:f5ff:fffe",  # Teredo
    "::ffff:10.0.0.1",  # IPv4-mapped
    "::ffff:127.0.0.1",
    "::a00:1",  # IPv4-compatible (deprecated) 10.0.0.1
]


@pytest.mark.parametrize("address", HIDDEN_PRIVATE)
def test_a_webhook_target_hiding_a_private_ipv4_address_in_ipv6_is_refused(settings, address):
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
    event, _entries, _games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    url = f"https://[{address}]/hook"
    api = APIClient()
    api.force_login(organiser)
    answer = api.post(
        "/api/v1/webhooks/", {"url": url, "events": ["result.recorded"], "event": event.slug}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "unsafe_webhook_url"
    page = Client()
    page.force_login(organiser)
    form = page.post(
        "/en/manage/webhooks/", {"url": url, "target": f"event:{event.slug}", "events": ["result.recorded"]}
    )
    assert form.status_code == 200 and "private, loopback or link-local" in form.content.decode()
    assert not WebhookSubscription.objects.exists()


@pytest.mark.parametrize("address", ["2606:4700:4700::1111", "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"])
def test_a_webhook_target_on_a_public_address_reached_through_ipv6_is_allowed(settings, address):
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
    assert checked_addresses(f"https://[{address}]/hook") == [address]


@pytest.mark.parametrize("door", ["api", "page"])
def test_revoking_a_token_revokes_the_tokens_it_made_and_theirs(door):
    user = UserFactory()
    _, maker = api_token_create(user=user, name="maker", scopes=["tokens", "results"])
    child = bearer(maker).post("/api/v1/tokens/", {"name": "child", "scopes": ["tokens", "results"]}, format="json")
    grandchild = bearer(child.json()["token"]).post(
        "/api/v1/tokens/", {"name": "grandchild", "scopes": ["results"]}, format="json"
    )
    _, other = api_token_create(user=user, name="other", scopes=["read"])
    made = [child.json()["token"], grandchild.json()["token"]]
    assert all(bearer(key).get("/api/v1/events/").status_code == 200 for key in made)

    if door == "api":
        session = APIClient()
        session.force_login(user)
        assert session.delete(f"/api/v1/tokens/{maker[:15]}/").status_code == 204
    else:
        page = Client()
        page.force_login(user)
        assert page.post("/en/manage/account/tokens/", {"revoke": maker[:15]}).status_code == 302
    for key in [maker, *made]:
        assert bearer(key).get("/api/v1/events/").status_code == 401
    assert bearer(other).get("/api/v1/events/").status_code == 200
    assert list(ApiToken.objects.filter(auth_token__user=user).values_list("name", flat=True)) == ["other"]
