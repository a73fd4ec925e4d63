"""The recompute is idempotent and an older computation never overwrites a newer snapshot."""

import pytest

from leagues.models import Event, Result, StandingsSnapshot
from leagues.recompute import stale_event_ids, standings_recompute_event, store_snapshot
from leagues.services.results import result_record
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
