"""Result recorded → standings snapshot visible, with a real Celery worker and Redis (not a test).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/chess_league_bench \
    CELERY_BROKER_URL=redis://127.0.0.1:6379/14 .venv/bin/python tests/bench/bench_pipeline.py [-n 20]

Creates (or reuses) the database, a 20-player Swiss with 10 boards per round, records N results one at a
time through the service and reports the median and worst latency until the snapshot shows each one.
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=20)
    args = parser.parse_args()
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    from leagues import services
    from leagues.models import League, Result, Round, StandingsSnapshot
    from tests.factories import organiser_of, swiss_event

    redis.Redis.from_url(os.environ["CELERY_BROKER_URL"]).flushdb()
    League.objects.filter(name__startswith="League").delete()
    event, entries, games = swiss_event(players=20, rounds=args.n)
    user = organiser_of(event.league)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "warning", "--concurrency", "1",
         "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=os.environ.copy(),
    )
    try:
        time.sleep(4)
        latencies = []
        for number in range(1, args.n + 1):
            if number > 1:
                rnd = Round.objects.create(event=event, number=number)
                games = [type(games[0]).objects.create(round=rnd, board=1, white=entries[0], black=entries[number])]
            started = time.perf_counter()
            services.result_record(game_id=games[0].pk, result=Result.DRAW, user=user)
            version = event.__class__.objects.get(pk=event.pk).results_version
            while not StandingsSnapshot.objects.filter(event=event, version__gte=version).exists():
                time.sleep(0.005)
            latencies.append((time.perf_counter() - started) * 1000)
        print(f"machine: {platform.node()} {os.cpu_count()} cores, {platform.python_version()}")
        print(f"result recorded -> snapshot visible, {args.n} results, real worker + Redis + PostgreSQL")
        print(f"median {statistics.median(latencies):.0f} ms, worst {max(latencies):.0f} ms")
    finally:
        worker.terminate()
        worker.wait(timeout=20)


if __name__ == "__main__":
    main()
