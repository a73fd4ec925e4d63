"""Restart PostgreSQL during a burst of API writes: failures are clean, the rest succeed, standings end current.

Runs a private PostgreSQL cluster (so the suite's own database is untouched), gunicorn and a Celery
worker against it, and fires results at the API from several threads while the cluster restarts.
"""

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import require
from tests.e2e.worker import TEST_BROKER, redis_answers, wait_until
from tests.helpers import present
from tests.processes import celery_worker_command
from tests.serving import free_port

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


PORT_DB, PORT_WEB = free_port(), free_port()


def _pg_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _as_postgres(*args: str) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else list(args)


@pytest.fixture
def private_postgres():
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    require(initdb is not None and pg_ctl is not None, "PostgreSQL server binaries are not installed")
    assert initdb is not None and pg_ctl is not None  # for mypy: require() has skipped the test otherwise
    data = Path(tempfile.mkdtemp(prefix="pgfault-"))
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    subprocess.run(
        _as_postgres(initdb, "-D", str(data / "db"), "-A", "trust", "-U", "postgres"), check=True, capture_output=True
    )
    options = f"-p {PORT_DB} -k {data} -c listen_addresses=127.0.0.1"

    def ctl(*args):
        subprocess.run(
            _as_postgres(pg_ctl, "-D", str(data / "db"), "-o", options, "-w", "-l", str(data / "log"), *args),
            check=True,
            capture_output=True,
        )

    ctl("start")
    subprocess.run(
        _as_postgres(present(_pg_bin("createdb")), "-h", "127.0.0.1", "-p", str(PORT_DB), "-U", "postgres", "league"),
        check=True,
        capture_output=True,
    )
    try:
        yield ctl, f"postgres://postgres@127.0.0.1:{PORT_DB}/league"
    finally:
        subprocess.run(_as_postgres(pg_ctl, "-D", str(data / "db"), "-m", "immediate", "stop"), capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


def _manage(env, *args) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout


def _api(method, path, token, body=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{PORT_WEB}{path}",
        method=method,
        data=json.dumps(body).encode() if body else None,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, None
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, None


def test_restart_postgres_during_a_burst(private_postgres):
    require(redis_answers(TEST_BROKER), f"Redis does not answer at {TEST_BROKER}")
    ctl, database_url = private_postgres
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": TEST_BROKER.replace("/15", "/13"),
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
    }
    # the database migrated, the demo loaded and a token made in one process (each manage.py started Django anew)
    prepare = (
        "import io; from django.core.management import call_command as run; "
        "run('migrate', '--no-input', stdout=io.StringIO()); run('load_demo', stdout=io.StringIO()); "
        "run('api_token', 'organiser', '--scope', 'organiser')"
    )
    token = _manage(env, "shell", "--no-imports", "-c", prepare).strip()
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{PORT_WEB}", "-w", "2", "--timeout", "30"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        celery_worker_command(),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_until(lambda: _api("GET", "/healthz", token)[0] == 200, timeout=30)
        games = [
            g
            for g in _api("GET", "/api/v1/games/?event=demo-autumn-open&limit=500", token)[1]["results"]
            if g["black"] is not None
        ]
        cycle = ["1-0", "1/2-1/2", "0-1"]
        initial = {g["id"]: g["version"] for g in games}
        outcomes: list[tuple[int, int, dict | None]] = []  # (game id, status, answer)
        lock = threading.Lock()

        def fire(offset):
            for step in range(12):
                game = games[(offset * 3 + step) % len(games)]
                # corrections of a round before the demo's paired later round: that round stays as paired
                body = {"result": cycle[step % 3], "reason": "burst correction", "later_pairing": "keep"}
                status, answer = _api("POST", f"/api/v1/games/{game['id']}/result/", token, body)
                with lock:
                    outcomes.append((game["id"], status, answer))
                time.sleep(0.05)

        threads = [threading.Thread(target=fire, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(0.4)
        ctl("restart", "-m", "fast")  # mid-burst
        for thread in threads:
            thread.join()
        statuses = [status for _, status, _ in outcomes]
        ok = statuses.count(200)
        # 409: a write that met another one in the database (rolled back whole: "try again")
        assert set(statuses) <= {200, 409, 500, 502, 503, 0}, statuses
        assert ok > 0
        print(
            f"\nburst of {len(statuses)} writes across a PostgreSQL restart: {ok} succeeded, "
            f"{len(statuses) - ok} failed cleanly"
        )

        # every accepted change is stored with its audit row, and nothing else is: each game's version is
        # the highest one an accepted write reported, and the audit rows are exactly the accepted changes
        accepted = {
            (game_id, present(answer)["version"])
            for game_id, status, answer in outcomes
            if status == 200 and present(answer)["version"] > initial[game_id]
        }
        now = {
            g["id"]: g["version"]
            for g in _api("GET", "/api/v1/games/?event=demo-autumn-open&limit=500", token)[1]["results"]
        }
        for game_id in initial:
            assert now[game_id] == max([v for g, v in accepted if g == game_id], default=initial[game_id])
        check = (
            "from leagues.models import ResultChange as C, Event as E; "
            "print(C.objects.filter(source='api').count(), "
            "all(e.snapshot.version == e.results_version for e in E.objects.all() if hasattr(e, 'snapshot')))"
        )
        # the audit rows counted, then the sweep run, in one process (it only enqueues the recomputes)
        sweep = "; from django.core.management import call_command; call_command('standings_sweep')"
        assert int(_manage(env, "shell", "--no-imports", "-c", check + sweep).split()[0]) == len(accepted)
        assert wait_until(lambda: _manage(env, "shell", "--no-imports", "-c", check).split()[1] == "True", timeout=60)
    finally:
        for process in (web, worker):
            process.terminate()
            process.wait(timeout=20)
