"""A federation night (not a test): a 5,600-player open in 26 sections and 40 team divisions, 500 anonymous page
requests a second and 30 results a second, on loopback.

    make bench-federation                 # 10 minutes
    .venv/bin/python tests/bench/bench_federation.py [--seconds 600] [--reads 500] [--results 30] [--workers 2]
                                          [--secretaries 15] [--reader-processes 4] [--reader-threads 40]

The site has no sections within an event: a federation's open is entered as one event per section, so the open
is 26 events of 215 or 216 players (A to Z, 5,600 players in all; 9 rounds, rounds 1-3 played, rounds 4-9 paired
in advance so that the night never runs out of games: the bench's shortcut, a real open pairs each round after the
one before), beside 40 team divisions (6 teams of 4 boards, a round robin with its 5 rounds paired). Built with
bulk writes by bench_night's builders, then served as bench_night serves its night (config/gunicorn.py, the
image's threaded workers; Celery workers at nice 6, for the recompute queue and one for the others, as the image's
pools; its own database, Redis DB 8 and a log folder of its own).

For `--seconds`:
- readers (`--reader-processes` processes of `--reader-threads` threads each, every thread a browser of its own)
  ask `--reads` pages a second in all, at a steady pace: a section's standings page (most), its standings API,
  its current round, a player's card, a division's standings page or API. A browser that has the page sends its
  ETag (If-None-Match) and Last-Modified (If-Modified-Since), as a browser refreshing standings does; one request
  in ten is a new visitor's, without them. Each read opens a connection of its own (the site keeps none alive);
- secretaries (threads of this process, each with the events of its own: a section has one arbiter) enter
  `--results` results a second in all, in each event's first round with games left: a section's result through
  the API (If-Match) or a few boards on its round sheet page; a division's match card through the API.

Reports reads (rate reached, p50/p99 by page and status, 304s), writes (p50/p99 by kind), result → visible (until the
result is in its event's standings snapshot, which the standings API and light pages show from then on, after at most
the 1 s page stamp, as bench_night measures it; a heavy page follows after a worker renders it, its readers getting
the page as it was meanwhile) for the sections and the divisions, and each section's p99, the heavy pages rendered by
the web and by the workers, errors by cause, lost results (checked in the database), results never visible, CPU by
process kind (only this bench's processes and its database's PostgreSQL backends, as bench_night counts them; Redis
is a server shared with the whole machine: its CPU is shown for the whole server, not as this bench's), the web's CPU
by route (each request's own thread's CPU time during the night: tests/bench/gunicorn_cpu.py, the image's
configuration plus that count) and the load average, against the goals: 0 errors, 0 lost, reads p99 ≤ 300 ms,
every section fresh within 10 s at p99."""

import argparse
import http.client
import json
import logging
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
# bench_night reads these when it is imported: this bench's own database and Redis DB (the suite uses 15 and 14,
# bench_pipeline 10, bench_night and bench_pages 11, bench_import and bench_webhooks 12)
os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench_federation")
os.environ.setdefault("BENCH_REDIS_URL", "redis://127.0.0.1:6379/8")
from tests.bench import bench_night  # noqa: E402
from tests.bench.bench_night import (  # noqa: E402
    BackendCpu,
    Night,
    build_division,
    build_open,
    cpu_seconds,
    free_port,
    heavy_renders,
    lost_results,
    organiser_with_token,
    percentile,
    recompute_all_here,
    signed_in,
    site_ready,
    stale_events,
    start_web,
    start_workers,
    stop,
)

LEAGUE = "federation"
PLAYERS, SECTIONS = 5600, 26
ROUNDS, PLAYED = 9, 3
DIVISIONS, TEAMS = 40, 6
FRESH_GOAL, READ_GOAL = 10.0, 0.300  # seconds: every section's result → visible p99, reads p99
NEW_VISITORS = 0.1  # the share of reads without validators
READER = "bench-federation-reader"  # the readers' User-Agent, which gunicorn's access log shows


def section_sizes() -> list[int]:
    """5,600 players in 26 sections as even as can be: 215 or 216 each."""
    size, more = divmod(PLAYERS, SECTIONS)
    return [size + (n < more) for n in range(SECTIONS)]


