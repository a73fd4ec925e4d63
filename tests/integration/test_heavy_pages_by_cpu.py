"""A page is heavy (rendered by a worker from then on, its readers getting the page as it was meanwhile) by the CPU
time of its render, not by how long the render waited: on a busy machine every render waits for a CPU (and for the
database), and measured by the clock every page became heavy, sending renders the web would do in milliseconds to
the workers, behind the recomputes, while the readers kept the pages as they were (issue #37)."""

import time

import pytest

from leagues import page_cache, selectors
from tests.conftest import require
from tests.factories import swiss_event

pytestmark = pytest.mark.django_db


def _heavy_pages(slug: str) -> set[str]:
    return {name.decode() for name in page_cache._redis().hgetall(page_cache._heavy_key(slug))}


@pytest.mark.parametrize(("render", "heavy"), [("waits", False), ("computes", True)])
def test_a_page_is_heavy_by_its_renders_cpu_time_not_by_its_wait(settings, client, monkeypatch, render, heavy):
    require(page_cache._redis() is not None, "the tests' page cache is not Redis")
    settings.PAGE_HEAVY_RENDER_MS = 100
    event, _entries, _games = swiss_event(players=4)
    standings = selectors.event_standings

    def slow(**asked):
        if render == "waits":  # for a CPU on a busy machine, or for the database: 300 ms, no CPU
            time.sleep(0.3)
        until = time.thread_time() + 0.3
        while render == "computes" and time.thread_time() < until:  # 300 ms of this thread's CPU
            sum(range(1000))
        return standings(**asked)

    monkeypatch.setattr(selectors, "event_standings", slow)
    assert client.get(f"/en/events/{event.slug}/standings.csv").status_code == 200
    assert (_heavy_pages(event.slug) == {"standings-csv-en"}) is heavy
