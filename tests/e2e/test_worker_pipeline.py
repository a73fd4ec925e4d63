"""End to end: a result recorded through the service reaches the standings page via a real worker."""

import tempfile
from pathlib import Path

import pytest
import redis

from leagues.models import Result, StandingsSnapshot
from leagues.services.results import result_record
from tests.conftest import require
from tests.e2e.worker import TEST_BROKER, broker_for_this_process, celery_worker, redis_answers, wait_until
from tests.factories import organiser_of, swiss_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(on_postgres):
    require(redis_answers(TEST_BROKER), f"Redis does not answer at {TEST_BROKER}")
    redis.Redis.from_url(TEST_BROKER).flushdb()
    with (
        celery_worker(TEST_BROKER, log_path=Path(tempfile.gettempdir()) / "e2e-worker.log") as process,
        broker_for_this_process(TEST_BROKER),
    ):
        yield process


def test_result_reaches_the_standings_page_through_the_worker(worker, client):
    event, entries, games = swiss_event(players=4)
    user = organiser_of(event.league)
    url = f"/en/events/{event.slug}/"

    result_record(game_id=games[1].pk, result=Result.BLACK_WINS, user=user)

    # an answer at all, not how soon: the bound is only there so a lost task fails the test instead of hanging it
    snapshot = wait_until(lambda: StandingsSnapshot.objects.filter(event=event, version=1).first(), timeout=120)
    assert snapshot is not None, "the worker did not store standings within two minutes"
    html = client.get(url).content.decode()
    assert "Being updated" not in html
    winner = entries[3].player.name  # start number 4 beat number 2 with black
    assert html.index(winner) < html.index(entries[1].player.name)
    assert snapshot.rows[0]["start_number"] == 4
