"""CPU time of one uncached render of the big pages of a 1,000-player open, beside the floor of a trivial page in
the same run (not a test; issue 37: "Big pages").

    .venv/bin/python tests/bench/bench_pages.py [--rounds 5] [--repeat 7] [--lang en] [--save DIR] [--compare DIR]
        [--tree PAGE]

Builds the open as profile_recompute does (tests/bench/data/swiss-1000-players.trf, the first `rounds` rounds
played, the next round's 500 boards paired and not played yet) and its standings snapshot, then renders through
the whole middleware stack (Django's test client), with the page cache left out (each render is the view's own, as
the first reader after a change gets it): the standings, the Swiss wallchart (crosstable), the page of the last
round played, the organiser's round sheet of the next round (500 boards, one result field each), and /ping (the
floor). Each figure is the median of `repeat` renders of this process's CPU (time.process_time) plus the CPU of the
database process serving this connection (/proc/PID/stat); the load average is printed beside it.

--save DIR writes each page's HTML (the form token and CSP nonce blanked: they change on every answer); --compare DIR
checks that every page reads byte for byte as the saved one (a change of speed only must not change a byte): save and
compare with the same `repeat` (a chart's id counts the charts this process drew). --lang: the pages in that language
(he: right to left).
--tree PAGE prints a profile in CPU time of one more render of that page (standings, crosstable, round, sheet).
Its own database (chess_league_bench_pages, made anew each run: the same ids every run) and Redis DB 11.
"""

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench_pages"
)
os.environ["CACHE_URL"] = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/11")
os.environ["CELERY_BROKER_URL"] = "memory://"  # nothing reaches a worker
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"

TRF = ROOT / "tests" / "bench" / "data" / "swiss-1000-players.trf"
VOLATILE = re.compile(r'(name="csrfmiddlewaretoken" value="|nonce="|csrf-token" content=")[^"]*"')
# when this run stored the standings ("Last updated" in the page's language)
SNAPSHOT_TIME = re.compile(r'(<span class="muted">· [^<]* <time datetime=")[^<]*</time>')


def pages(slug: str, rounds: int, lang: str = "en") -> dict[str, str]:
    return {
        "ping (floor)": "/ping",
        "standings": f"/{lang}/events/{slug}/",
        "crosstable": f"/{lang}/events/{slug}/crosstable/",
        f"round {rounds} (results)": f"/{lang}/events/{slug}/rounds/{rounds}/",
        "player page (no. 2)": f"/{lang}/events/{slug}/players/2/",
        f"round sheet {rounds + 1} (500 boards)": f"/{lang}/manage/events/{slug}/rounds/{rounds + 1}/",
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--tree")
    parser.add_argument("--lang", default="en", help="the pages' language (en, el, tr, he, nb)")
    args = parser.parse_args()
    import psycopg

    from tests.bench.bench_pipeline import ensure_database

    url = os.environ["DATABASE_URL"]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:  # the same ids every run
        conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
    ensure_database(url)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.conf import settings
    from django.test import Client

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]

    from leagues.public import views
    from leagues.recompute import standings_recompute_event
    from tests.bench.profile_recompute import Clock, build_event

    event, user, _pending = build_event(TRF, args.rounds, ["BH/C1", "BH", "SB", "PS", "WIN"])
    event.slug = event.league.slug = "bench-pages"  # the same addresses every run (the pages' QR codes hold them)
    event.save(update_fields=["slug"])
    event.league.save(update_fields=["slug"])
    standings_recompute_event(event.pk)

    def uncached(*, render, **_kwargs):
        return render()  # the view's own render, as the first reader after a change gets it

    views.cached_page = uncached  # the event pages' (pairings.py's too, through views._cached)
    anonymous, organiser = Client(), Client()
    organiser.force_login(user)
    clock = Clock()
    addresses = pages(event.slug, args.rounds, args.lang)
    figures: dict[str, list[float]] = {name: [] for name in addresses}
    loads: dict[str, list[float]] = {name: [] for name in addresses}
    bodies: dict[str, bytes] = {}
    for _ in range(args.repeat):  # interleaved: a change of the machine's load falls on every page alike
        for name, path in addresses.items():
            client = organiser if "/manage/" in path else anonymous
            loads[name].append(os.getloadavg()[0])
            start = clock()
            response = client.get(path)
            end = clock()
            assert response.status_code == 200, (name, response.status_code)
            figures[name].append(end[0] - start[0] + end[1] - start[1])
            text = SNAPSHOT_TIME.sub(r"\1</time>", VOLATILE.sub(r'\1"', response.content.decode()))
            bodies[name] = text.encode()
    floor = statistics.median(figures["ping (floor)"])
    print(
        f"{TRF.name}: {event.entries.count()} players, {args.rounds} rounds played, round {args.rounds + 1} paired;"
        f" CPU seconds of one uncached render (this process and the database), median of {args.repeat}"
    )
    print("| page | CPU ms (median) | worst ms | × floor | KiB | load (1 min) |\n|---|---|---|---|---|---|")
    for name, runs in figures.items():
        median = statistics.median(runs)
        print(
            f"| {name} | {median * 1000:.1f} | {max(runs) * 1000:.1f} | {median / floor:.0f} |"
            f" {len(bodies[name]) // 1024} | {min(loads[name]):.2f}–{max(loads[name]):.2f} |"
        )
    print(f"load average (1, 5, 15 min) at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        for name, body in bodies.items():
            (args.save / f"{re.sub(r'[^a-z0-9]+', '-', name)}.html").write_bytes(body)
    if args.compare:
        differ = []
        for name, body in bodies.items():
            saved = (args.compare / f"{re.sub(r'[^a-z0-9]+', '-', name)}.html").read_bytes()
            if saved != body:
                differ.append(name)
        print("HTML as saved, byte for byte:" + (" every page" if not differ else f" NOT {', '.join(differ)}"))
    if args.tree:
        import cProfile
        import pstats

        name, path = next((n, p) for n, p in addresses.items() if n.startswith(args.tree))
        client = organiser if "/manage/" in path else anonymous
        profiler = cProfile.Profile(time.process_time)
        profiler.runcall(client.get, path)
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(45)
    event.league.delete()
    if args.compare and differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
