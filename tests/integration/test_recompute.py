"""The recompute is idempotent and an older computation never overwrites a newer snapshot."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext

from leagues import page_cache
from leagues.models import Event, Result, StandingsSnapshot
from leagues.page_cache import event_pages_changed
from leagues.recompute import LOST_RENEWAL_GRACE, stale_event_ids, standings_recompute_event, store_snapshot
from leagues.services.results import result_record
from leagues.tasks import standings_sweep
from tests.conftest import require
from tests.factories import organiser_of, swiss_event
from tests.helpers import engine_snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_recompute_twice_is_harmless():
    event, entries, games = swiss_event(players=4)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser_of(event.league))
    first = StandingsSnapshot.objects.get(event=event)

    assert standings_recompute_event(event.pk) is False  # already current: nothing written
    again = StandingsSnapshot.objects.get(event=event)
    assert (again.version, again.rows, again.computed_at) == (first.version, first.rows, first.computed_at)


def test_older_computation_never_overwrites_a_newer_snapshot():
    event, entries, games = swiss_event(players=4)
    user = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=user)
    old = engine_snapshot(Event.objects.get(pk=event.pk))  # computed at version 1
    result_record(game_id=games[1].pk, result=Result.BLACK_WINS, user=user)
    new = engine_snapshot(Event.objects.get(pk=event.pk))  # version 2

    StandingsSnapshot.objects.all().delete()
    assert store_snapshot(event.pk, 2, new, 5) is True
    assert store_snapshot(event.pk, 1, old, 5) is False  # the late, older run loses

    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.version == 2
    points = {row["start_number"]: row["points"] for row in snapshot.rows}
    assert points == {1: 1.0, 2: 0.0, 3: 0.0, 4: 1.0}


def test_sweep_finds_events_whose_snapshot_is_behind():
    event, entries, games = swiss_event(players=4)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser_of(event.league))
    assert stale_event_ids() == []
    Event.objects.filter(pk=event.pk).update(results_version=5)  # e.g. saved while the broker was down
    assert stale_event_ids() == [event.pk]
    standings_recompute_event(event.pk)
    assert stale_event_ids() == []


def test_sweep_renews_pages_a_dying_worker_left_saying_being_updated(client):
    event, entries, games = swiss_event(players=4)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser_of(event.league))
    Event.objects.filter(pk=event.pk).update(results_version=2)  # a second result, saved while the broker was down
    event_pages_changed(slug=event.slug)
    page = f"/en/events/{event.slug}/"
    assert "Being updated" in client.get(page).content.decode()
    # a worker stores the new snapshot and is killed before it renews the pages
    assert store_snapshot(event.pk, 2, engine_snapshot(Event.objects.get(pk=event.pk)), 5) is True
    assert "Being updated" in client.get(page).content.decode()  # the cached page, still current by its stamp
    standings_sweep()
    assert "Being updated" in client.get(page).content.decode()  # within the grace, the worker may still renew
    earlier = timezone.now() - LOST_RENEWAL_GRACE - timedelta(seconds=1)
    StandingsSnapshot.objects.filter(event=event).update(computed_at=earlier)
    standings_sweep()  # the next beat tick
    assert "Being updated" not in client.get(page).content.decode()
    etag = client.get(page)["ETag"]
    standings_sweep()
    assert client.get(page)["ETag"] == etag  # renewed once, not on every sweep


def test_a_render_pass_leaves_the_workers_language_as_it_was():
    """A worker renders a Hebrew reader's page; the tasks it runs next (an import's refusal, a notice) keep the
    worker's own language, not the last reader's."""
    require(page_cache._redis() is not None, "the tests' page cache is not Redis")
    event, entries, games = swiss_event(players=4)
    asked = {"PATH_INFO": f"/he/events/{event.slug}/", "SERVER_NAME": "testserver", "SERVER_PORT": "80"}
    page_cache._redis().hset(page_cache._asked_key(event.slug), "standings-he", json.dumps(asked))
    with translation.override("en"):
        assert page_cache.render_pass(event.slug) == 1
        assert translation.get_language() == "en"
        assert gettext("Start number") == "Start number"
