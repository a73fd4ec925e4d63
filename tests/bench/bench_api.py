"""Requests per second of the standings of a 1,000-player event — the HTML page and the JSON API, each in
full from the page cache and as a 304 to If-None-Match, the HTML page also gzip-encoded as browsers ask for it
(wrk itself asks for no encoding) — and of a 40-player page, next to a bare Django view, and the open-data downloads
of the same event from their kept copy (Chess-JSON and the standings CSV, issue 35: an uncached Chess-JSON of a
2,000-player event cost 18.7 s of CPU), with the cost of a cached download against a cached page as a ratio,
on one gunicorn as production runs it (`gunicorn -c config/gunicorn.py`: gthread, WEB_CONCURRENCY processes ×
WEB_THREADS threads; production settings: pooled PostgreSQL connections, Redis page cache) in the same run
(not a test), with requests per second and latency percentiles (p50, p90, p99: wrk --latency; the median of
the slices' percentiles). The endpoints are measured in interleaved slices (the machine is shared). Goals (issue 19):
a 304 at least as fast as its full body, the 1,000-player HTML standings at least 0.8 of the bare view.
Needs PostgreSQL on 127.0.0.1:5432, Redis on 127.0.0.1:6379 and `wrk` (Debian package).

    .venv/bin/python tests/bench/bench_api.py [--seconds 12] [--connections 8] [--workers 3] [--threads 4]

Its own database (chess_league_bench_api) and Redis DB 12 (the suite uses 15 and 14).
"""

import argparse
import dataclasses
import json
import os
import platform
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
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
BROWSER_ENCODINGS = "gzip, deflate, br"  # what Chromium and Firefox send
SHARES = ("50", "90", "99")  # latency percentiles reported
EXPORTS = ("json", "standings-csv")  # the downloads measured from their kept copies


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
    # the downloads' copies, as the pairing worker builds them after a change (the web processes never do)
    from leagues.services.export_cache import export_build

    for kind in EXPORTS:
        started = time.perf_counter()
        export_build("event", "bench-1000", kind)
        print(f"built the 1,000-player {kind} in {time.perf_counter() - started:.1f} s (a worker's build)")


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
    # the crosstable with the players' registry, as the recompute's crosstable carries it
    registered = dataclasses.replace(
        tournament,
        participants=[
            dataclasses.replace(p, title=pl.title, federation=pl.federation)
            for p, pl in zip(tournament.participants, players, strict=True)
        ],
    )
    standings = compute_standings(registered, event.tiebreak_criteria, explain=False)
    data = snapshot_fields(standings.to_dict(), tournament=registered)
    store_snapshot(event.pk, 1, {**data, "explanations": {}}, 0)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


