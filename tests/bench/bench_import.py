"""TRF import of a big event: preview and confirm through the upload page's services (not a test).

    .venv/bin/python tests/bench/bench_import.py [--file tests/bench/data/swiss-1000-players.trf] [--players 400]

Imports the first PLAYERS players of the file (their games with each other; games against the others become
absences) with Redis as broker and cache, as production runs, and prints how long the preview and the
confirmation took, how many on-commit hooks the confirmation ran and how many recomputes it sent. A web
request must answer well inside gunicorn's 30 s timeout.
"""

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"

from tests.bench.bench_pipeline import ensure_database  # noqa: E402
from tests.serving import first_players  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", default=str(ROOT / "tests/bench/data/swiss-1000-players.trf"))
    parser.add_argument("--players", type=int, default=400)
    args = parser.parse_args()
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    from leagues.models import Event, Game, League
    from leagues.services import results
    from leagues.services.trf import event_import_trf, import_preview

    data = first_players(Path(args.file).read_bytes(), args.players)
    League.objects.filter(slug="bench-import").delete()
    Event.objects.filter(slug="bench-import").delete()
    league = League.objects.create(name="Bench import", slug="bench-import")
    user = get_user_model().objects.filter(is_superuser=True, username="bench-import").first()
    user = user or get_user_model().objects.create_superuser("bench-import", password="not-used-bench-x1")
    sent, hooks = [], []
    original_enqueue = results.enqueue_recompute
    results.enqueue_recompute = lambda event_id: sent.append(event_id)  # count, and leave the queue empty
    original_on_commit = connection.on_commit
    connection.on_commit = lambda func, robust=False: (hooks.append(func), original_on_commit(func, robust))[1]
    started = time.perf_counter()
    preview = import_preview(data=data)
    previewed = time.perf_counter() - started
    assert preview.ok, preview.problems[:3]
    started = time.perf_counter()
    event = event_import_trf(league=league, name="Bench import", slug="bench-import", data=data, user=user)
    confirmed = time.perf_counter() - started
    results.enqueue_recompute, connection.on_commit = original_enqueue, original_on_commit
    games = Game.objects.filter(round__event=event).count()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}")
    print(
        f"{args.players} players, {preview.rounds} rounds, {games} games and byes: preview {previewed:.2f} s, "
        f"confirm {confirmed:.2f} s, {len(hooks)} on-commit hooks, {len(sent)} recomputes sent"
    )


if __name__ == "__main__":
    main()
