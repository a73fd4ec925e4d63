"""Issue 35: the open-data downloads are served from a copy kept until the event changes, built by a worker, and have
their own, lower rate per address."""

import csv
import json
from contextlib import contextmanager
from datetime import timedelta

import pytest
from celery import current_app
from django.db.models import F
from django.utils import timezone
from rest_framework.test import APIClient

from leagues import page_cache, tasks
from leagues.api.throttling import AnonThrottle, ExportThrottle, UserThrottle
from leagues.models import Event, GamePgn, Result, Season
from leagues.services import export_cache
from leagues.services.games import pgn_put, transmission_delay_set
from leagues.services.results import result_record
from tests.factories import organiser_of, swiss_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def points_of(answer) -> dict[str, float]:
    rows = list(csv.reader(answer.content.decode().splitlines()[1:]))
    return {row[1]: float(row[3]) for row in rows[1:]}


@contextmanager
def no_worker_yet():
    """Downloads asked for meanwhile are sent to the broker as in production, and no worker takes them (the test runs
    the worker's task itself, when it chooses; results recorded outside are recomputed at once, as a worker would)."""
    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = False
    try:
        yield
    finally:
        current_app.conf.task_always_eager = eager


@pytest.mark.parametrize(
    "path", ["export.trf", "export.json", "standings.csv", "standings.xlsx", "crosstable.csv", "crosstable.xlsx"]
)
def test_a_second_download_is_the_same_copy_and_a_new_result_renews_it(path):
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser)
    client, url = APIClient(), f"/api/v1/events/{event.slug}/{path}"
    first = client.get(url)
    assert first.status_code == 200 and first["X-Export-Built"]
    second = client.get(url)
    assert second.status_code == 200
    assert (second["X-Export-Built"], second["ETag"], second.content) == (
        first["X-Export-Built"],
        first["ETag"],
        first.content,
    )  # the kept copy, not built again
    assert "X-Export-Stale" not in second
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    result_record(game_id=games[1].pk, result=Result.DRAW, user=organiser)
    renewed = client.get(url)
    assert renewed.status_code == 200 and "X-Export-Stale" not in renewed
    assert renewed["X-Export-Built"] != first["X-Export-Built"] and renewed["ETag"] != first["ETag"]
    assert renewed.content != first.content


def test_the_standings_csv_shows_the_new_result():
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    client, url = APIClient(), f"/api/v1/events/{event.slug}/standings.csv"
    white = str(games[0].white.start_number)
    assert points_of(client.get(url)).get(white) != 1
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser)
    after = points_of(client.get(url))
    assert after[white] == 1


def test_while_a_worker_builds_the_reader_gets_503_then_the_previous_copy_marked_stale():
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser)
    client, url = APIClient(), f"/api/v1/events/{event.slug}/standings.csv"

    with no_worker_yet():
        waiting = client.get(url)
        assert waiting.status_code == 503 and int(waiting["Retry-After"]) >= 1
        assert waiting.json()["code"] == "export_being_built"
        assert client.get(url).status_code == 503  # no copy until the worker builds one
    assert tasks.export_build("event", event.slug, "standings-csv")  # the worker takes the build
    with no_worker_yet():
        built = client.get(url)
    assert built.status_code == 200 and "X-Export-Stale" not in built
    assert points_of(built)[str(games[0].white.start_number)] == 1

    result_record(game_id=games[1].pk, result=Result.BLACK_WINS, user=organiser)
    with no_worker_yet():
        stale = client.get(url)
    assert stale.status_code == 200
    assert stale["X-Export-Stale"] == "true" and int(stale["Retry-After"]) >= 1
    assert (stale.content, stale["ETag"]) == (built.content, built["ETag"])  # the previous copy, whole

    assert tasks.export_build("event", event.slug, "standings-csv")
    with no_worker_yet():
        renewed = client.get(url)
    assert "X-Export-Stale" not in renewed
    assert points_of(renewed)[str(games[1].black.start_number)] == 1


