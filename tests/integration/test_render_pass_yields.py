"""A worker's render pass yields to a recompute waiting in the queue (issue #37): it renders at most the page in
hand, the pages it has not rendered stay asked for (a reader's newer ask of one kept), and one render pass is sent
for them, which renders them once the recompute has run; their readers get the page as it was meanwhile. With no
recompute waiting, a pass renders every page asked for; the pass that follows a recompute renders nothing while
another recompute waits.

This process is the web process (its test client reads the pages) and plays the worker (it runs the passes); its
broker is a Redis database of its own that no worker takes tasks from, so what a pass sends stays in the queue."""

import json

import pytest
import redis

from leagues import broker, page_cache
from leagues.models import Result
from leagues.page_cache import worker
from leagues.services.results import result_record
from tests.conftest import redis_database, require
from tests.e2e.worker import broker_for_this_process, redis_answers
from tests.factories import organiser_of, swiss_event

pytestmark = pytest.mark.django_db(transaction=True)
BROKER = redis_database(6)  # a broker of its own: no worker anywhere takes its tasks
RECOMPUTES = "recompute"  # the recompute queue's list of the default priority (config/celery.py)
RENDER_PASSES = "recompute\x06\x169"  # its list of priority 9, where render passes wait
LANGUAGES = ("en", "he", "nb")


@pytest.fixture
def stale_pages(settings, client):
    """A 4-player Swiss whose standings in three languages are heavy pages, read before a result (black won on the
    second board), and read again after it while a worker is alive: their readers got the pages as they were, and
    the pages wait for a render pass. Yields (urls, ETags before the result, the winner's and loser's names)."""
    require(page_cache._redis() is not None, "the tests' page cache is not Redis")
    require(redis_answers(BROKER), f"Redis does not answer at {BROKER}")
    settings.PAGE_HEAVY_RENDER_MS = 1  # every page is heavy
    queue = redis.Redis.from_url(BROKER)
    queue.flushdb()
    event, entries, games = swiss_event(players=4)
    urls = [f"/{language}/events/{event.slug}/" for language in LANGUAGES]
    before = [client.get(url)["ETag"] for url in urls]
    result_record(game_id=games[1].pk, result=Result.BLACK_WINS, user=organiser_of(event.league))  # in-process
    with broker_for_this_process(BROKER):
        broker.record_heartbeat()
        worker._worker_alive = (False, 0.0)  # ask for the heartbeat now
        assert [client.get(url)["ETag"] for url in urls] == before  # the pages as they were
        assert queue.llen(RENDER_PASSES) == 1  # one pass sent for the three
        queue.delete(RENDER_PASSES)  # the worker has taken it
        yield event, urls, before, (entries[3].player.name, entries[1].player.name)
    queue.flushdb()
    worker._worker_alive = (False, 0.0)


def _asked(slug: str) -> dict:
    return page_cache._redis().hgetall(page_cache._asked_key(slug))


def _shows_the_result(client, url: str, before: str, names: tuple[str, str]) -> bool:
    answer = client.get(url)
    page = answer.content.decode()
    winner, loser = names
    return answer["ETag"] != before and page.index(winner) < page.index(loser)


def test_a_render_pass_yields_to_a_waiting_recompute_and_a_later_pass_renders_the_rest(
    stale_pages, client, monkeypatch
):
    event, urls, before, names = stale_pages
    queue = redis.Redis.from_url(BROKER)
    asked = _asked(event.slug)
    assert len(asked) == len(urls)
    rendered: list[str] = []
    newer: dict[bytes, str] = {}

    def a_recompute_arrives_while_the_first_page_renders(meta):
        if not rendered:
            assert broker.enqueue_recompute(event.pk)  # a result saved meanwhile
            # another reader asks for a page the pass has not rendered yet
            name = next(name for name, kept in asked.items() if json.loads(kept) != meta)
            newer[name] = json.dumps({**json.loads(asked[name]), "HTTP_ACCEPT": "text/html"})
            page_cache._redis().hset(page_cache._asked_key(event.slug), name, newer[name])
        rendered.append(meta["PATH_INFO"])
        real_render_as_asked(meta)

    real_render_as_asked = worker._render_as_asked
    monkeypatch.setattr(worker, "_render_as_asked", a_recompute_arrives_while_the_first_page_renders)
    assert page_cache.render_pass(event.slug) == 1
    # the page in hand is rendered; the other two are still asked for, the newer ask kept, and one pass is sent
    [(name, _meta)] = newer.items()
    left = _asked(event.slug)
    assert len(left) == 2 and left[name] == newer[name].encode()
    assert queue.llen(RENDER_PASSES) == 1 and queue.llen(RECOMPUTES) == 1
    fresh = [url for url, etag in zip(urls, before, strict=True) if _shows_the_result(client, url, etag, names)]
    assert fresh == rendered
    # the pages not rendered: their readers still get them as they were, and ask for nothing new (a pass is queued)
    waiting = [url for url in urls if url not in rendered]
    assert [client.get(url)["ETag"] for url in waiting] == [before[urls.index(url)] for url in waiting]
    assert queue.llen(RENDER_PASSES) == 1

    # the worker runs the recompute, then takes the pass: it renders the two pages left
    queue.delete(RECOMPUTES, RENDER_PASSES)
    assert page_cache.render_pass(event.slug) == 2
    assert not _asked(event.slug) and not queue.llen(RENDER_PASSES)
    assert sorted(rendered) == sorted(urls)
    assert all(_shows_the_result(client, url, etag, names) for url, etag in zip(urls, before, strict=True))


