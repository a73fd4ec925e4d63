"""The production settings pool their PostgreSQL connections (Django's psycopg pool), sized from the
environment, and a connection PostgreSQL dropped is replaced before a request gets it."""

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from tests.conftest import require

ROOT = Path(__file__).resolve().parents[2]
# run with the production settings against the real server: two uses of the connection, a backend killed
# from outside in between, a third use
SCRIPT = """
import json, os, django, psycopg
django.setup()
from django.db import connection
from psycopg_pool import ConnectionPool

def backend():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    connection.close()  # as at the end of a request: back to the pool
    return pid

used = {backend() for _ in range(10)}
with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as outside:
    for pid in used:
        outside.execute("SELECT pg_terminate_backend(%s)", [pid])
after = backend()
pool = connection.pool
print(json.dumps({
    "pooled": isinstance(pool, ConnectionPool),
    "max_size": pool.max_size,
    "min_size": pool.min_size,
    "timeout": pool.timeout,
    "server_connections_for_10_requests": len(used),
    "replaced": after not in used,
}))
"""


def test_production_settings_pool_connections_to_the_real_postgresql():
    require(settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), "PostgreSQL is not reachable")
    database = settings.DATABASES["default"]
    url = f"postgres://{database['USER']}@{database['HOST'] or '127.0.0.1'}:{database['PORT'] or 5432}/postgres"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "SECRET_KEY": "pool-test-4bN7xQ2mZ9vL5kR1tY8wC3hJ6pF0sD4gA7eU2iO9lK5nM1",  # a test value, not a real key
        "DATABASE_URL": url,
        "ALLOWED_HOSTS": "league.example.org",
        "CELERY_BROKER_URL": settings.REDIS_URL,  # this test process's own Redis database
        "DEBUG": "false",
        "CONN_MAX_AGE": "60",  # what compose used to set: the pool takes over, no error
        "DB_POOL_MIN_SIZE": "1",
        "DB_POOL_MAX_SIZE": "3",
        "DB_POOL_TIMEOUT": "7",
    }
    run = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    connections = seen.pop("server_connections_for_10_requests")
    # ten requests one after another share the pool's connections: never one each, never more than the pool holds
    # (how many it opened while filling itself is the machine's timing)
    assert 1 <= connections <= seen["max_size"] < 10
    assert seen == {
        "pooled": True,
        "max_size": 3,
        "min_size": 1,
        "timeout": 7,
        "replaced": True,  # the killed ones were found dead and replaced, not handed to the request
    }


def test_without_the_pool_connections_are_persistent_and_checked():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "SECRET_KEY": "pool-test-4bN7xQ2mZ9vL5kR1tY8wC3hJ6pF0sD4gA7eU2iO9lK5nM1",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
        "ALLOWED_HOSTS": "league.example.org",
        "CELERY_BROKER_URL": settings.REDIS_URL,  # this test process's own Redis database
        "DEBUG": "false",
        "CONN_MAX_AGE": "60",
        "DB_POOL": "false",
    }
    code = (
        "import json, django; django.setup(); from django.conf import settings; d = settings.DATABASES['default'];"
        "print(json.dumps([d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'], 'pool' in d.get('OPTIONS', {})]))"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.strip().splitlines()[-1]) == [60, True, False]


def test_by_default_every_thread_of_a_web_process_gets_a_connection_without_waiting():
    """The image's defaults: a gunicorn process's threads (config/gunicorn.py, WEB_THREADS unset) all fit in its
    pool (DB_POOL_MAX_SIZE unset), so eight writes at once in one process never wait DB_POOL_TIMEOUT for a
    connection."""
    env = {key: value for key, value in os.environ.items() if key not in {"WEB_THREADS", "DB_POOL_MAX_SIZE", "DB_POOL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        SECRET_KEY="pool-test-4bN7xQ2mZ9vL5kR1tY8wC3hJ6pF0sD4gA7eU2iO9lK5nM1",  # a test value, not a real key
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
        ALLOWED_HOSTS="league.example.org",
        CELERY_BROKER_URL=settings.REDIS_URL,
        DEBUG="false",
    )
    code = (
        "import json, django; django.setup(); from django.conf import settings; from config import gunicorn;"
        "print(json.dumps([gunicorn.threads, settings.DATABASES['default']['OPTIONS']['pool']['max_size']]))"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    threads, pool = json.loads(run.stdout.strip().splitlines()[-1])
    assert threads == 8 and pool >= threads
