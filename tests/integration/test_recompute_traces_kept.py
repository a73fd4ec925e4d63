"""The recompute's second phase keeps each participant's compact traces as it last built them and builds and encodes
again only those a result changed (issue #37): after every result, every participant's stored traces read back as the
engine explains them now, those of players the result did not touch unchanged, and the column is stored as it was
built."""

import json

import pytest
from django.db import connection

from leagues import recompute
from leagues.models import Event, Result, StandingsSnapshot
from leagues.selectors import stored_traces
from leagues.services.results import result_record
from tests.factories import organiser_of, swiss_event
from tests.helpers import engine_snapshot
from tiebreaks.engine.compact import ParticipantBuilder

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _stored(event) -> dict:
    return StandingsSnapshot.objects.get(event=event).explanations


def _read_as_the_engine_explains_now(event) -> None:
    stored = _stored(event)
    now = json.loads(json.dumps(engine_snapshot(Event.objects.get(pk=event.pk))["explanations"]))
    assert {number: stored_traces(traces) for number, traces in stored.items()} == now


def test_a_result_encodes_again_the_traces_it_changed_only_and_every_trace_reads_as_computed_now(monkeypatch):
    event, _entries, games = swiss_event(players=6, tiebreak_criteria=["BH", "SB", "PS", "WIN"])
    user = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=user)  # 1 beats 4
    first = _stored(event)
    _read_as_the_engine_explains_now(event)

    encoded = []
    dumps = json.dumps

    class Counting:
        @staticmethod
        def dumps(value, **kwargs):
            encoded.append(value["sn"])
            return dumps(value, **kwargs)

    built = []
    build = ParticipantBuilder.build

    def counted_build(builder, i):
        built.append(builder.ctx.ct.start_numbers[i])
        return build(builder, i)

    monkeypatch.setattr(recompute, "json", Counting)
    monkeypatch.setattr(ParticipantBuilder, "build", counted_build)
    result_record(game_id=games[1].pk, result=Result.DRAW, user=user)  # 2 and 5 draw
    monkeypatch.undo()

    second = _stored(event)
    _read_as_the_engine_explains_now(event)
    # the draw changed the points of 2 and 5 (their opponents in round 1 are each other): only theirs were built
    # and encoded, the others' inputs (their rounds and their opponents') being the same
    assert sorted(built) == sorted(encoded) == [2, 5]
    assert second["2"] != first["2"] and second["5"] != first["5"]
    assert all(second[n] == first[n] for n in ("1", "3", "4", "6"))


def test_the_snapshot_columns_written_by_every_recompute_are_compressed_with_lz4():
    """The rows and the traces of a big open are compressed with LZ4 (cheaper to write and to read back than pglz)."""
    # pg_version: an attribute of PostgreSQL's connection only (not of the connection type mypy knows)
    if connection.vendor != "postgresql" or getattr(connection, "pg_version", 0) < 140000:
        pytest.skip("LZ4 compression of a column: PostgreSQL 14 and later")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute WHERE attrelid = 'leagues_standingssnapshot'::regclass"
            " AND attname IN ('rows', 'explanations')"
        )
        assert dict(cursor.fetchall()) == {"rows": "l", "explanations": "l"}