LATENCY_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def wrk(url: str, seconds: int, connections: int, header: str | None = None) -> tuple[float, int, dict[str, float]]:
    """Requests per second, the number of error answers (4xx, 5xx: an error page is no measurement) and the
    latency percentiles in ms ({"50": ..., "90": ..., "99": ...})."""
    command = ["wrk", "--latency", "-t2", f"-c{connections}", f"-d{seconds}s", url]
    if header:
        command[1:1] = ["-H", header]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    latency = {
        share: float(value) * LATENCY_UNITS[unit]
        for share, value, unit in re.findall(r"^\s+(50|90|99)%\s+([\d.]+)(us|ms|s|m)\s*$", out, re.MULTILINE)
    }
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    assert found is not None, out
    rps = float(found.group(1))
    return rps, int(errors.group(1)) if errors else 0, latency


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=12, help="per endpoint, in all")
    parser.add_argument("--rounds", type=int, default=4, help="slices per endpoint, interleaved")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=3, help="WEB_CONCURRENCY (config/gunicorn.py's default 3)")
    parser.add_argument("--threads", type=int, default=8, help="WEB_THREADS (config/gunicorn.py's default 8)")
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
        "SECRET_KEY": secrets.token_urlsafe(50),  # production refuses a placeholder
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "false",
        "SECURE_SSL_REDIRECT": "false",
        "API_ANON_RATE": "100000000/minute",
        "API_EXPORT_RATE": "100000000/minute",
        "CACHE_URL": CACHE_URL,
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/12",  # production settings require a broker
        "WEB_CONCURRENCY": str(args.workers),
        "WEB_THREADS": str(args.threads),
    }
    # production settings serve static files from the collected manifest, as the image does
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    server = subprocess.Popen(
        # the image's command (gthread, its threads, no keep-alive, gc.freeze), bound to a free local port
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi", "-b", f"127.0.0.1:{port}"],
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
        html, json_url = f"{base}/en/events/{slug}/", f"{base}/api/v1/events/{slug}/standings/"
        html_size, html_etag = validators(html)
        gzip_size, _ = validators(html, BROWSER_ENCODINGS)
        json_size, json_etag = validators(json_url)
        export_url, csv_url = f"{base}/api/v1/events/{slug}/export.json", f"{base}/api/v1/events/{slug}/standings.csv"
        export_size, export_etag = validators(export_url)
        export_gzip_size, _ = validators(export_url, "gzip")
        csv_size, _ = validators(csv_url)

        endpoints = [
            ("bare Django view (/ping)", f"{base}/ping", None),
            (f"standings page (HTML), 1,000 players, from the cache ({html_size // 1024} KiB)", html, None),
            (
                f"standings page (HTML), 1,000 players, from the cache, gzip as browsers ask ({gzip_size // 1024} KiB)",
                html,
                f"Accept-Encoding: {BROWSER_ENCODINGS}",
            ),
            ("standings page (HTML), 1,000 players, If-None-Match → 304", html, f"If-None-Match: {html_etag}"),
            (f"standings JSON, 1,000 players, full body ({json_size // 1024} KiB)", json_url, None),
            ("standings JSON, 1,000 players, If-None-Match → 304", json_url, f"If-None-Match: {json_etag}"),
            ("standings page (HTML), 40 players", f"{base}/en/events/bench-40/", None),
            (f"export.json (Chess-JSON), 1,000 players, kept copy ({export_size // 1024} KiB)", export_url, None),
            (
                f"export.json (Chess-JSON), 1,000 players, kept copy, gzip ({export_gzip_size // 1024} KiB)",
                export_url,
                "Accept-Encoding: gzip",
            ),
            ("export.json, 1,000 players, If-None-Match → 304", export_url, f"If-None-Match: {export_etag}"),
            (f"standings.csv, 1,000 players, kept copy ({csv_size // 1024} KiB)", csv_url, None),
        ]
        # the machine is shared: each endpoint is measured in `rounds` slices, interleaved with the others, so
        # a change of the others' load falls on every endpoint alike
        measured: dict[str, tuple[list[float], int, list[float], list[dict[str, float]]]] = {
            name: ([], 0, [], []) for name, _url, _header in endpoints
        }
        for _ in range(args.rounds):
            for name, url, header in endpoints:
                load = os.getloadavg()[0]
                rps, errors, latency = wrk(url, max(1, args.seconds // args.rounds), args.connections, header)
                slices, failed, loads, latencies = measured[name]
                measured[name] = ([*slices, rps], failed + errors, [*loads, load], [*latencies, latency])
        rows = [
            (
                name,
                sum(r) / len(r),
                errors,
                max(loads),
                {share: statistics.median(lat.get(share, float("nan")) for lat in latencies) for share in SHARES},
            )
            for name, (r, errors, loads, latencies) in measured.items()
        ]
    finally:
        server.terminate()
        server.wait()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(
        f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}; gunicorn -c config/gunicorn.py"
        f" (gthread, {args.workers} processes × {args.threads} threads), production settings, pooled PostgreSQL,"
        f" Redis page cache, wrk --latency -t2 -c{args.connections}"
        f" -d{max(1, args.seconds // args.rounds)}s × {args.rounds} rounds interleaved"
    )
    print(f"load average (1, 5, 15 min) at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    bare = rows[0][1]
    print(
        "| endpoint | requests/s | vs bare view | p50 ms | p90 ms | p99 ms | highest load (1 min) | error answers |"
        "\n|---|---|---|---|---|---|---|---|"
    )
    for name, rps, errors, load, latency in rows:
        note = f"{errors} (not a measurement)" if errors else "0"
        shares = " | ".join(f"{latency[share]:.1f}" for share in SHARES)
        print(f"| {name} | {rps:,.0f} | {rps / bare:.2f} | {shares} | {load:.2f} | {note} |")
    html_full, html_gzip, html_304, json_full, json_304 = (rows[i][1] for i in (1, 2, 3, 4, 5))
    export_full, export_gzip, export_304, csv_full = (rows[i][1] for i in (7, 8, 9, 10))
    print(
        "cost of a cached download against a cached page (requests/s of the page ÷ requests/s of the download, same"
        f" run): export.json {json_full / export_full:.2f}× the standings JSON, gzip {html_gzip / export_gzip:.2f}×"
        f" the HTML standings as browsers ask, 304 {json_304 / export_304:.2f}× the standings JSON's 304,"
        f" standings.csv {json_full / csv_full:.2f}× the standings JSON"
    )
    print(f"goal 304 ≥ full body: HTML {html_304 / html_full:.2f}×, JSON {json_304 / json_full:.2f}×")
    print(
        f"goal 1,000-player HTML standings ≥ 0.8 of the bare view: {html_gzip / bare:.2f} gzip as browsers ask,"
        f" {html_full / bare:.2f} uncompressed"
    )


def validators(url: str, encodings: str = "") -> tuple[int, str]:
    """The body's size and ETag of a page (as sent to a client accepting `encodings`), and a check that its
    If-None-Match is answered 304."""
    with urllib.request.urlopen(
        urllib.request.Request(url, headers={"Accept-Encoding": encodings} if encodings else {})
    ) as response:
        size, etag = len(response.read()), response.headers["ETag"]
        if encodings and response.headers.get("Content-Encoding") != "gzip":
            sys.exit(f"{url}: not sent gzip to a client accepting {encodings}")
    try:
        urllib.request.urlopen(urllib.request.Request(url, headers={"If-None-Match": etag}))
    except urllib.error.HTTPError as answer:
        if answer.code == 304:
            return size, etag
    sys.exit(f"{url}: If-None-Match is not answered 304")


if __name__ == "__main__":
    main()
