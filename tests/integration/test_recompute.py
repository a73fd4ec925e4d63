"""The recompute is idempotent and an older computation never overwrites a newer snapshot."""

import json
import logging
import threading
import time
import zlib
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
from tests.e2e.worker import TEST_BROKER, broker_for_this_process, wait_until
from tests.factories import organiser_of, swiss_event
from tests.helpers import engine_snapshot, present

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def test_recompute_twice_is_harmless():
    event, _entries, games = swiss_event(players=4)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser_of(event.league))
    first = StandingsSnapshot.objects.get(event=event)

    assert standings_recompute_event(event.pk) is False  # already current: nothing written
    again = StandingsSnapshot.objects.get(event=event)
    assert (again.version, again.rows, again.computed_at) == (first.version, first.rows, first.computed_at)


def test_older_computation_never_overwrites_a_newer_snapshot():
    event, _entries, games = swiss_event(players=4)
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
    event, _entries, games = swiss_event(players=4)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser_of(event.league))
    assert stale_event_ids() == []
    Event.objects.filter(pk=event.pk).update(results_version=5)  # e.g. saved while the broker was down
    assert stale_event_ids() == [event.pk]
    standings_recompute_event(event.pk)
    assert stale_event_ids() == []


def test_sweep_renews_pages_a_dying_worker_left_saying_being_updated(client):
    event, _entries, games = swiss_event(players=4)
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
    event, _entries, _games = swiss_event(players=4)
    asked = {"PATH_INFO": f"/he/events/{event.slug}/", "SERVER_NAME": "testserver", "SERVER_PORT": "80"}
    page_cache._redis().hset(page_cache._asked_key(event.slug), "standings-he", json.dumps(asked))
    with translation.override("en"):
        assert page_cache.render_pass(event.slug) == 1
        assert translation.get_language() == "en"
        assert gettext("Start number") == "Start number"


def _holding_the_lock(event) -> bool:
    """Whether a process holds the event's recompute lock (PostgreSQL's advisory locks, as another worker sees them)."""
    from django.db import connection

    key = zlib.crc32(f"standings:{event.pk}".encode())
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = %s", [key])
        return cursor.fetchone()[0] > 0


def _waiting_for_the_lock(event) -> bool:
    """Whether a process waits for the event's recompute lock (as PostgreSQL sees it)."""
    from django.db import connection

    key = zlib.crc32(f"standings:{event.pk}".encode())
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = %s", [key]
        )
        return cursor.fetchone()[0] > 0


def _recompute_in_a_thread(event, settings, monkeypatch) -> tuple[threading.Thread, list, threading.Event]:
    """A worker recomputing the event, held in the middle of it (where RECOMPUTE_TEST_DELAY sleeps) until the test
    sets the returned event: however slow the machine, it holds the lock for as long as the test needs."""
    from django.db import connection

    returned, release, sleep = [], threading.Event(), time.sleep
    settings.RECOMPUTE_TEST_DELAY = 1
    monkeypatch.setattr(
        time, "sleep", lambda seconds: release.wait() if threading.current_thread().name == "holder" else sleep(seconds)
    )

    def work():
        try:
            returned.append(standings_recompute_event(event.pk))
        finally:
            connection.close()

    worker = threading.Thread(target=work, name="holder", daemon=True)
    worker.start()
    assert wait_until(lambda: _holding_the_lock(event), timeout=120, step=0.01)
    return worker, returned, release


def _points(event) -> dict:
    return {row["start_number"]: row["points"] for row in StandingsSnapshot.objects.get(event=event).rows}


