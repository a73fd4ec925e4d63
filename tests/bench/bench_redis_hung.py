"""One result entered while Redis hangs (not a test): a fake Redis accepts TCP connections and never
answers; the site's broker and cache point at it. A committed write must still answer success quickly
(the request path's Redis calls give up after 0.5 s; the sweep sends what was missed).

    .venv/bin/python tests/bench/bench_redis_hung.py [--results 5]

Serves the site with the production settings and serving config (gunicorn -c config/gunicorn.py) on
PostgreSQL (database chess_league_bench, made if missing), enters RESULTS results one after the other
through the API (POST /api/v1/games/{id}/result/ with a results token), first with the real Redis and
then with the hung one, and prints each request's time and whether the result was stored.
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench")
os.environ.pop("CELERY_BROKER_URL", None)  # the set-up below runs its tasks in-process
os.environ.pop("CACHE_URL", None)
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"

from tests.bench.bench_pipeline import ensure_database  # noqa: E402
from tests.serving import PRODUCTION, HungRedis, gunicorn, site_env  # noqa: E402

SLUG = "bench-redis-hung"
REAL_REDIS = "redis://127.0.0.1:6379/12"
TRF = ROOT / "tests/bench/data/swiss-100-players.trf"


def event_and_token(results: int) -> tuple[list[int], str]:
    """The 100-player event with its last round's results taken back (made anew), and a results token."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from leagues.models import Event, Game, League, Result
    from leagues.services.tokens import api_token_create
    from leagues.services.trf import event_import_trf

    call_command("migrate", verbosity=0)
    Event.objects.filter(slug=SLUG).delete()
    League.objects.filter(slug=SLUG).delete()
    league = League.objects.create(name="Bench Redis hung", slug=SLUG)
    user = get_user_model().objects.filter(username=SLUG).first()
    user = user or get_user_model().objects.create_superuser(SLUG, password="not-used-bench-x1")
    event = event_import_trf(league=league, name="Bench Redis hung", slug=SLUG, data=TRF.read_bytes(), user=user)
    games = list(Game.objects.filter(round__event=event, black__isnull=False).order_by("-round__number", "board"))
    Game.objects.filter(pk__in=[g.pk for g in games]).update(result=Result.PENDING)  # to be entered again
    _, key = api_token_create(user=user, name="bench", scopes=["results"])
    return [g.pk for g in games[: 2 * results]], key


def enter(base: str, key: str, game_id: int) -> tuple[float, int, str]:
    request = urllib.request.Request(
        f"{base}/api/v1/games/{game_id}/result/",
        method="POST",
        data=json.dumps({"result": "1-0", "reason": "bench"}).encode(),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            body = json.loads(response.read())
            return time.perf_counter() - started, response.status, body.get("result", "")
    except urllib.error.HTTPError as exc:
        return time.perf_counter() - started, exc.code, ""


def production_env(redis_url: str) -> dict:
    env = site_env(os.environ["DATABASE_URL"])
    return env | {
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "SECURE_SSL_REDIRECT": "false",
        "CELERY_BROKER_URL": redis_url,
        "CACHE_URL": redis_url,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", type=int, default=5)
    args = parser.parse_args()
    ensure_database(os.environ["DATABASE_URL"])
    games, key = event_and_token(args.results)
    from leagues.models import Game

    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}, load {os.getloadavg()}")
    hung = HungRedis()
    try:
        for name, url, batch in (
            ("Redis answering", REAL_REDIS, games[: args.results]),
            ("Redis hung", hung.url, games[args.results :]),
        ):
            with gunicorn(production_env(url), PRODUCTION) as base:
                enter(base, key, batch[0])  # warm the worker (not counted); its game is entered again below
                Game.objects.filter(pk=batch[0]).update(result="")
                times, answers = [], []
                for game_id in batch:
                    seconds, status, _result = enter(base, key, game_id)
                    times.append(seconds)
                    answers.append(status)
            stored = Game.objects.filter(pk__in=batch, result="1-0").count()
            print(
                f"{name}: {len(batch)} results through the API, answers {sorted(set(answers))}, stored {stored}; "
                f"request time median {statistics.median(times):.2f} s, max {max(times):.2f} s "
                f"({', '.join(f'{t:.2f}' for t in times)})"
            )
    finally:
        hung.close()


if __name__ == "__main__":
    main()