def build_federation():
    """The sections and divisions; returns (token, section slugs, division slugs)."""
    from leagues.models import Club, League

    League.objects.filter(slug=LEAGUE).delete()
    Club.objects.filter(slug__startswith="fed-club-").delete()
    league = League.objects.create(name="Federation night", slug=LEAGUE)
    _, token = organiser_with_token(league)
    clubs = Club.objects.bulk_create(Club(name=f"Federation club {n}", slug=f"fed-club-{n}") for n in range(TEAMS))
    league.clubs.add(*clubs)
    sections = []
    for number, size in enumerate(section_sizes(), start=1):
        letter = chr(ord("A") + number - 1)
        slug = f"open-section-{letter.lower()}"
        build_open(league, number, size, name=f"Open, section {letter}", slug=slug, rounds=ROUNDS, played=PLAYED)
        sections.append(slug)
    divisions = []
    for number in range(1, DIVISIONS + 1):
        slug = f"division-{number}"
        build_division(league, clubs, name=f"Division {number}", slug=slug, rounds=TEAMS - 1)
        divisions.append(slug)
    return token, sections, divisions


# ------------------------------------------------------------------------------------------- readers


PLAYER_CARDS = (1, 44, 87, 130, 173)  # the players whose cards are followed, by start number


def following(sections: list[str], divisions: list[str]):
    """Whom a browser follows, with weights: (weight, events, [(weight, kind, path with {slug} and {player})])."""
    current = PLAYED + 1  # the first round being played tonight
    return [
        (
            0.75,
            sections,
            [
                (0.60, "section standings page", "/en/events/{slug}/"),
                (0.15, "section standings API", "/api/v1/events/{slug}/standings/"),
                (0.20, "section round page", f"/en/events/{{slug}}/rounds/{current}/"),
                (0.05, "section player card", "/en/events/{slug}/players/{player}/"),
            ],
        ),
        (
            0.25,
            divisions,
            [
                (0.80, "division standings page", "/en/events/{slug}/"),
                (0.20, "division standings API", "/api/v1/events/{slug}/standings/"),
            ],
        ),
    ]


def every_path(follows) -> list[str]:
    return [
        path.format(slug=slug, player=player)
        for _, slugs, pages in follows
        for slug in slugs
        for _, _, path in pages
        for player in (PLAYER_CARDS if "{player}" in path else PLAYER_CARDS[:1])
    ]