@pytest.mark.django_db(transaction=True)  # threads: each its own connection; the lock is held across them
def test_results_saved_while_a_worker_recomputes_are_read_by_it_once_done_and_never_lost(settings, caplog, monkeypatch):
    """Two workers: a result saved while one recomputes its event sends one recompute (another result meanwhile
    sends none: it waits in the queue already); the other worker leaves it to the one recomputing, which reads the
    newer results once done (no waiting for the lock, no retry through the broker). Both results are in the
    standings; only the worker holding the lock computed them."""
    from leagues import broker

    event, _entries, games = swiss_event(players=6)
    user = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=user)  # in-process: snapshot of version 1
    Event.objects.filter(pk=event.pk).update(results_version=2)  # a result's version, its recompute under way
    caplog.set_level(logging.INFO, logger="leagues.recompute")
    caplog.clear()
    with broker_for_this_process(TEST_BROKER):
        client = present(broker.redis_client())
        holder, returned, release = _recompute_in_a_thread(event, settings, monkeypatch)
        try:
            assert broker.enqueue_recompute(event.pk) is True  # a result saved meanwhile: its recompute is sent
            result_record(game_id=games[1].pk, result=Result.DRAW, user=user)  # its own version
            result_record(game_id=games[2].pk, result=Result.BLACK_WINS, user=user)
            assert broker.enqueue_recompute(event.pk) is False  # coalesced into the recompute waiting in the queue
            assert standings_recompute_event(event.pk) is False  # that one, taken by the other worker: left
        finally:
            release.set()
            holder.join(timeout=120)
            client.delete(broker._pending_key(event.pk), broker._rerun_key(event.pk))
    assert returned == [True]
    assert StandingsSnapshot.objects.get(event=event).version == Event.objects.get(pk=event.pk).results_version == 4
    # 1-4 1-0, 2-5 ½-½, 3-6 0-1
    assert _points(event) == {1: 1.0, 2: 0.5, 3: 0.0, 4: 0.0, 5: 0.5, 6: 1.0}
    started = [record for record in caplog.records if record.getMessage().startswith("recompute started")]
    assert started and {record.threadName for record in started} == {"holder"}


@pytest.mark.django_db(transaction=True)  # threads: each its own connection; the lock is held across them
def test_in_process_a_recompute_waits_for_the_one_under_way_and_reads_the_newer_result(settings, monkeypatch):
    """Without a broker (tasks run in the process that saves) there is no worker to leave the recompute to: the
    result's recompute waits for the one under way, then reads the result."""
    event, _entries, games = swiss_event(players=4)
    user = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=user)
    Event.objects.filter(pk=event.pk).update(results_version=2)
    holder, returned, release = _recompute_in_a_thread(event, settings, monkeypatch)

    def let_go_once_the_result_waits():  # the holder goes on once PostgreSQL shows the result's recompute waiting
        from django.db import connection

        try:
            if wait_until(lambda: _waiting_for_the_lock(event), timeout=120):
                release.set()
        finally:
            connection.close()

    letting_go = threading.Thread(target=let_go_once_the_result_waits, daemon=True)
    letting_go.start()
    try:
        result_record(game_id=games[1].pk, result=Result.DRAW, user=user)  # its recompute runs here, after the holder's
    finally:
        release.set()
        letting_go.join(timeout=120)
        holder.join(timeout=120)
    assert returned == [True]
    assert StandingsSnapshot.objects.get(event=event).version == 3
    assert _points(event) == {1: 1.0, 2: 0.5, 3: 0.0, 4: 0.5}  # 1-3 1-0, 2-4 ½-½


def test_a_recompute_finds_the_corrections_to_describe_without_reading_every_change_ever_made():
    """After every result a recompute looks for the corrections whose effect on the standings it has not described
    yet: a handful, among every change of every event (the audit trail of years of leagues). On PostgreSQL it reads
    them from their partial index, never the whole trail; a correction found still gets what it changed."""
    from django.db import connection

    from leagues.models import ResultChange
    from leagues.recompute import changes_undescribed

    require(connection.vendor == "postgresql", "the query plan is PostgreSQL's")
    event, _entries, games = swiss_event(players=6, tiebreak_criteria=["BH", "SB"])
    user = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=user)
    trail = [ResultChange(game=games[1], before="", after="1-0", source="form") for _ in range(5000)]
    ResultChange.objects.bulk_create(trail)  # other results' first entries: nothing for a recompute to describe
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE leagues_resultchange")
    result_record(game_id=games[0].pk, result=Result.DRAW, user=user, reason="misheard")  # a correction
    corrections = ResultChange.objects.filter(game__round__event=event, before="1-0")
    assert corrections.get().standings_impact  # the recompute described it
    ResultChange.objects.filter(pk=corrections.get().pk).update(standings_impact=None)
    [pending] = changes_undescribed(event.pk)
    plan = pending.explain()
    assert "resultchange_undescribed" in plan and "Seq Scan on leagues_resultchange" not in plan, plan
