"""Tests: PostgreSQL whenever it answers (always in CI), tasks eager unless a test starts a worker."""

import os
import socket

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
    DATABASES = {"default": dj_database_url.parse(POSTGRES_URL)}
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
# each of the suite's processes (pytest-xdist: gw0, gw1) its own Redis database: the end-to-end tests empty theirs
# (databases 13 and 9 are two end-to-end tests' own)
_PROCESS = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)
REDIS_URL = os.environ.get("TEST_REDIS_URL", f"redis://127.0.0.1:6379/{15 - _PROCESS}")
REST_FRAMEWORK = {  # noqa: F405
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"anon": "100000/minute", "user": "100000/minute", "export": "100000/minute"},
}


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
# web processes render every page (a slow page on a busy test machine never waits for a worker): the tests of
# pages rendered by a worker set their own; the servers and workers the tests start inherit this
PAGE_HEAVY_RENDER_MS = int(os.environ.setdefault("PAGE_HEAVY_RENDER_MS", "0"))