def read(port: int, follows, start_at: float, stop_at: float, rate: float, threads: int, seed: int) -> None:
    """A reader process: `threads` browsers asking `rate` pages a second in all, each at a steady pace from
    `start_at` until `stop_at` (a browser whose last answer came after its next slot asks at once: a slow site gets
    fewer requests, as from real browsers). A browser follows one section (its standings, current round and one
    player's card) or one division, refreshing its pages. Prints one JSON line: the reads [(kind, status,
    seconds)], the errors, the requests sent with validators and those sent more than a slot late."""
    reads: list[tuple[str, int, float]] = []
    errors: list[str] = []
    conditional, late = [0], [0]
    lock = threading.Lock()

    def browser(number: int) -> None:
        pace = random.Random(seed * 1000 + number)
        _, slugs, pages = pace.choices(follows, [w for w, _, _ in follows])[0]
        slug, player = pace.choice(slugs), pace.choice(PLAYER_CARDS)
        kept: dict[str, dict[str, str]] = {}  # path -> the validators of its last answer
        every = threads / rate
        due = start_at + pace.uniform(0, every)
        while due < stop_at:
            now = time.monotonic()
            if now >= stop_at:
                break
            time.sleep(max(0.0, due - now))
            behind = now - due > every
            due += every
            _, kind, path = pace.choices(pages, [w for w, _, _ in pages])[0]
            path = path.format(slug=slug, player=player)
            headers = {} if pace.random() < NEW_VISITORS else kept.get(path, {})
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            started = time.perf_counter()
            try:
                connection.request("GET", path, headers={"Accept-Encoding": "gzip", "User-Agent": READER, **headers})
                answer = connection.getresponse()
                answer.read()
            except OSError as exc:
                with lock:
                    errors.append(f"{kind}: {exc.__class__.__name__} (no answer within 30 s, or refused)")
                continue
            finally:
                connection.close()
            took = time.perf_counter() - started
            if answer.status == 200:
                kept[path] = {
                    name: value
                    for name, header in (("If-None-Match", "ETag"), ("If-Modified-Since", "Last-Modified"))
                    if (value := answer.getheader(header))
                }
            with lock:
                reads.append((kind, answer.status, took))
                conditional[0] += bool(headers)
                late[0] += behind
                if answer.status not in (200, 304):
                    errors.append(f"{kind}: {answer.status}")

    pool = [threading.Thread(target=browser, args=(n,)) for n in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    print(json.dumps({"reads": reads, "errors": errors, "conditional": conditional[0], "late": late[0]}))


# ------------------------------------------------------------------------------------------- secretaries


class FederationNight(Night):
    """bench_night's night (its secretaries' requests, its watcher of the standings snapshots) on the federation's
    events: each secretary enters the results of its own events at its share of the night's pace."""

    def __init__(self, base: str, token: str, sections: list[str], divisions: list[str], args):
        super().__init__(base, token, [], sections, args.seconds, poll=0)
        self.sections, self.divisions = sections, divisions
        self.secretaries = args.secretaries
        self.pace = args.results / args.secretaries  # results a second of each secretary
        self.kinds = {**{s: "sections" for s in sections}, **{d: "divisions" for d in divisions}}
        self.ran_out = 0  # secretaries whose events had no game left before the end

    def secretary(self, number: int, session) -> None:
        from django.db import connection

        api = {"Authorization": f"Token {self.token}"}
        pace = random.Random(number)
        owned = [*self.sections, *self.divisions][number :: self.secretaries]
        due = self.start_at + pace.uniform(0, 1 / self.pace)
        while time.monotonic() < self.stop_at:
            time.sleep(max(0.0, due - time.monotonic()))
            slug = pace.choice(owned)
            kind = "card" if self.kinds[slug] == "divisions" else pace.choice(("result", "result", "sheet"))
            try:
                entered = self.enter(session, api, pace, slug, kind)
            except self.requests.RequestException as exc:
                self._error(f"{kind}: {exc.__class__.__name__} (no answer within the client's 30 s, or refused)")
                entered = 1
            if entered is None:  # this event has no game left
                owned.remove(slug)
                if not owned:
                    with self.lock:
                        self.ran_out += 1
                    break
                continue
            due += entered / self.pace
        connection.close()

    def enter(self, session, api, pace, slug: str, kind: str) -> int | None:
        """One secretary's entry in the first round of `slug` with games left: the results it sends (None: none
        left)."""
        from leagues.models import Game, Result, TeamMatch

        pending = Game.objects.filter(round__event__slug=slug, result=Result.PENDING, black__isnull=False)
        first = pending.order_by("round__number").values_list("round__number", flat=True).first()
        if first is None:
            return None
        if kind == "card":
            match = TeamMatch.objects.filter(round__event__slug=slug, round__number=first, games__result="")
            match_id = match.order_by("pk").values_list("pk", flat=True).first()
            assert match_id is not None
            self.card_of(session, api, pace, match_id)
            return 4
        if kind == "sheet":
            return max(1, self.sheet_of(session, pace, slug, first))  # a refused sheet takes a result's time
        game = pending.filter(round__number=first).order_by("board").values_list("pk", "version", "round__event_id")
        self.result_of(session, api, pace, *game[0])
        return 1


# ------------------------------------------------------------------------------------------- the night


def served_in_gunicorn() -> dict[int, list[float]]:
    """The readers' requests by status, with the seconds gunicorn's access log gives each: from the moment a
    thread took the request, so what a reader waited beyond it was spent in the queue for a free thread."""
    served: dict[int, list[float]] = {}
    log = (bench_night.LOGS / "bench-night-web.log").read_text(errors="replace")
    for status, took in re.findall(rf'" (\d{{3}}) .*"{READER}" (\d+)ms', log):
        served.setdefault(int(status), []).append(int(took) / 1000)
    return served


def redis_cpu() -> float:
    """The Redis server's CPU so far: the whole server's (shared with everything else on the machine)."""
    import redis

    info = redis.Redis.from_url(bench_night.REDIS_URL).info("cpu")
    return info["used_cpu_user"] + info["used_cpu_sys"]


def run(args) -> dict:
    import django
    import redis

    django.setup()
    logging.getLogger("leagues.recompute").setLevel(logging.WARNING)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(bench_night.REDIS_URL).flushdb()
    started = time.monotonic()
    token, sections, divisions = build_federation()
    recompute_all_here(LEAGUE)
    built = time.monotonic() - started
    backends = BackendCpu()
    port = free_port()
    # the web's CPU by route during the night (tests/bench/gunicorn_cpu.py)
    counting = bench_night.LOGS / "web-cpu-counting"
    os.environ.update(BENCH_CPU_COUNTING=str(counting), BENCH_CPU_BY_ROUTE=str(bench_night.LOGS / "web-cpu"))
    web = start_web(port, config=str(Path(__file__).with_name("gunicorn_cpu.py")))
    pool = start_workers("federation", args.workers, args.worker_nice)
    base = f"http://127.0.0.1:{port}"
    import requests

    follows = following(sections, divisions)
    try:
        site_ready(base)
        for path in every_path(follows):  # readers were reading before the night: every page read is in the cache
            requests.get(base + path, timeout=60)
        sessions = [signed_in(base) for _ in range(args.secretaries)]
        night = FederationNight(base, token, sections, divisions, args)
        share = args.reads / args.reader_processes
        readers = [
            subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "read",
                    json.dumps([port, follows, night.start_at, night.stop_at, share]),
                    str(args.reader_threads),
                    str(n),
                ],
                stdout=subprocess.PIPE,
                text=True,
                start_new_session=True,
            )
            for n in range(args.reader_processes)
        ]
        cpu_before = {
            "web (gunicorn)": cpu_seconds(web),
            "workers (celery)": sum(cpu_seconds(p) for p in pool),
            "PostgreSQL (this bench's database's backends)": backends.seconds(),
            "bench clients (readers, secretaries, watcher)": sum(os.times()[:4]),
            "Redis (the whole server, shared with the machine)": redis_cpu(),
        }
        load_before = open("/proc/loadavg").read().split()[:3]
        logs = {"web": ["web"], "workers": [f"federation{n + 1}" for n in range(args.workers)] + ["federation-other"]}
        renders_before = {kind: heavy_renders(names) for kind, names in logs.items()}
        cpu_from = time.monotonic()
        threads = [threading.Thread(target=night.secretary, args=(n, sessions[n])) for n in range(args.secretaries)]
        watcher = threading.Thread(target=night.watcher)
        time.sleep(max(0.0, night.start_at - time.monotonic()))
        counting.touch()
        for thread in [*threads, watcher]:
            thread.start()
        for thread in threads:
            thread.join()
        answers = [json.loads(reader.communicate()[0]) for reader in readers]
        counting.unlink()
        load_during = open("/proc/loadavg").read().split()[:3]
        cpu = {
            "web (gunicorn)": cpu_seconds(web),
            "workers (celery)": sum(cpu_seconds(p) for p in pool),
            "PostgreSQL (this bench's database's backends)": backends.seconds(),
            "bench clients (readers, secretaries, watcher)": sum(os.times()[:4]),
            "Redis (the whole server, shared with the machine)": redis_cpu(),
        }
        cpu = {kind: cpu[kind] - cpu_before[kind] for kind in cpu}
        cpu_span = time.monotonic() - cpu_from
        renders = {
            kind: tuple(a - b for a, b in zip(heavy_renders(names), renders_before[kind], strict=True))
            for kind, names in logs.items()
        }
        drain_until = time.monotonic() + 120
        while night.waiting and time.monotonic() < drain_until:
            time.sleep(0.1)
        night.done.set()
        watcher.join()
        lost = lost_results(night.written)
        served = served_in_gunicorn()
        stale = stale_events(LEAGUE)
    finally:
        for process in [web, *pool]:
            stop(process)
        backends.stop()
    by_route: Counter[str] = Counter()
    answered: Counter[str] = Counter()
    for sums in bench_night.LOGS.glob("web-cpu.*.json"):
        for key, (requests_, seconds) in json.loads(sums.read_text()).items():
            by_route[key] += seconds
            answered[key] += requests_
    return {
        "by_route": [(key, seconds, answered[key]) for key, seconds in by_route.most_common()],
        "built": built,
        "cpu_span": cpu_span,
        "night": night,
        "reads": [tuple(r) for a in answers for r in a["reads"]],
        "read_errors": [e for a in answers for e in a["errors"]],
        "conditional": sum(a["conditional"] for a in answers),
        "late": sum(a["late"] for a in answers),
        "lost": lost,
        "served": served,
        "stale": stale,
        "cpu": cpu,
        "renders": renders,
        "load": (load_before, load_during, open("/proc/loadavg").read().split()[:3]),
    }


