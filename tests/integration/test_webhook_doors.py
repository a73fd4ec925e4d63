"""Every door that records results sends their `result.recorded` webhooks: one result through the API and through
the round sheet page, a whole round sheet, a confirmed TRF import, and a match card (which also tells its steps,
confirming itself included), each to a real receiver (tasks run in-process here)."""

import hashlib
import json
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import Event, Game, Result, ResultChange, WebhookSubscription
from leagues.services.match_cards import match_card_submit, match_cards_auto_confirm
from tests.factories import organiser_of, swiss_event
from tests.helpers import team_match
from tests.paths import GOLDEN
from tests.webhooks import receiver, signature_is_valid

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]
TRF = json.loads((GOLDEN / "swiss-p009-r05-s01004.json").read_text())["trf"]


def subscribe(owner, url, **target) -> WebhookSubscription:
    return WebhookSubscription.objects.create(
        owner=owner, url=url, secret="whsec_doors", events=["result.recorded", "result.corrected"], **target
    )


def recorded(hook) -> dict[int, dict]:
    """The game id → data of every result.recorded the receiver got, each checked signed."""
    requests = [r for r in hook.received() if r["headers"]["X-Chess-League-Event"] == "result.recorded"]
    assert all(signature_is_valid("whsec_doors", r) for r in requests)
    return {json.loads(r["body"])["data"]["game"]: json.loads(r["body"])["data"] for r in requests}


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def sheet(event, games, results):
    """The round sheet's form: `results` maps a game to its code, every other board of the round left as it is."""
    form = {"reason": ""}
    for game in games:
        form[f"result_{game.pk}"] = results.get(game, game.result)
        form[f"version_{game.pk}"] = game.version
    return form


def test_one_result_through_the_api_is_sent(tmp_path):
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    api = APIClient()
    api.force_login(organiser)
    with receiver(tmp_path) as hook:
        subscribe(organiser, hook.url, event=event)
        answer = api.post(f"/api/v1/games/{games[0].pk}/result/", {"result": "0-1"}, format="json")
        assert answer.status_code == 200, answer.content
        sent = recorded(hook)
    assert list(sent) == [games[0].pk]
    assert sent[games[0].pk]["result"] == "0-1" and sent[games[0].pk]["event"] == event.slug


def test_one_result_on_the_round_sheet_page_is_sent(tmp_path):
    event, _entries, _games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    with receiver(tmp_path) as hook:
        subscribe(organiser, hook.url, league=event.league)
        round_games = list(Game.objects.filter(round__event=event, round__number=1).order_by("board"))
        answer = page_client(organiser).post(
            f"/en/manage/events/{event.slug}/rounds/1/", sheet(event, round_games, {round_games[0]: "1-0"})
        )
        assert answer.status_code in (200, 302)
        sent = recorded(hook)
    assert list(sent) == [round_games[0].pk] and sent[round_games[0].pk]["result"] == "1-0"


def test_a_round_sheet_sends_each_of_its_results(tmp_path):
    event, _entries, _games = swiss_event(players=6)
    organiser = organiser_of(event.league)
    with receiver(tmp_path) as hook:
        subscribe(organiser, hook.url, event=event)
        round_games = list(Game.objects.filter(round__event=event, round__number=1).order_by("board"))
        codes = dict(zip(round_games, ["1-0", "1/2-1/2", "0-1"], strict=False))
        answer = page_client(organiser).post(
            f"/en/manage/events/{event.slug}/rounds/1/", sheet(event, round_games, codes)
        )
        assert answer.status_code in (200, 302)
        sent = recorded(hook)
    assert {game_id: data["result"] for game_id, data in sent.items()} == {g.pk: c for g, c in codes.items()}


def test_a_confirmed_trf_import_sends_every_imported_result(tmp_path):
    event, _entries, _games = swiss_event(players=4)  # the league, with an event the organiser follows it by
    league = event.league
    organiser = organiser_of(league)
    client = page_client(organiser)
    url = f"/en/manage/leagues/{league.slug}/import/"
    with receiver(tmp_path) as hook:
        subscribe(organiser, hook.url, league=league)
        upload = client.post(
            url, {"name": "Club open", "slug": "club-open", "file": SimpleUploadedFile("o.trf", TRF.encode())}
        )
        assert upload.status_code == 200
        done = client.post(url, {"confirm": "1", "publish": "1", "digest": hashlib.sha256(TRF.encode()).hexdigest()})
        assert done.status_code == 302
        sent = recorded(hook)
    imported = Event.objects.get(slug="club-open")
    results = dict(
        ResultChange.objects.filter(game__round__event=imported, source="import").values_list("game_id", "after")
    )
    assert len(results) > 20
    assert {game_id: data["result"] for game_id, data in sent.items()} == results
    assert {data["event"] for data in sent.values()} == {"club-open"}


def test_a_match_card_sends_its_board_and_its_steps_and_a_card_confirming_itself_says_so(tmp_path):
    event, match, games, (home, _away) = team_match()
    organiser = organiser_of(event.league)
    with receiver(tmp_path) as hook:
        WebhookSubscription.objects.create(
            owner=organiser,
            url=hook.url,
            secret="whsec_doors",
            events=["result.recorded", "match_card.submitted", "match_card.confirmed"],
            event=event,
        )
        match_card_submit(
            match_id=match.pk, results={games[0].pk: (Result.WHITE_WINS, 0)}, user=home, expected_version=0
        )
        days = event.league.auto_confirm_days
        assert match_cards_auto_confirm(now=timezone.now() + timedelta(days=days, minutes=1)) == 1
        sent = [json.loads(r["body"]) for r in hook.received()]
    assert [body["type"] for body in sent] == ["result.recorded", "match_card.submitted", "match_card.confirmed"]
    assert sent[0]["data"]["game"] == games[0].pk
    assert sent[2]["data"]["match"] == match.pk and sent[2]["data"]["status"] == "confirmed"
