"""Health probes beside heavy pages (not a test): how long /ping and /healthz take while eight uncached
crosstables of a 400-player event are rendered, with the production serving config (config/gunicorn.py,
threaded workers) and, for comparison, gunicorn's plain sync workers as the site was served before.

    .venv/bin/python tests/bench/bench_health.py [--players 400] [--heavy 8] [--runs 3]

Against PostgreSQL (database chess_league_bench, made if missing); every run starts a fresh gunicorn, so
each crosstable is rendered (no page cache shared between its processes). Prints, per serving and run,
when each probe answered and when the first and the last crosstable did (seconds from the first request).
tests/e2e/test_health_capacity.py asserts the order.
"""

import argparse
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench")
os.environ.pop("CELERY_BROKER_URL", None)
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"

from tests.bench.bench_pipeline import ensure_database  # noqa: E402
from tests.serving import (  # noqa: E402
    BIG_TRF,
    PRODUCTION,
    SYNC_WORKERS,
    first_players,
    gunicorn,
    heavy_pages_and_probes,
    site_env,
)

SLUG = "bench-health"


def big_event(players: int) -> str:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from leagues.models import Event, League
    from leagues.services.trf import event_import_trf

    call_command("migrate", verbosity=0)
    event = Event.objects.filter(slug=SLUG).first()
    if event is None or event.entries.count() != players:
        Event.objects.filter(slug=SLUG).delete()
        League.objects.filter(slug=SLUG).delete()
        league = League.objects.create(name="Bench health", slug=SLUG)
        user = get_user_model().objects.filter(username=SLUG).first()
        user = user or get_user_model().objects.create_superuser(SLUG, password="not-used-bench-x1")
        data = first_players(BIG_TRF.read_bytes(), players)
        event = event_import_trf(league=league, name="Bench health", slug=SLUG, data=data, user=user)
    return event.slug


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--heavy", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ensure_database(os.environ["DATABASE_URL"])
    slug = big_event(args.players)
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}, load {os.getloadavg()}")
    print(f"{args.heavy} concurrent uncached crosstables of {args.players} players; probes sent 0.3 s after them")
    for name, serving in (("production (gthread)", PRODUCTION), ("sync workers -w 3", SYNC_WORKERS)):
        for run in range(args.runs):
            with gunicorn(site_env(os.environ["DATABASE_URL"]), serving) as base:
                crosstable = f"/en/events/{slug}/crosstable/"
                timings = heavy_pages_and_probes(base, [crosstable] * args.heavy, ["/ping", "/healthz"])
            heavy = [done for key, (_, done, _) in timings.items() if key.startswith("heavy")]
            probes = ", ".join(
                f"{path} answered at {timings[path][1]:.2f} s (took {timings[path][2]:.2f} s)"
                for path in ("/ping", "/healthz")
            )
            statuses = sorted({str(status) for status, _, _ in timings.values()})
            print(
                f"{name}, run {run + 1}: {probes}; crosstables done from {min(heavy):.2f} s to {max(heavy):.2f} s; "
                f"statuses {', '.join(statuses)}"
            )


if __name__ == "__main__":
    main()