def report(outcome: dict, args) -> None:
    night, reads, seconds = outcome["night"], outcome["reads"], args.seconds
    ms = lambda values, share: f"{percentile(values, share) * 1000:.0f} ms"  # noqa: E731
    s = lambda values, share: f"{percentile(values, share):.1f} s"  # noqa: E731
    load = lambda which: " ".join(outcome["load"][which])  # noqa: E731
    took = [t for _, _, t in reads]
    errors = night.errors + outcome["read_errors"]
    print(
        f"\n### {PLAYERS:,} players in {SECTIONS} sections and {DIVISIONS} divisions, {seconds:.0f} s; built in "
        f"{outcome['built']:.0f} s; load average (1, 5, 15 min) {load(0)} before, {load(1)} at the end of the night, "
        f"{load(2)} after the last result was visible"
    )
    print("| measure | value |\n|---|---|")
    print(f"| reads a second (asked {args.reads}) | {len(reads) / seconds:.0f} ({len(reads)}) |")
    print(f"| reads sent with validators (If-None-Match, If-Modified-Since) | {outcome['conditional']} |")
    print(f"| reads sent over a slot late (the browser waited for its last answer) | {outcome['late']} |")
    statuses = Counter(status for _, status, _ in reads)
    print(f"| reads by status | {', '.join(f'{k}: {v}' for k, v in sorted(statuses.items()))} |")
    print(f"| reads p50 / p99 (goal p99 ≤ {READ_GOAL * 1000:.0f} ms) | {ms(took, 0.5)} / {ms(took, 0.99)} |")
    for kind in dict.fromkeys(k for k, _, _ in reads):
        for status in sorted({st for k, st, _ in reads if k == kind}):
            times = [t for k, st, t in reads if k == kind and st == status]
            print(f"| {kind}, answered {status}: p50 / p99 | {ms(times, 0.5)} / {ms(times, 0.99)} ({len(times)}) |")
    for status, times in sorted(outcome["served"].items()):
        print(
            f"| reads answered {status}, time in gunicorn (its access log; the rest is the wait for a free thread): "
            f"p50 / p99 | {ms(times, 0.5)} / {ms(times, 0.99)} ({len(times)}) |"
        )
    print(f"| results entered a second (asked {args.results}) | {night.results / seconds:.1f} ({night.results}) |")
    for kind in sorted({k for k, _ in night.write_kinds}):
        times = [t for k, t in night.write_kinds if k == kind]
        print(f"| write: {kind} p50 / p99 | {ms(times, 0.5)} / {ms(times, 0.99)} ({len(times)}) |")
    if night.ran_out:
        print(f"| secretaries whose events had no game left before the end | {night.ran_out} |")
    by_kind: dict[str, list[float]] = {}
    for slug, times in night.visible_by_event.items():
        by_kind.setdefault(night.kinds[slug], []).extend(times)
    sizes = {"sections": f"sections of {min(section_sizes())}-{max(section_sizes())} players", "divisions": ""}
    sizes["divisions"] = f"divisions of {TEAMS} teams × {bench_night.BOARDS} boards"
    for kind, times in sorted(by_kind.items()):
        print(
            f"| result → visible, {sizes[kind]}: p50 / p99 / worst | {s(times, 0.5)} / {s(times, 0.99)} / "
            f"{max(times):.1f} s ({len(times)} writes) |"
        )
    section_p99 = {  # a section without a result visible counts as never fresh
        slug: percentile(night.visible_by_event[slug], 0.99) if slug in night.visible_by_event else math.inf
        for slug in night.sections
    }
    worst = max(section_p99, key=section_p99.__getitem__)
    over = [slug for slug, p99 in section_p99.items() if p99 > FRESH_GOAL]
    print(
        f"| sections' result → visible p99: worst, sections over {FRESH_GOAL:.0f} s (or without a result) | "
        f"{section_p99[worst]:.1f} s ({worst}), {len(over)} of {len(section_p99)} |"
    )
    web, workers = outcome["renders"]["web"], outcome["renders"]["workers"]
    print(
        f"| heavy pages rendered during the night, by web processes / by workers (their readers got the page as it "
        f"was until then) | {web[0]} ({web[1]:.1f} s) / {workers[0]} ({workers[1]:.1f} s) |"
    )
    print(f"| writes never in the standings | {len(night.waiting)} |")
    print(f"| writes refused as stale (409, 412) | {night.conflicts} |")
    print(f"| errors | {len(errors)} |")
    for what, count in sorted(Counter(errors).items(), key=lambda pair: -pair[1])[:12]:
        print(f"| error: {what} | {count} |")
    lost = outcome["lost"]
    print(f"| lost results (checked in the database) | {len(lost)} of {len(night.written)} {lost[:3] or ''} |")
    print(f"| events with stale standings at the end | {outcome['stale']} |")
    for kind, used in outcome["cpu"].items():
        share = used / outcome["cpu_span"] * 100
        print(
            f"| CPU during the night ({outcome['cpu_span']:.0f} s): {kind} | {used:.1f} s ({share:.0f} % of a core) |"
        )
    requests = len(reads) + len(night.writes)
    web = outcome["cpu"]["web (gunicorn)"]
    print(f"| web CPU per request (reads and writes) | {web / max(1, requests) * 1000:.1f} ms ({requests}) |")
    counted = sum(spent for _, spent, _ in outcome["by_route"])
    for key, spent, answered in outcome["by_route"][:14]:  # each request's own thread's CPU, by route and status
        print(
            f"| web CPU in requests' threads: {key} | {spent:.1f} s ({spent / max(counted, 1e-9) * 100:.0f} % of "
            f"{counted:.0f} s), {answered} requests, {spent / answered * 1000:.2f} ms each |"
        )
    fresh = not over and not night.waiting
    goals = {
        "0 errors": not errors,
        "0 lost": not lost,
        f"reads p99 ≤ {READ_GOAL * 1000:.0f} ms": percentile(took, 0.99) <= READ_GOAL,
        f"every section fresh within {FRESH_GOAL:.0f} s at p99": fresh,
        f"{args.reads} reads a second reached (95 %)": len(reads) / seconds >= 0.95 * args.reads,
        f"{args.results} results a second reached (95 %)": night.results / seconds >= 0.95 * args.results,
    }
    print("\ngoals: " + "; ".join(f"{goal}: {'met' if met else 'NOT met'}" for goal, met in goals.items()))


