"""The REST API: anonymous reads, permission-checked writes, If-Match, Idempotency-Key, 304s."""

import pytest
from rest_framework.test import APIClient

from leagues.models import Game, Result, ResultChange, Role
from leagues.services.tokens import api_token_create
from tests.factories import ClubFactory, UserFactory, organiser_of, swiss_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def client_for(user=None):
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=user, name='t', scopes=['organiser'])[1]}")
    return client


def post_result(client, game, result, **headers):
    return client.post(f"/api/v1/games/{game.pk}/result/", {"result": result}, format="json", headers=headers)


def test_anonymous_reads_events_games_and_standings():
    event, _entries, games = swiss_event(players=4)
    post_result(client_for(organiser_of(event.league)), games[0], Result.WHITE_WINS)
    anonymous = client_for()

    events = anonymous.get("/api/v1/events/", {"league": event.league.slug}).json()
    assert [e["slug"] for e in events["results"]] == [event.slug]
    played = anonymous.get("/api/v1/games/", {"event": event.slug, "round": 1}).json()["results"]
    assert {(g["white"], g["black"], g["result"]) for g in played} == {(1, 3, "1-0"), (2, 4, "")}

    standings = anonymous.get(f"/api/v1/events/{event.slug}/standings/")
    assert standings.status_code == 200
    body = standings.json()
    assert body["rules"] == "fide-2026"
    assert body["being_updated"] is False
    assert body["rows"][0]["start_number"] == 1


def test_standings_answer_304_until_a_result_changes_them():
    event, _entries, games = swiss_event(players=4)
    writer = client_for(organiser_of(event.league))
    post_result(writer, games[0], Result.WHITE_WINS)
    reader = client_for()
    url = f"/api/v1/events/{event.slug}/standings/"
    first = reader.get(url)
    assert first["Last-Modified"]

    assert reader.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    post_result(writer, games[1], Result.DRAW)
    again = reader.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]


def test_anonymous_and_foreign_secretary_cannot_write():
    home = ClubFactory()
    _event, _entries, games = swiss_event(players=4, club=home)
    stranger = UserFactory()
    Role.objects.create(user=stranger, kind=Role.Kind.SECRETARY, club=ClubFactory())
    secretary = UserFactory()
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=home)

    assert post_result(client_for(), games[0], Result.DRAW).status_code == 401
    refused = post_result(client_for(stranger), games[0], Result.DRAW)
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert Game.objects.get(pk=games[0].pk).result == ""
    assert post_result(client_for(secretary), games[0], Result.DRAW).status_code == 200


def test_stale_if_match_gets_412_with_the_current_state():
    event, _entries, games = swiss_event(players=4)
    client = client_for(organiser_of(event.league))
    etag = client.get(f"/api/v1/games/{games[0].pk}/")["ETag"]
    assert post_result(client, games[0], Result.WHITE_WINS, **{"If-Match": etag}).status_code == 200

    stale = client.post(
        f"/api/v1/games/{games[0].pk}/result/",
        {"result": "0-1", "reason": "typo"},
        format="json",
        headers={"If-Match": etag},
    )
    assert stale.status_code == 412
    assert stale.json()["current"]["result"] == "1-0"
    assert Game.objects.get(pk=games[0].pk).result == "1-0"


def test_retried_post_with_idempotency_key_records_one_result():
    event, _entries, games = swiss_event(players=4)
    client = client_for(organiser_of(event.league))
    first = post_result(client, games[0], Result.DRAW, **{"Idempotency-Key": "abc-1"})
    retry = post_result(client, games[0], Result.DRAW, **{"Idempotency-Key": "abc-1"})

    assert first.status_code == retry.status_code == 200
    assert retry["Idempotent-Replay"] == "true"
    assert ResultChange.objects.filter(game=games[0]).count() == 1
    reused = post_result(client, games[0], Result.WHITE_WINS, **{"Idempotency-Key": "abc-1"})
    assert reused.status_code == 422
    assert Game.objects.get(pk=games[0].pk).result == Result.DRAW


def test_bad_input_gets_a_code_and_a_message_and_changes_nothing():
    event, _entries, games = swiss_event(players=5)
    client = client_for(organiser_of(event.league))
    bad_code = post_result(client, games[0], "2-0")
    assert bad_code.status_code == 400
    assert bad_code.json()["code"] == "invalid"
    bye = post_result(client, games[-1], Result.WHITE_WINS)
    assert (bye.status_code, bye.json()["code"]) == (400, "result_for_bye")
    missing = client.post("/api/v1/games/999999/result/", {"result": "1-0"}, format="json")
    assert missing.status_code == 404
    assert ResultChange.objects.count() == 0


def test_match_card_submit_confirm_and_dispute_through_the_api():
    from tests.helpers import team_match

    _event, match, games, (home, away) = team_match()
    card = {"version": 0, "boards": [{"game": games[0].pk, "result": "1-0", "version": 0}]}
    submitted = client_for(home).post(f"/api/v1/matches/{match.pk}/card/", card, format="json")
    assert submitted.status_code == 200
    assert submitted.json()["status"] == "submitted"
    again = client_for(home).post(f"/api/v1/matches/{match.pk}/card/", card, format="json")
    assert again.status_code == 200  # a double click changes nothing
    changed = {"version": 0, "boards": [{"game": games[0].pk, "result": "0-1", "version": 0}]}
    stale = client_for(home).post(f"/api/v1/matches/{match.pk}/card/", changed, format="json")
    assert stale.status_code == 412
    assert stale.json()["current"]["version"] == 1
    assert (
        client_for(home).post(f"/api/v1/matches/{match.pk}/confirm/", {"version": 1}, format="json").status_code == 403
    )
    disputed = client_for(away).post(
        f"/api/v1/matches/{match.pk}/dispute/", {"reason": "board 1 drawn", "version": 1}, format="json"
    )
    assert disputed.json()["status"] == "disputed"
    assert disputed.json()["dispute_reason"] == "board 1 drawn"


def test_a_match_cards_answer_is_the_card_as_stored_after_the_save_and_after_a_retry():
    from tests.helpers import team_match

    _event, match, games, (home, _away) = team_match(boards=3)
    card = {
        "version": 0,
        "boards": [
            {"game": games[0].pk, "result": "1-0", "version": 0},
            {"game": games[2].pk, "result": "1/2-1/2", "version": 0},
        ],
    }
    secretary = client_for(home)
    for answer in (secretary.post(f"/api/v1/matches/{match.pk}/card/", card, format="json") for _ in range(2)):
        assert answer.status_code == 200  # the save, then a double click's retry
        stored = client_for().get(f"/api/v1/matches/{match.pk}/").json()
        assert {key: value for key, value in answer.json().items() if key != "rule_violations"} == stored
        assert [(g["board"], g["result"], g["version"]) for g in stored["games"]] == [
            (1, "1-0", 1),
            (2, "", 0),
            (3, "1/2-1/2", 1),
        ]


def test_anonymous_clients_are_throttled_with_a_clear_answer(monkeypatch):
    from leagues.api.throttling import AnonThrottle

    monkeypatch.setattr(AnonThrottle, "THROTTLE_RATES", {"anon": "3/minute", "user": "100/minute"})
    reader = client_for()
    answers = [reader.get("/api/v1/leagues/").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    refused = reader.get("/api/v1/leagues/")
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
