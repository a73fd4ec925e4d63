"""Start a real `celery worker` process against the test database and a real Redis."""

import os
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from tests.processes import celery_worker_command

ROOT = Path(__file__).resolve().parents[2]


def redis_answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextmanager
def broker_for_this_process(url: str):
    """Make this test process send tasks to `url` instead of running them in-process."""
    old = (celery_app.conf.task_always_eager, celery_app.conf.broker_url)
    celery_app.conf.update(task_always_eager=False, broker_url=url)
    _reset_connections()
    try:
        yield
    finally:
        celery_app.conf.update(task_always_eager=old[0], broker_url=old[1])
        _reset_connections()


def _reset_connections() -> None:
    """Forget cached connections so the next send uses the current broker_url (kombu keeps the pools)."""
    celery_app._pool = None
    celery_app._producer_pool = None
    celery_app.amqp._producer_pool = None


@contextmanager
def celery_worker(
    broker_url: str,
    *,
    name: str = "w1",
    concurrency: int = 1,
    log_path: Path | None = None,
    env_extra: dict | None = None,
    host=None,
    ping_url: str | None = None,
    ready: bool = True,
):
    """The worker runs on `host` (tests/e2e/hosts.py) if given; this process pings it through `ping_url`
    (the same Redis as `broker_url`, as this process reaches it). `env_extra` wins over the defaults.
    With `ready=False` the worker is only started: the caller waits for it with `worker_ready` (several processes
    started together, then waited for, start in the time of the slowest rather than of all in turn)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DATABASE_URL": database_url(),
        "CONN_MAX_AGE": "60",  # one connection for all its tasks, as production's pool gives (not one a task)
        "CELERY_BROKER_URL": broker_url,
        "CACHE_URL": settings.CACHES["default"].get("LOCATION") or "",
        "CACHE_KEY_PREFIX": settings.CACHES["default"].get("KEY_PREFIX") or "",
        "WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true",  # the tests' receivers listen on 127.0.0.1
        **(env_extra or {}),
    }
    command = celery_worker_command(name=name, concurrency=concurrency, level="info")
    log = open(log_path or os.devnull, "ab")
    process = subprocess.Popen(
        host.command(*command) if host else command,
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        if ready:
            worker_ready(ping_url or broker_url, name)
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.close()


def worker_ready(broker_url: str, name: str, timeout: float = 30) -> None:
    """Ping the worker named `name` until it answers. Only that worker answers (the pattern) and its answer ends the
    ping (limit=1): a ping of every worker waited its whole half second for answers that might still come, then 0.3 s
    more before the next (about a second lost at each worker's start). A ping sent before the worker listens is lost:
    it is sent again."""
    deadline = time.monotonic() + timeout
    with broker_for_this_process(broker_url):
        while time.monotonic() < deadline:
            replies = celery_app.control.ping(timeout=0.5, limit=1, pattern=f"{name}@*", matcher="glob") or []
            if any(key.startswith(f"{name}@") for reply in replies for key in reply):
                return
            time.sleep(0.05)
    raise RuntimeError(f"celery worker {name} did not start within {timeout}s")


def wait_until(predicate, timeout: float = 20, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


TEST_BROKER = getattr(settings, "REDIS_URL", "redis://127.0.0.1:6379/15")
