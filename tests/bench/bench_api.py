"""Requests per second of the standings API (1,000 players) and of standings pages (40 and 1,000 players),
all served from the snapshot, next to a bare Django view on the same server (not a test). Needs PostgreSQL on
127.0.0.1:5432 and `wrk` (Debian package).

    .venv/bin/python tests/bench/bench_api.py [--seconds 10] [--connections 8] [--workers 2]
"""

import argparse
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "bench" / "data"
GOLDEN = ROOT / "tests" / "golden" / "data" / "fide2026"
BENCH_FILE = BENCH / "swiss-1000-players.trf"
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench_api")
CACHE_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/12")
sys.path.insert(0, str(ROOT))
FEDERATIONS = ("NOR", "GRE", "TUR", "ISR", "ENG")


def setup_events() -> None:
    from tests.bench.bench_pipeline import ensure_database

    ensure_database(DATABASE_URL)
    os.environ.update(DATABASE_URL=DATABASE_URL, CACHE_URL=CACHE_URL, DJANGO_SETTINGS_MODULE="config.settings.dev")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from leagues.models import League

    League.objects.filter(slug="bench").delete()
    league = League.objects.create(name="Bench", slug="bench")
    golden40 = json.loads((GOLDEN / "swiss-p040-r09-s01008.json").read_text())
    setup_event(league, "bench-1000", BENCH_FILE.read_bytes())
    setup_event(league, "bench-40", golden40["trf"].encode())
    from leagues.page_cache import event_pages_changed

    for slug in ("bench-1000", "bench-40"):  # the events are new: pages cached from an earlier run are not theirs
        event_pages_changed(slug=slug)


def setup_event(league, slug: str, trf: bytes) -> None:
    from leagues.models import Entry, Event, Player
    from leagues.recompute import store_snapshot
    from leagues.services.standings import snapshot_fields
    from leagues.services.trf import TRF_TITLES
    from tiebreaks.engine import compute_standings
    from tiebreaks.trf import read_trf

    tournament = read_trf(trf)
    event = Event.objects.create(
        league=league,
        name=slug,
        slug=slug,
        rounds_count=tournament.total_rounds,
        status=Event.Status.FINISHED,
        results_version=1,
        tiebreak_criteria=["BH/C1", "BH", "SB", "PS", "WIN"],
    )
    # the file has no federations or titles: give every player one, so the new columns are filled as in real events
    players = Player.objects.bulk_create(
        Player(
            name=p.name,
            rating=p.rating,
            federation=p.federation or FEDERATIONS[p.start_number % len(FEDERATIONS)],
            title=TRF_TITLES.get(p.title.strip().lower(), "") or ("FM" if (p.rating or 0) >= 2700 else ""),
        )
        for p in tournament.participants
    )
    Entry.objects.bulk_create(
        Entry(event=event, start_number=p.start_number, player=pl, rating=p.rating)
        for p, pl in zip(tournament.participants, players, strict=True)
    )
    data = snapshot_fields(compute_standings(tournament, event.tiebreak_criteria, explain=False).to_dict(), event)
    store_snapshot(event.pk, 1, {**data, "explanations": {}}, 0)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wrk(url: str, seconds: int, connections: int, header: str | None = None) -> tuple[float, int]:
    """Requests per second and the number of error answers (4xx, 5xx: an error page is no measurement)."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", url]
    if header:
        command[1:1] = ["-H", header]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), int(errors.group(1)) if errors else 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (apt-get install wrk)")
    setup_events()
    slug = "bench-1000"
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "SECRET_KEY": "bench-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "false",
        "SECURE_SSL_REDIRECT": "false",
        "CONN_MAX_AGE": "60",
        "API_ANON_RATE": "100000000/minute",
        "CACHE_URL": CACHE_URL,
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/12",  # production settings require a broker
    }
    # production settings serve static files from the collected manifest, as the image does
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", str(args.workers)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(50):
            try:
                urllib.request.urlopen(f"{base}/ping", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        standings = f"{base}/api/v1/events/{slug}/standings/"
        with urllib.request.urlopen(standings) as response:
            size, etag = len(response.read()), response.headers["ETag"]
        rows = [
            ("bare Django view (/ping)", wrk(f"{base}/ping", args.seconds, args.connections)),
            (f"standings, 1,000 players ({size // 1024} KiB JSON)", wrk(standings, args.seconds, args.connections)),
            (
                "standings, If-None-Match → 304",
                wrk(standings, args.seconds, args.connections, f"If-None-Match: {etag}"),
            ),
            ("standings page (HTML), 40 players", wrk(f"{base}/en/events/bench-40/", args.seconds, args.connections)),
            (
                "standings page (HTML), 1,000 players",
                wrk(f"{base}/en/events/bench-1000/", args.seconds, args.connections),
            ),
        ]
    finally:
        server.terminate()
        server.wait()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(
        f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}; gunicorn -w {args.workers}"
        f" (sync), PostgreSQL, Redis page cache, wrk -t2 -c{args.connections} -d{args.seconds}s"
    )
    print("| endpoint | requests/s | vs bare view | error answers |\n|---|---|---|---|")
    for name, (rps, errors) in rows:
        note = f"{errors} (not a measurement)" if errors else "0"
        print(f"| {name} | {rps:,.0f} | {rps / rows[0][1][0]:.2f} | {note} |")


if __name__ == "__main__":
    main()
