"""Self-service API tokens: made once, shown once, stored as digests, scoped, revocable, expiring."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from leagues.models import ApiToken, Game, Result
from leagues.services.tokens import api_token_create
from tests.factories import UserFactory, organiser_of, swiss_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def bearer(key, prefix="Bearer"):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{prefix} {key}")
    return client


def post_result(client, game, result):
    return client.post(f"/api/v1/games/{game.pk}/result/", {"result": result}, format="json")


def test_a_logged_in_user_makes_a_token_sees_it_once_and_then_only_its_prefix():
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    session = APIClient()
    session.force_login(organiser)

    made = session.post("/api/v1/tokens/", {"name": "club website", "scopes": ["results"]}, format="json")
    assert made.status_code == 201
    key = made.json()["token"]
    assert key.startswith(made.json()["prefix"])
    assert not AuthToken.objects.filter(digest__contains=key).exists()  # only its digest is stored
    listed = session.get("/api/v1/tokens/").json()
    assert [(t["name"], t["scopes"], t["prefix"]) for t in listed] == [("club website", ["results"], key[:15])]
    assert key not in str(listed)

    assert post_result(bearer(key), games[0], Result.WHITE_WINS).status_code == 200
    assert post_result(bearer(key, "Token"), games[1], Result.DRAW).status_code == 200


def test_a_token_out_of_scope_gets_403_and_a_revoked_or_expired_one_401_in_the_error_shape():
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    _, read_only = api_token_create(user=organiser, name="reader", scopes=["read"])
    _, expired = api_token_create(user=organiser, name="old", scopes=["results"])
    AuthToken.objects.filter(token_key=expired[:15]).update(expiry=timezone.now() - timedelta(minutes=1))
    _, revoked = api_token_create(user=organiser, name="lost", scopes=["results"])
    session = APIClient()
    session.force_login(organiser)
    assert session.delete(f"/api/v1/tokens/{revoked[:15]}/").status_code == 204

    refused = post_result(bearer(read_only), games[0], Result.DRAW)
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert "results" in refused.json()["message"]
    assert bearer(read_only).get("/api/v1/events/").status_code == 200
    for key in (expired, revoked, "cl_not-a-token"):
        answer = post_result(bearer(key), games[0], Result.DRAW)
        assert answer.status_code == 401
        assert answer.json()["code"] == "authentication_failed"
    assert Game.objects.get(pk=games[0].pk).result == ""


def test_a_request_finds_its_token_user_and_scopes_in_one_read_and_expired_tokens_are_deleted():
    """Every API call with a token pays its look-up: one read of the token with its user and scopes (knox read the
    user's every token on each call to delete expired ones). Expired tokens still go: the one shown at once, the
    user's others when the user makes a token."""
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    _, key = api_token_create(user=organiser, name="club website", scopes=["results"])
    _, shown = api_token_create(user=organiser, name="old", scopes=["read"])
    _, other = api_token_create(user=organiser, name="older", scopes=["read"])
    AuthToken.objects.filter(token_key__in=[shown[:15], other[:15]]).update(expiry=timezone.now() - timedelta(days=1))

    with CaptureQueriesContext(connection) as queries:
        assert post_result(bearer(key), games[0], Result.WHITE_WINS).status_code == 200
    selects = [q["sql"] for q in queries if (q["sql"] or "").startswith("SELECT")]
    reads = [sql for sql in selects if '"knox_authtoken"' in sql]
    assert len(reads) == 1 and '"leagues_apitoken"' in reads[0] and '"auth_user"' in reads[0], reads
    assert not [sql for sql in selects if 'FROM "auth_user"' in sql]

    assert bearer(shown).get("/api/v1/events/").status_code == 401
    assert not AuthToken.objects.filter(token_key=shown[:15]).exists()
    assert AuthToken.objects.filter(token_key=other[:15]).exists()  # not shown: kept until the user makes a token
    api_token_create(user=organiser, name="new", scopes=["read"])
    assert not AuthToken.objects.filter(token_key=other[:15]).exists()
    assert AuthToken.objects.filter(token_key=key[:15]).exists()


def test_a_token_may_make_tokens_only_with_the_tokens_scope_and_never_wider_than_its_own():
    user = UserFactory()
    _, results_only = api_token_create(user=user, name="bot", scopes=["results"])
    _, manager = api_token_create(user=user, name="manager", scopes=["tokens", "webhooks"])

    assert (
        bearer(results_only).post("/api/v1/tokens/", {"name": "x", "scopes": ["read"]}, format="json").status_code
        == 403
    )
    narrower = bearer(manager).post("/api/v1/tokens/", {"name": "hooks", "scopes": ["webhooks"]}, format="json")
    assert narrower.status_code == 201
    wider = bearer(manager).post("/api/v1/tokens/", {"name": "x", "scopes": ["organiser"]}, format="json")
    assert wider.status_code == 403
    assert ApiToken.objects.filter(auth_token__user=user).count() == 3
    future = (timezone.now() + timedelta(days=30)).isoformat()
    expiring = bearer(manager).post(
        "/api/v1/tokens/", {"name": "month", "scopes": ["read"], "expires_at": future}, format="json"
    )
    assert expiring.json()["expires_at"] is not None


def test_plain_text_tokens_from_before_scopes_keep_working_and_are_stored_as_digests():
    executor = MigrationExecutor(connection)
    executor.migrate([("leagues", "0008_round_pairing")])
    before = [("leagues", "0008_round_pairing"), ("authtoken", "0004_alter_tokenproxy_options")]
    old_apps = executor.loader.project_state(before).apps
    user = UserFactory()
    key = "0123456789abcdef0123456789abcdef01234567"
    old_apps.get_model("authtoken", "Token").objects.create(key=key, user_id=user.pk)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0
    assert bearer(key, "Token").get("/api/v1/tokens/").status_code == 403  # legacy: no "tokens" scope
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    AuthToken.objects.filter(user=user).update(user=organiser)
    assert post_result(bearer(key, "Token"), games[0], Result.DRAW).status_code == 200