def test_a_season_bundle_is_kept_and_renewed_by_a_result_of_one_of_its_events():
    event, _entries, games = swiss_event(players=4)
    season = Season.objects.create(league=event.league, name="2026", slug="2026")
    event.season = season
    event.save()
    client, url = APIClient(), f"/api/v1/seasons/{season.pk}/bundle.zip"
    first = client.get(url)
    assert first.status_code == 200 and first["Content-Type"] == "application/zip"
    assert client.get(url)["X-Export-Built"] == first["X-Export-Built"]
    result_record(game_id=games[0].pk, result=Result.DRAW, user=organiser_of(event.league))
    renewed = client.get(url)
    assert renewed["X-Export-Built"] != first["X-Export-Built"] and renewed.content != first.content


def test_the_download_rate_refuses_with_retry_after_before_the_rate_of_other_reads(monkeypatch):
    rates = {"anon": "10/minute", "user": "100/minute", "export": "3/minute"}
    for throttle in (AnonThrottle, UserThrottle, ExportThrottle):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", rates)
    event, _entries, _games = swiss_event(players=4)
    client, url = APIClient(), f"/api/v1/events/{event.slug}/export.trf"
    answers = [client.get(url) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[0]["X-RateLimit-Limit"] == "3"  # the download's rate, the tightest
    assert answers[3].json()["code"] == "throttled" and int(answers[3]["Retry-After"]) >= 1
    assert client.get(f"/api/v1/events/{event.slug}/standings.csv").status_code == 429  # every download alike
    standings = client.get(f"/api/v1/events/{event.slug}/standings/")
    assert standings.status_code == 200  # the other reads still have their own rate
    assert int(standings["X-RateLimit-Limit"]) == 10


def test_a_draft_event_has_no_downloads():
    event, _entries, _games = swiss_event(players=4)
    client, url = APIClient(), f"/api/v1/events/{event.slug}/export.json"
    assert client.get(url).status_code == 200
    event.status = event.Status.DRAFT
    event.save()
    page_cache.pages_changed(event_id=event.pk)  # saved behind the services' back: say what changed, as they do
    assert client.get(url).status_code == 404


def test_moves_held_back_by_the_transmission_delay_reach_the_chess_json_when_due_without_a_new_result():
    """The kept Chess-JSON of a game under a 15-minute delay shows the moves of 15 minutes ago; when the held-back
    moves are due, the sweep renews the copy, though nothing of the event changed meanwhile."""
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    transmission_delay_set(event=event, minutes=15, user=organiser)
    live = games[0]
    now = timezone.now()
    for number, (moves, minutes_ago) in enumerate((("1. d4", 40), ("1. d4 Nf6", 5)), 1):
        pgn_put(game_id=live.pk, text=f"{moves} *", user=organiser)
        GamePgn.objects.filter(game=live, version=number).update(updated_at=now - timedelta(minutes=minutes_ago))
    Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
    page_cache.event_pages_changed(slug=event.slug)  # the versions' times were set behind the site's back
    client, url = APIClient(), f"/api/v1/events/{event.slug}/export.json"

    def moves_shown():
        (tournament,) = json.loads(client.get(url).content)["event"]["tournaments"]
        white = live.white.start_number
        (game,) = [g for g in tournament["gameList"] if g["round"] == 1 and g["white"]["cid"] == white]
        return game["pgn"].split("\n\n", 1)[1].split()

    assert "Nf6" not in moves_shown()  # arrived 5 minutes ago: 10 more to wait
    # ten minutes later (the version's time moved back instead of the clock forward), nothing else changed
    GamePgn.objects.filter(game=live, version=2).update(updated_at=now - timedelta(minutes=16))
    assert "Nf6" not in moves_shown()  # not due yet by the clock: the copy is kept
    assert export_cache.renew_revealed(now=now + timedelta(minutes=11)) == [event.slug]
    assert "Nf6" in moves_shown()
