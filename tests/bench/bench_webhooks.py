"""One result, 100 webhook subscribers, one of them slow: real worker, Redis, PostgreSQL, receiver processes.

    .venv/bin/python tests/bench/bench_webhooks.py [-n 10] [--slow 4] [--concurrency 4]

Records N results through the API (POST /api/v1/games/{id}/result/, in-process), first in an event
nobody subscribes to, then in one with 100 subscriptions: 99 to a prompt receiver process, one to a
receiver that answers after `--slow` seconds. Prints the result request's own time in both cases and,
for the subscribed event, how long until all 99 prompt subscribers have the result.recorded delivery.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench_webhooks")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/12")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"
os.environ["WEBHOOKS_ALLOW_PRIVATE_ADDRESSES"] = "1"

from tests.bench.bench_pipeline import ensure_database, percentile  # noqa: E402

PROMPT = 99


def make_event(slug: str, games: int):
    from django.contrib.auth import get_user_model

    from leagues.models import Entry, Event, Game, League, Player, Role, Round

    League.objects.filter(slug=slug).delete()
    league = League.objects.create(name=slug, slug=slug)
    event = Event.objects.create(
        league=league, name=slug, slug=slug, rounds_count=1, status=Event.Status.PUBLISHED, tiebreak_criteria=["BH"]
    )
    people = Player.objects.bulk_create(Player(name=f"Player, {n}", rating=2400 - n) for n in range(2 * games))
    entries = Entry.objects.bulk_create(
        Entry(event=event, start_number=n + 1, player=p, rating=p.rating) for n, p in enumerate(people)
    )
    rnd = Round.objects.create(event=event, number=1)
    pairs = Game.objects.bulk_create(
        Game(round=rnd, board=b + 1, white=entries[b], black=entries[games + b]) for b in range(games)
    )
    user, _ = get_user_model().objects.get_or_create(username="bench-webhooks-organiser")
    Role.objects.create(user=user, kind=Role.Kind.ORGANISER, league=league)
    return event, pairs, user


def delivered(log: Path, game_id: int) -> int:
    if not log.exists():
        return 0
    count = 0
    for line in log.read_text().splitlines():
        body = json.loads(json.loads(line)["body"])
        if body["type"] == "result.recorded" and body["data"]["game"] == game_id:
            count += 1
    return count


def record(client, game) -> float:
    started = time.perf_counter()
    answer = client.post(f"/api/v1/games/{game.pk}/result/", {"result": "1-0"}, format="json")
    took = time.perf_counter() - started
    assert answer.status_code == 200, answer.content
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=10)
    parser.add_argument("--slow", type=float, default=4.0)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    import redis
    from django.core.management import call_command
    from rest_framework.test import APIClient

    from leagues.models import WebhookSubscription
    from tests.webhooks import free_port

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(os.environ["CELERY_BROKER_URL"]).flushdb()
    logs = Path(tempfile.mkdtemp(prefix="bench-webhooks-"))
    receiver = ROOT / "tests" / "e2e" / "webhook_receiver.py"
    prompt_port, slow_port = free_port(), free_port()
    processes = [
        subprocess.Popen([sys.executable, str(receiver), str(prompt_port), str(logs / "prompt.jsonl"), "200"]),
        subprocess.Popen(
            [sys.executable, str(receiver), str(slow_port), str(logs / "slow.jsonl"), "200", str(args.slow)]
        ),
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "warning", "--concurrency",
             str(args.concurrency), "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT,
            env=os.environ.copy(),
        ),
    ]  # fmt: skip
    try:
        time.sleep(5)
        _quiet, quiet_games, user = make_event("bench-webhooks-none", args.n)
        busy, busy_games, _ = make_event("bench-webhooks-100", args.n)
        urls = [f"http://127.0.0.1:{prompt_port}/hook/{n}" for n in range(PROMPT)] + [f"http://127.0.0.1:{slow_port}/"]
        WebhookSubscription.objects.bulk_create(
            WebhookSubscription(owner=user, event=busy, url=url, events=["result.recorded"]) for url in urls
        )
        client = APIClient(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        record(client, quiet_games[0])  # warm up (first request, connections)

        alone = [record(client, game) for game in quiet_games[1:]]
        with_subscribers, fan_out = [], []
        for game in busy_games[1:]:
            started = time.perf_counter()
            with_subscribers.append(record(client, game))
            while delivered(logs / "prompt.jsonl", game.pk) < PROMPT:
                time.sleep(0.01)
            fan_out.append(time.perf_counter() - started)
        slow_got = sum(delivered(logs / "slow.jsonl", game.pk) for game in busy_games[1:])

        cpu = next(
            (line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?"
        )
        print(
            f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}; "
            f"one worker process with concurrency {args.concurrency}; slow receiver answers after {args.slow} s"
        )
        print("| measure | results | p50 | p99 | worst |\n|---|---|---|---|---|")
        for name, values in (
            ("result request, no subscribers", alone),
            ("result request, 100 subscribers", with_subscribers),
            (f"result → all {PROMPT} prompt subscribers have it", fan_out),
        ):
            print(
                f"| {name} | {len(values)} | {statistics.median(values) * 1000:.0f} ms "
                f"| {percentile(values, 0.99) * 1000:.0f} ms | {max(values) * 1000:.0f} ms |"
            )
        print(f"slow subscriber received {slow_got} of {len(busy_games) - 1} so far")
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)


if __name__ == "__main__":
    main()
