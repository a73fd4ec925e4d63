"""Tests: PostgreSQL whenever it answers (always in CI), tasks eager unless a test starts a worker."""

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool

from .base import *  # noqa: F403

IN_CI = env_bool("CI", False)
POSTGRES_URL = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league")


def _postgres_answers(url: str) -> bool:
    cfg = dj_database_url.parse(url)
    try:
        with socket.create_connection((cfg.get("HOST") or "127.0.0.1", int(cfg.get("PORT") or 5432)), timeout=1):
            return True
    except OSError:
        return False


if os.environ.get("DATABASE_URL"):
    pass  # explicit choice wins
elif _postgres_answers(POSTGRES_URL):
    # the live server's threads keep their connection while the browser or the API fuzzer keeps its HTTP connection,
    # as production's pool does (a new PostgreSQL backend for every request was a third of the API fuzzing's time)
    DATABASES = {"default": dj_database_url.parse(POSTGRES_URL, conn_max_age=60)}
    # one test database per run, so test runs side by side never drop each other's database
    DATABASES["default"]["TEST"] = {"NAME": f"test_chess_league_{os.getpid()}"}
elif IN_CI:
    raise ImproperlyConfigured(f"CI=true but PostgreSQL does not answer at {POSTGRES_URL}")

WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True  # the tests' receivers listen on 127.0.0.1
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_BROKER_URL = "memory://"
CELERY_TASK_ALWAYS_EAGER = True
WHITENOISE_AUTOREFRESH = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _ends_with_its_parent() -> None:
    """In the child, before it runs the server: the kernel ends it when the process that started it ends (however
    the test run ends: a run stopped with SIGKILL leaves no server behind)."""
    import ctypes

    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _redis_server_of_this_run() -> str:
    """The address of a Redis server of this test run's own, started on a free port by the run's first process
    (pytest's, before pytest-xdist starts its processes) and inherited by every process of the run (the suite's, and
    the servers and workers the tests start): two runs on one host never empty each other's databases. Without
    `redis-server` (or outside pytest), the host's Redis at 127.0.0.1:6379."""
    inherited = os.environ.get("TEST_REDIS_SERVER")
    if inherited:
        return inherited
    binary = shutil.which("redis-server")
    if binary is None or "pytest" not in sys.modules:
        return "redis://127.0.0.1:6379"
    for _ in range(5):
        port = _free_port()
        server = subprocess.Popen(  # noqa: S603 - the redis-server found on PATH, fixed arguments
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            preexec_fn=_ends_with_its_parent,
        )
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    atexit.register(server.terminate)
                    os.environ["TEST_REDIS_SERVER"] = f"redis://127.0.0.1:{port}"
                    return os.environ["TEST_REDIS_SERVER"]
            except OSError:
                if server.poll() is not None:
                    break  # the port was taken meanwhile: another one
                time.sleep(0.05)
        server.terminate()
    raise ImproperlyConfigured("could not start a Redis server for the tests")


# each of the suite's processes (pytest-xdist: gw0, gw1, ...) its own Redis database, 15 down to 9: the end-to-end
# tests empty theirs (databases 8 and below are tests' own brokers: tests.conftest.redis_database)
_PROCESS = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)
REDIS_URL = os.environ.get("TEST_REDIS_URL") or f"{_redis_server_of_this_run()}/{15 - _PROCESS}"
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"anon": "100000/minute", "user": "100000/minute", "export": "100000/minute"},
}

# every API request counted in Redis: the tests empty their Redis keys between tests, which requests a process
# counted ahead would outlive (the tests of counting ahead set it themselves)
API_COUNT_AHEAD = 1


def _redis_answers(url: str) -> bool:
    cfg = dj_database_url.parse(url.replace("redis://", "postgres://"))
    try:
        with socket.create_connection((cfg.get("HOST") or "127.0.0.1", int(cfg.get("PORT") or 6379)), timeout=1):
            return True
    except OSError:
        return False


# the pages' cache is shared with the worker processes the end-to-end tests start
CACHE_URL = REDIS_URL if _redis_answers(REDIS_URL) else ""
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": CACHE_URL,
        "KEY_PREFIX": f"chess-league-test-{os.getpid()}",
    }
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
}
# each test run (and the workers it starts, which inherit the environment) beats under its own key
WORKER_HEARTBEAT_KEY = os.environ.setdefault(
    "WORKER_HEARTBEAT_KEY", f"chess-league-test-{os.getpid()}:worker-heartbeat"
)
PAGE_STAMP_SECONDS = 0  # tests read pages right after another process changed them
LIVE_REFRESH_SECONDS = 2  # a browser test waits for the live refresh of a running round's page
PROGRESS_POLL_MS = 200  # a browser test waits for the page following a pairing to show the worker's result
# web processes render every page (a slow page on a busy test machine never waits for a worker): the tests of
# pages rendered by a worker set their own; the servers and workers the tests start inherit this
PAGE_HEAVY_RENDER_MS = int(os.environ.setdefault("PAGE_HEAVY_RENDER_MS", "0"))
