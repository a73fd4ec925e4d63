"""Two web hosts and two worker hosts that share nothing but PostgreSQL and Redis.

Each web (gunicorn) and each Celery worker runs in its own network namespace (tests/e2e/hosts.py) with its own
environment and its own process memory (page copies, page stamps). A result entered on one web shows on the
other's standings within the page-stamp time; API throttles and Idempotency-Key retries hold across both webs;
a worker killed in the middle of a recompute loses nothing. Bounded: about 60 requests, a minute at most.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
import redis

from leagues.models import Event, Game, Result, ResultChange, Scope, StandingsSnapshot
from leagues.services.tokens import api_token_create
from tests.conftest import require
from tests.e2e.hosts import hosts, namespaces_available
from tests.e2e.worker import ROOT, celery_worker, database_url, redis_answers, wait_until, worker_ready
from tests.factories import UserFactory, organiser_of, swiss_event
from tests.helpers import engine_snapshot, explained_snapshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LOGS = Path(tempfile.gettempdir())
REDIS_DB = 9  # a database of its own: no other test's worker takes these tasks
STAMP_SECONDS = 1.0
USER_RATE = 12  # API requests a minute per user, counted across both webs
RECOMPUTE_DELAY = 1.5  # seconds each recompute sleeps, so a worker can be killed in the middle of one


def _request(url, *, token=None, body=None, headers=None):
    """(status, headers, JSON answer) of one request; no retries."""
    request = urllib.request.Request(
        url,
        method="POST" if body is not None else "GET",
        data=json.dumps(body).encode() if body is not None else None,
        headers={
            **({"Authorization": f"Token {token}"} if token else {}),
            "Content-Type": "application/json",
            **(headers or {}),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            return response.status, response.headers, json.loads(raw) if raw[:1] in (b"{", b"[") else raw.decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read().decode(errors="replace")


@contextmanager
def _web(host, env, log_path):
    """A gunicorn on `host`, started: its address (the caller waits for it with `_web_ready`)."""
    process = subprocess.Popen(
        host.command(
            sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"{host.address}:8000", "-w", "1", "--timeout", "30"
        ),
        cwd=ROOT,
        env={**os.environ, **env, "ALLOWED_HOSTS": host.address},
        stdout=open(log_path, "wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield f"http://{host.address}:8000"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _web_ready(base: str) -> None:
    assert wait_until(lambda: _answers(f"{base}/ping"), timeout=60), f"web at {base} did not start"


def _answers(url) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except OSError:
        return False


def _environment(host, prefix):
    """What every process of the site is given: the shared services, as this host reaches them."""
    db = database_url().replace("127.0.0.1", host.gateway).replace("localhost", host.gateway)
    shared_redis = f"redis://{host.gateway}:6379/{REDIS_DB}"
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DATABASE_URL": db,
        "CELERY_BROKER_URL": shared_redis,
        "CACHE_URL": shared_redis,
        "CACHE_KEY_PREFIX": prefix,
        "PAGE_STAMP_SECONDS": str(STAMP_SECONDS),
        "API_USER_RATE": f"{USER_RATE}/minute",
        "API_ANON_RATE": "100000/minute",
        "CELERY_VISIBILITY_TIMEOUT": "3",
        "CELERY_RESTORE_INTERVAL": "1",
        "RECOMPUTE_TEST_DELAY": str(RECOMPUTE_DELAY),
        "LOG_LEVEL": "INFO",
    }


def _snapshot_version(event) -> int:
    return StandingsSnapshot.objects.filter(event=event).values_list("version", flat=True).first() or 0


def _results_version(event) -> int:
    return Event.objects.filter(pk=event.pk).values_list("results_version", flat=True).get()


@pytest.fixture
def site(on_postgres):
    require(namespaces_available(), "network namespaces are not available (needs root and iproute2)")
    local_redis = f"redis://127.0.0.1:6379/{REDIS_DB}"
    require(redis_answers(local_redis), f"Redis does not answer at {local_redis}")
    redis.Redis.from_url(local_redis).flushdb()
    prefix = f"several-hosts-{os.getpid()}"
    logs = {label: LOGS / f"hosts-{label}.log" for label in ("a", "b", "w1", "w2")}
    for log in logs.values():
        log.unlink(missing_ok=True)
    with hosts(list(logs)) as (host_a, host_b, host_w1, host_w2), ExitStack() as stack:
        webs = [
            stack.enter_context(_web(host, _environment(host, prefix), logs[label]))
            for host, label in ((host_a, "a"), (host_b, "b"))
        ]
        workers = {
            label: stack.enter_context(
                celery_worker(
                    _environment(host, prefix)["CELERY_BROKER_URL"],
                    name=label,
                    log_path=logs[label],
                    env_extra=_environment(host, prefix),
                    host=host,
                    ping_url=local_redis,
                    ready=False,
                )
            )
            for host, label in ((host_w1, "w1"), (host_w2, "w2"))
        }
        # the four processes start together (in the time of the slowest, not of all four in turn), then are waited for
        for base in webs:
            _web_ready(base)
        for label in workers:
            worker_ready(local_redis, label)
        yield webs, workers, logs


def test_two_webs_and_two_workers_share_only_postgres_and_redis(site):
    (web_a, web_b), workers, logs = site
    event, entries, games = swiss_event(players=8, rounds=3)
    organiser = organiser_of(event.league)
    _, token = api_token_create(user=organiser, name="secretary", scopes=[Scope.ORGANISER])
    standings = f"/api/v1/events/{event.slug}/standings/"

    # B has the standings page and its stamp in its own memory before A changes anything
    for _ in range(2):
        assert _request(web_b + standings)[0] == 200
        assert _request(f"{web_b}/en/events/{event.slug}/")[0] == 200

    # a result entered on A shows on B's standings within the page-stamp time after the worker stored it
    status, _, game = _request(f"{web_a}/api/v1/games/{games[0].pk}/result/", token=token, body={"result": "1-0"})
    assert status == 200, game
    version = _results_version(event)
    assert wait_until(lambda: _snapshot_version(event) >= version, timeout=20, step=0.02)
    stored_at = time.monotonic()
    late, shown = [], False  # B's answers without the result, asked later than the stamp time after it was stored
    while time.monotonic() - stored_at < 10:
        asked = time.monotonic() - stored_at
        shown = _request(web_b + standings)[2]["version"] >= version
        if shown:
            break
        if asked > STAMP_SECONDS + 0.5:  # the stamp's renewal follows the snapshot's commit at once
            late.append(round(asked, 2))
        time.sleep(0.05)
    assert shown and not late, f"web B still showed the old standings {late} s after the result was stored"
    rows = _request(web_b + standings)[2]["rows"]
    assert [row["points"] for row in rows if row["start_number"] == entries[0].start_number] == [1]
    page = _request(f"{web_b}/en/events/{event.slug}/")[2]
    assert entries[0].player.name in page and "Being updated" not in page

    # an Idempotency-Key retry on the other web gives the first answer and records nothing more
    retry, draw = {"Idempotency-Key": "draw-board-2"}, {"result": "1/2-1/2"}
    first = _request(f"{web_a}/api/v1/games/{games[1].pk}/result/", token=token, body=draw, headers=retry)
    again = _request(f"{web_b}/api/v1/games/{games[1].pk}/result/", token=token, body=draw, headers=retry)
    assert first[0] == again[0] == 200 and again[2] == first[2]
    assert again[1]["Idempotent-Replay"] == "true"
    assert ResultChange.objects.filter(game=games[1]).count() == 1
    other = _request(f"{web_b}/api/v1/games/{games[1].pk}/result/", token=token, body={"result": "0-1"}, headers=retry)
    assert other[0] == 422  # the key was used for another request, on the other web
    assert Game.objects.get(pk=games[1].pk).result == Result.DRAW

    # the throttle counts a user's requests on both webs together
    _, reader = api_token_create(user=UserFactory(), name="reader", scopes=[Scope.READ])
    answers = [_request((web_a, web_b)[n % 2] + standings, token=reader)[0] for n in range(USER_RATE)]
    assert answers == [200] * USER_RATE
    assert _request(web_a + standings, token=reader)[0] == 429
    assert _request(web_b + standings, token=reader)[0] == 429

    # a worker killed in the middle of a recompute: the other one finishes it, nothing is lost
    wait_until(lambda: _snapshot_version(event) >= _results_version(event), timeout=20)
    started = {label: _recomputes(log) for label, log in logs.items() if label in workers}
    status, _, _ = _request(f"{web_a}/api/v1/games/{games[2].pk}/result/", token=token, body={"result": "0-1"})
    assert status == 200
    victim = wait_until(
        lambda: next((label for label in workers if _recomputes(logs[label]) > started[label]), None), timeout=20
    )
    assert victim, "no worker started the recompute"
    os.killpg(workers[victim].pid, signal.SIGKILL)
    workers[victim].wait()
    version = _results_version(event)
    assert _snapshot_version(event) < version  # killed before it stored anything
    survivor = next(label for label in workers if label != victim)
    assert wait_until(lambda: _snapshot_version(event) >= version, timeout=30), "the killed recompute never ran again"
    assert _recomputes(logs[survivor]) > started[survivor]

    # and results keep coming through the other web while one worker is down
    status, _, _ = _request(f"{web_b}/api/v1/games/{games[3].pk}/result/", token=token, body={"result": "1-0"})
    assert status == 200
    final = _results_version(event)
    assert final == 4
    assert wait_until(lambda: _snapshot_version(event) >= final, timeout=30)
    snapshot = wait_until(lambda: explained_snapshot(event, final), timeout=30)  # its second phase too
    assert snapshot.rows == engine_snapshot(Event.objects.get(pk=event.pk))["rows"]
    assert wait_until(lambda: _request(web_a + standings)[2]["version"] == final, timeout=5)


def _recomputes(log: Path) -> int:
    return log.read_text(errors="replace").count("recompute started") if log.exists() else 0