def test_after_a_recompute_no_page_is_rendered_while_another_recompute_waits(stale_pages, client):
    """On a busy night every event's standings come before any page: the render pass that follows a recompute
    renders nothing while another recompute waits in the queue (on a saturated machine, a page's render in the
    recompute workers held every waiting result back by about half a second). The pages stay asked for, their
    readers get them as they were, and one pass is sent behind the waiting recompute, which renders them."""
    event, urls, before, names = stale_pages
    queue = redis.Redis.from_url(BROKER)
    page_cache._redis().delete(page_cache._pass_key(event.slug))  # the readers' pass has run meanwhile
    assert broker.enqueue_recompute(event.pk)  # another result, its recompute waiting
    assert page_cache.render_pass(event.slug, after_recompute=True) == 0
    assert len(_asked(event.slug)) == len(urls)
    assert queue.llen(RENDER_PASSES) == 1 and queue.llen(RECOMPUTES) == 1
    assert [client.get(url)["ETag"] for url in urls] == before
    # the worker runs the recompute, then takes the pass: it renders the three pages
    queue.delete(RECOMPUTES, RENDER_PASSES)
    assert page_cache.render_pass(event.slug) == len(urls)
    assert all(_shows_the_result(client, url, etag, names) for url, etag in zip(urls, before, strict=True))


def test_with_no_recompute_waiting_a_render_pass_renders_every_page_asked_for(stale_pages, client):
    event, urls, before, names = stale_pages
    queue = redis.Redis.from_url(BROKER)
    assert page_cache.render_pass(event.slug) == len(urls)
    assert not _asked(event.slug) and not queue.llen(RENDER_PASSES)
    assert all(_shows_the_result(client, url, etag, names) for url, etag in zip(urls, before, strict=True))


def test_a_process_asks_for_a_page_left_to_a_worker_once_per_stamp_trust_not_on_every_read(
    stale_pages, client, settings
):
    """While a worker is behind, every read of a busy open's heavy page would ask the shared cache for the page, ask
    for its render and send a pass again: the process that left it to a worker serves its own copy of the page as it
    was for as long as it trusts a stamp it read (PAGE_STAMP_SECONDS), then asks again."""
    event, urls, before, names = stale_pages
    queue = redis.Redis.from_url(BROKER)
    url = urls[0]
    settings.PAGE_STAMP_SECONDS = 3600
    assert client.get(url)["ETag"] == before[0]  # left to a worker now, within the hour
    # a worker's pass takes what was asked (and frees its key: the next ask sends a pass)
    page_cache._redis().delete(page_cache._asked_key(event.slug), page_cache._pass_key(event.slug))
    # within the hour: the page as it was, its reader's copy current (304), and nothing asked or sent again
    assert client.get(url)["ETag"] == before[0]
    assert client.get(url, HTTP_IF_NONE_MATCH=before[0]).status_code == 304
    assert not _asked(event.slug) and not queue.llen(RENDER_PASSES)
    # once that is over, its next reader asks again, and a pass is sent
    settings.PAGE_STAMP_SECONDS = 0
    assert client.get(url)["ETag"] == before[0]
    assert list(_asked(event.slug)) == [b"standings-en"] and queue.llen(RENDER_PASSES) == 1
    assert page_cache.render_pass(event.slug) == 1
    assert _shows_the_result(client, url, before[0], names)
