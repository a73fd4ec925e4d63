"""What each settings module does at start, read in a fresh process with only the given environment."""

import os
import subprocess
import sys

import pytest

from tests.paths import REPO

GOOD_KEY = "t3st-Only-q8Zr2LmX4vB1nR8sT6wY3kH0pJ5cE2aU7dG4fZ1xV9bN3mK6"  # a test value, not a real key
PRODUCTION = {
    "SECRET_KEY": GOOD_KEY,
    "DATABASE_URL": "postgres://chess:pw@db.invalid:5432/chess_league",
    "ALLOWED_HOSTS": "league.example.org",
    "CELERY_BROKER_URL": "redis://:pw@redis.invalid:6379/0",
    "DEBUG": "false",
}


def settings_run(module: str, env: dict, expression: str = "None") -> subprocess.CompletedProcess:
    """Import config.settings.<module> in a new process whose environment holds only `env` and print `expression`."""
    code = f"import config.settings.{module} as s; print(repr({expression}))"
    base = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp")}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env={**base, **env}, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "key",
    [
        "change-me-in-production",
        "change-me-" + "a1b2c3d4e5" * 5,
        "django-insecure-" + "q8Zr2LmX4vB1nR8sT6wY3kH0pJ5cE2aU7dG4fZ1x",
        "q8Zr2LmX4vB1nR8sT6wY3kH0pJ5cE2aU7dG4fZ1xV9bN3mK6",  # 48 characters
        "ab" * 40,
    ],
)
def test_production_refuses_a_placeholder_or_short_secret_key(key):
    run = settings_run("prod", {**PRODUCTION, "SECRET_KEY": key})
    assert run.returncode != 0
    assert "SECRET_KEY is a placeholder or shorter than 50 characters" in run.stderr
    assert key not in run.stderr  # the message never repeats the key


def test_production_starts_with_a_random_key_and_every_required_setting():
    run = settings_run("prod", PRODUCTION, "(s.CELERY_TASK_ALWAYS_EAGER, s.DATABASES['default']['ENGINE'])")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "(False, 'django.db.backends.postgresql')"


@pytest.mark.parametrize("broker", [None, "", "memory://"])
def test_production_says_at_start_that_it_needs_the_broker(broker):
    env = {k: v for k, v in PRODUCTION.items() if k != "CELERY_BROKER_URL"}
    if broker is not None:
        env["CELERY_BROKER_URL"] = broker
    run = settings_run("prod", env)
    assert run.returncode != 0
    assert "CELERY_BROKER_URL must name the Redis broker in production" in run.stderr


def test_forwarded_proto_is_trusted_only_behind_a_configured_proxy():
    direct = settings_run("prod", PRODUCTION, "s.SECURE_PROXY_SSL_HEADER")
    assert direct.stdout.strip() == "None", direct.stderr
    proxied = settings_run("prod", {**PRODUCTION, "NUM_PROXIES": "1"}, "s.SECURE_PROXY_SSL_HEADER")
    assert proxied.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https')", proxied.stderr


def test_connection_urls_can_come_from_secret_files(tmp_path):
    (tmp_path / "db").write_text("postgres://chess:from-file@db.internal:5432/league\n")
    (tmp_path / "broker").write_text("redis://:from-file@redis.internal:6379/0\n")
    env = {k: v for k, v in PRODUCTION.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env |= {"DATABASE_URL_FILE": str(tmp_path / "db"), "CELERY_BROKER_URL_FILE": str(tmp_path / "broker")}
    run = settings_run("prod", env, "(s.DATABASES['default']['HOST'], s.CELERY_BROKER_URL)")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "('db.internal', 'redis://:from-file@redis.internal:6379/0')"


def test_development_without_a_broker_runs_tasks_in_process_quietly():
    run = settings_run("dev", {}, "(s.CELERY_TASK_ALWAYS_EAGER, s.LOGGING['loggers']['celery.app.trace']['level'])")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "(True, 'WARNING')"
    assert run.stderr == ""


@pytest.mark.parametrize("process", ["worker", "beat"])
def test_a_worker_or_beat_without_a_broker_says_so_and_stops(tmp_path, process):
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/tmp"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
    }
    arguments = ["--schedule", str(tmp_path / "celerybeat-schedule")] if process == "beat" else []
    run = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "config", process, *arguments],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0
    assert "CELERY_BROKER_URL is not set" in run.stdout + run.stderr
