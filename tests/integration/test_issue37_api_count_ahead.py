"""Issue 37: a web process counts a busy API client's next requests ahead in one Redis round trip and answers them
without asking Redis again (settings API_COUNT_AHEAD; leagues/rate_limits.py, take). The limit still holds across
processes: whatever a process answers was counted first, and a client over its limit is refused with 429 and
Retry-After by every process; the answers it gets are the same bytes and headers as without counting ahead."""

import threading

import pytest
import redis
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from leagues import rate_limits, redis_outage
from leagues.api.throttling import AnonThrottle
from tests.conftest import require
from tests.helpers import played_swiss

pytestmark = pytest.mark.django_db
LIMIT = 64  # a minute: big enough for the process to count several requests ahead


@pytest.fixture(autouse=True)
def counting_ahead(monkeypatch, settings):
    require(django_settings.CACHES["default"]["BACKEND"].endswith("RedisCache"), "Redis is not reachable")
    settings.API_COUNT_AHEAD = 16
    monkeypatch.setattr(AnonThrottle, "THROTTLE_RATES", {"anon": f"{LIMIT}/minute", "user": "100000/minute"})
    monkeypatch.setattr(rate_limits, "_ahead", {})  # this process's counted-ahead requests: the test's own
    monkeypatch.setattr(redis_outage, "_skipped_until", {})  # a Redis made unreachable here is asked again after


def _another_process(monkeypatch):
    """What another web process knows of the client: nothing counted ahead (Redis is shared)."""
    monkeypatch.setattr(rate_limits, "_ahead", {})


def _until_refused(reader, url, most=2 * LIMIT):
    answers: list = []
    while len(answers) < most:
        answers.append(reader.get(url))
        if answers[-1].status_code == 429:
            break
    return answers


def test_a_client_is_answered_its_limit_and_then_refused_in_one_process():
    event, _entries = played_swiss(4)
    answers = _until_refused(APIClient(), f"/api/v1/events/{event.slug}/standings/")
    assert [a.status_code for a in answers] == [200] * LIMIT + [429]
    assert [int(a["X-RateLimit-Remaining"]) for a in answers[:-1]] == list(range(LIMIT - 1, -1, -1))
    refused = answers[-1]
    assert refused.json()["code"] == "throttled" and int(refused["Retry-After"]) >= 1


def test_the_limit_holds_across_processes_and_every_process_refuses_a_client_over_it(monkeypatch):
    """Requests one process counted ahead and was not asked for stay counted: the client gets them from that
    process, never more than its limit in all, and then a 429 from every process."""
    event, _entries = played_swiss(4)
    url, reader = f"/api/v1/events/{event.slug}/standings/", APIClient()
    first_process = rate_limits._ahead
    in_first = [reader.get(url).status_code for _ in range(LIMIT // 2)]
    _another_process(monkeypatch)
    in_second = _until_refused(reader, url)
    monkeypatch.setattr(rate_limits, "_ahead", first_process)
    back_in_first = _until_refused(reader, url)
    answered = in_first + [a.status_code for a in in_second + back_in_first]
    assert answered.count(200) == LIMIT
    for refused in (in_second[-1], back_in_first[-1]):
        assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1


def _unreachable(*_args, **_kwargs):
    raise redis.ConnectionError("Redis is gone")


def test_requests_counted_ahead_are_answered_without_redis_and_the_same_as_the_first(monkeypatch):
    """The cached answer a process gives from what it counted ahead is byte for byte the view's answer, with the
    same validators and caching headers, and a 304 to its ETag; asking Redis would have failed (and failing open
    answers without X-RateLimit-* headers)."""
    monkeypatch.setattr(AnonThrottle, "THROTTLE_RATES", {"anon": "1000/minute", "user": "100000/minute"})
    event, _entries = played_swiss(4)
    url, reader = f"/api/v1/events/{event.slug}/standings/", APIClient()
    rendered = reader.get(url)
    earlier = [reader.get(url) for _ in range(3)]  # each round trip counts more of the next requests ahead
    monkeypatch.setattr(redis.client.Pipeline, "execute", _unreachable)
    from_the_cache = reader.get(url)
    not_modified = reader.get(url, HTTP_IF_NONE_MATCH=rendered["ETag"])
    assert from_the_cache.status_code == 200 and from_the_cache.content == rendered.content
    for header in ("ETag", "Cache-Control", "Vary", "Content-Type", "Last-Modified"):
        assert from_the_cache[header] == rendered[header], header
    assert not_modified.status_code == 304
    for header in ("ETag", "Cache-Control", "Vary"):
        assert not_modified[header] == rendered[header], header
    remaining = [int(a["X-RateLimit-Remaining"]) for a in (rendered, *earlier, from_the_cache, not_modified)]
    assert remaining == list(range(999, 999 - len(remaining), -1))  # one fewer with each answer


def test_with_counting_ahead_off_every_request_asks_redis(monkeypatch, settings):
    settings.API_COUNT_AHEAD = 1
    event, _entries = played_swiss(4)
    url, reader = f"/api/v1/events/{event.slug}/standings/", APIClient()
    reader.get(url), reader.get(url)
    monkeypatch.setattr(redis.client.Pipeline, "execute", _unreachable)
    answer = reader.get(url)
    assert answer.status_code == 200 and "X-RateLimit-Remaining" not in answer  # failed open: Redis was asked


def test_threads_answering_one_client_at_once_answer_its_limit_and_lose_nothing_counted():
    """A web process answers several requests at once: however their round trips interleave, no more than the
    limit is answered, and every request counted is answered or still there for the client's next request."""
    key, limit, answered = "api-test-threads", 200, []

    def client_requests():
        for _ in range(40):
            counted = rate_limits.take(key, limit, 60)
            assert counted is not None
            answered.append(counted[0])

    threads = [threading.Thread(target=client_requests) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    left = rate_limits._ahead[key].left
    assert answered.count(True) + left == limit
    later = [rate_limits.take(key, limit, 60) for _ in range(left + 1)]
    assert [counted and counted[0] for counted in later] == [True] * left + [False]