def main() -> None:
    if sys.argv[1:2] == ["read"]:
        port, follows, start_at, stop_at, rate = json.loads(sys.argv[2])
        read(port, follows, start_at, stop_at, rate, int(sys.argv[3]), int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--reads", type=float, default=500, help="anonymous page requests a second, in all")
    parser.add_argument("--results", type=float, default=30, help="results entered a second, in all")
    parser.add_argument("--workers", type=int, default=2, help="recompute queue's Celery workers (concurrency 1)")
    parser.add_argument("--secretaries", type=int, default=15)
    parser.add_argument("--reader-processes", type=int, default=4)
    parser.add_argument("--reader-threads", type=int, default=40, help="browsers of each reader process")
    parser.add_argument("--worker-nice", type=int, default=bench_night.WORKER_NICE)
    args = parser.parse_args()
    available = sum(section_sizes()) // 2 // SECTIONS * SECTIONS * (ROUNDS - PLAYED) + DIVISIONS * 15 * 4
    if args.results * args.seconds > available:
        parser.error(f"{args.results:g} results a second for {args.seconds:g} s: more than the {available} games")
    from tests.bench.bench_pipeline import ensure_database

    bench_night.LOGS = Path(tempfile.mkdtemp(prefix="bench-federation-"))
    print(f"logs: {bench_night.LOGS}")
    ensure_database(bench_night.DATABASE_URL)
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(
        f"machine: {os.cpu_count()} cores, {cpu}; gunicorn -c config/gunicorn.py, {bench_night.WEB_CONCURRENCY} "
        f"processes × {bench_night.WEB_THREADS} threads; {args.workers} Celery worker(s) of concurrency 1 for the "
        f"recompute queue and one for the others, at nice {args.worker_nice}; PostgreSQL and Redis shared with the "
        f"other work on this machine; {args.reads:g} reads "
        f"and {args.results:g} results a second ({args.reader_processes} × {args.reader_threads} browsers, "
        f"{args.secretaries} secretaries) for {args.seconds:g} s"
    )
    report(run(args), args)


if __name__ == "__main__":
    main()
