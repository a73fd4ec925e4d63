"""Result recorded → standings visible, with a real Celery worker, Redis and PostgreSQL (not a test).

    .venv/bin/python tests/bench/bench_pipeline.py [--players 40 1000] [-n 200]

For each event size: creates a Swiss event with one paired round, records N results one at a time through
the result service (as a secretary's form does) and measures how long until the standings snapshot shows
each one. Prints p50, p99 and worst, with the machine.
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
from tests.processes import celery_worker_command  # noqa: E402

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/10")  # the suite uses 15 and 14
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run(players: int, results: int) -> list[float]:
    from django.contrib.auth import get_user_model

    from leagues.models import Entry, Event, Game, League, Player, Result, Role, Round, StandingsSnapshot
    from leagues.services.results import result_record

    League.objects.filter(slug="bench-pipeline").delete()
    league = League.objects.create(name="Bench pipeline", slug="bench-pipeline")
    event = Event.objects.create(
        league=league,
        name=f"Bench {players}",
        slug=f"bench-pipeline-{players}",
        rounds_count=max(1, results // (players // 2) + 1),
        status=Event.Status.PUBLISHED,
        tiebreak_criteria=["BH/C1", "BH", "SB"],
    )
    people = Player.objects.bulk_create(Player(name=f"Player, {n}", rating=2400 - n) for n in range(players))
    entries = Entry.objects.bulk_create(
        Entry(event=event, start_number=n + 1, player=p, rating=p.rating) for n, p in enumerate(people)
    )
    games, number = [], 0
    while len(games) < results:
        number += 1
        rnd = Round.objects.create(event=event, number=number)
        half = players // 2
        for board in range(half):  # a different opponent each round
            white, black = entries[board], entries[half + (board + number - 1) % half]
            games.append(Game(round=rnd, board=board + 1, white=white, black=black))
    games = Game.objects.bulk_create(games[:results])
    user, _ = get_user_model().objects.get_or_create(username="bench-organiser")
    Role.objects.create(user=user, kind=Role.Kind.ORGANISER, league=league)
    latencies = []
    outcomes = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    for index, game in enumerate(games):
        started = time.perf_counter()
        result_record(game_id=game.pk, result=outcomes[index % 3], user=user)
        version = Event.objects.filter(pk=event.pk).values_list("results_version", flat=True).get()
        while not StandingsSnapshot.objects.filter(event=event, version__gte=version).exists():
            time.sleep(0.005)
        latencies.append(time.perf_counter() - started)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="+", default=[40, 1000])
    parser.add_argument("-n", type=int, default=200)
    args = parser.parse_args()
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(os.environ["CELERY_BROKER_URL"]).flushdb()
    worker = subprocess.Popen(
        celery_worker_command(),
        cwd=ROOT,
        env=os.environ.copy(),
    )
    try:
        time.sleep(5)
        cpu = next(
            (line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?"
        )
        print(f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}; one worker process")
        print("| event | results | p50 | p99 | worst |\n|---|---|---|---|---|")
        for players in args.players:
            latencies = run(players, args.n)
            print(
                f"| {players} players | {len(latencies)} | {statistics.median(latencies):.2f} s "
                f"| {percentile(latencies, 0.99):.2f} s | {max(latencies):.2f} s |",
                flush=True,
            )
    finally:
        worker.terminate()
        worker.wait(timeout=30)


if __name__ == "__main__":
    main()
