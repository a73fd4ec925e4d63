"""Where a result's write spends the web process's CPU (not a test; issue #37).

    .venv/bin/python tests/bench/profile_result_write.py [--writes 15] [--profiled 5] [--tree-lines 60] [--sql]

The federation night (bench_federation.py) enters results three ways; this measures each one's web side in this
process, through Django's test Client (the whole middleware stack, as gunicorn's threads run it, with the
settings bench_night gives its web: config.settings.dev, DEBUG off, persistent connections, the page cache and the
broker in Redis):
- single result (API): POST /api/v1/games/<id>/result/ with the game's If-Match, as `Night.result_of` sends it;
- round sheet: the round sheet page (GET, which the secretary loads first) and its POST with 3 boards typed in and
  every other board sent as stored, as `Night.sheet_of` sends it (both timed, each on its own line);
- match card (API): POST /api/v1/matches/<id>/card/ with its 4 boards, as `Night.card_of` sends it.
The event is one section of the federation's open (216 players, 9 rounds, rounds 1-3 played, rounds 4-9 paired:
bench_night.build_open) and divisions of 6 teams × 4 boards with their 5 rounds paired (build_division), their
first standings computed here before anything is timed. Results go to each event's first round with games left, as
the secretaries of the night enter them; the writes of the three kinds take turns, after one untimed warm-up each.

The web process only sends the recompute (Celery is not eager: the task goes to Redis and no worker takes it), so
nothing of the recompute is counted. The marker that keeps a second recompute of an event from being sent while
one waits in the queue is removed before each write (a worker removes it when it starts the recompute; on the
night every write of a busy event found it gone), so every write pays for sending its recompute.

For each kind: CPU milliseconds of this process per write (time.process_time, the median of `--writes` writes),
the database's CPU for the connection (its backend's /proc stat, in 10 ms ticks: the mean over the writes, coarse),
the SQL statements of one more write (with --sql, the statements themselves, the script's own few included), then
the top of a pyinstrument profile of `--profiled` more writes, sampled in CPU time (time.process_time: waits for the
database or for a busy machine's CPU are not counted), each call with its share of the request's CPU.
Its own database (chess_league_bench_write) and Redis DB 7, emptied at the start and the end.
"""

import argparse
import gc
import os
import re
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.bench.cpu_clock import Clock  # noqa: E402

# bench_night reads these when it is imported (DATABASE_URL, the broker's and the cache's Redis)
os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench_write")
os.environ.setdefault("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
from tests.bench import bench_night  # noqa: E402

os.environ.update(
    {
        **bench_night.site_environment(),  # the night's web: DEBUG off, persistent connections, no rate limits
        "ALLOWED_HOSTS": "testserver",  # Django's test Client
        "CACHE_KEY_PREFIX": "bench-write",
        "LOG_LEVEL": "WARNING",  # no line per request or per recompute sent
    }
)

PLAYERS, ROUNDS, PLAYED = 216, 9, 3
SHEET_BOARDS = 3
OUTCOMES = ["1-0", "1/2-1/2", "0-1"]


def build(divisions: int):
    """The section and the divisions with their first standings; returns (organiser, token, section, divisions)."""
    from leagues.models import Club, League

    League.objects.filter(slug="bench-write").delete()
    Club.objects.filter(slug__startswith="bench-write-club-").delete()
    league = League.objects.create(name="Bench write", slug="bench-write")
    organiser, token = bench_night.organiser_with_token(league)
    clubs = Club.objects.bulk_create(Club(name=f"Write club {n}", slug=f"bench-write-club-{n}") for n in range(6))
    league.clubs.add(*clubs)
    section = bench_night.build_open(
        league, 1, PLAYERS, name="Open, section A", slug="open-section-a", rounds=ROUNDS, played=PLAYED
    )
    teams = [
        bench_night.build_division(league, clubs, name=f"Division {n}", slug=f"division-{n}", rounds=len(clubs) - 1)
        for n in range(1, divisions + 1)
    ]
    bench_night.recompute_all_here("bench-write")
    return organiser, token, section, teams


class Writes:
    """The three kinds of write as the night's secretaries send them, through one signed-in test Client."""

    def __init__(self, client, token: str, section, divisions, pace):
        self.client, self.section, self.divisions, self.pace = client, section, list(divisions), pace
        self.api = {"HTTP_AUTHORIZATION": f"Token {token}"}

    def _first_round(self) -> int:
        from leagues.models import Game, Result

        pending = Game.objects.filter(round__event=self.section, result=Result.PENDING, black__isnull=False)
        number = pending.order_by("round__number").values_list("round__number", flat=True).first()
        if number is None:
            raise SystemExit("the section has no game left: fewer --writes")
        return number

    def result(self, timed):
        from leagues.models import Game, Result

        number = self._first_round()
        game_id, version = (
            Game.objects.filter(round__event=self.section, round__number=number, result=Result.PENDING)
            .exclude(black=None)
            .order_by("board")
            .values_list("pk", "version")[0]
        )
        answer = timed(
            lambda: self.client.post(
                f"/api/v1/games/{game_id}/result/",
                {"result": self.pace.choice(OUTCOMES)},
                content_type="application/json",
                HTTP_IF_MATCH=f'"v{version}"',
                **self.api,
            )
        )
        assert answer.status_code == 200, (answer.status_code, answer.content[:200])

    def sheet_page(self, timed) -> tuple[str, str]:
        url = f"/en/manage/events/{self.section.slug}/rounds/{self._first_round()}/"
        page = timed(lambda: self.client.get(url))
        assert page.status_code == 200, page.status_code
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
        assert found is not None
        return url, found.group(1)

    def sheet(self, timed, page=None):
        from leagues.models import Game

        url, token = page or self.sheet_page(lambda send: send())
        number = int(url.rstrip("/").rsplit("/", 1)[1])
        games = list(
            Game.objects.filter(round__event=self.section, round__number=number)
            .order_by("board")
            .values_list("pk", "result", "version")
        )
        typed = {pk: self.pace.choice(OUTCOMES) for pk, result, _ in games if not result}
        typed = dict(list(typed.items())[:SHEET_BOARDS])
        form = {"csrfmiddlewaretoken": token, "reason": ""}
        for pk, result, version in games:
            form[f"result_{pk}"], form[f"version_{pk}"] = typed.get(pk, result), version
        body = urlencode(form)  # as a browser (and the night's requests) sends a form, not as multipart
        answer = timed(
            lambda: self.client.post(
                url, body, content_type="application/x-www-form-urlencoded", HTTP_REFERER=f"http://testserver{url}"
            )
        )
        assert answer.status_code == 302 and answer["Location"] == url, (answer.status_code, answer.get("Location"))

    def card(self, timed):
        from leagues.models import TeamMatch

        while True:
            if not self.divisions:
                raise SystemExit("the divisions have no match left: fewer --writes")
            matches = TeamMatch.objects.filter(round__event=self.divisions[0], games__result="")
            match = matches.order_by("round__number", "pk").first()
            if match is not None:
                break
            self.divisions.pop(0)
        games = list(match.games.order_by("board").values_list("pk", "version"))
        boards = [{"game": pk, "result": self.pace.choice(OUTCOMES), "version": v} for pk, v in games]
        answer = timed(
            lambda: self.client.post(
                f"/api/v1/matches/{match.pk}/card/",
                {"version": match.version, "boards": boards},
                content_type="application/json",
                **self.api,
            )
        )
        assert answer.status_code == 200, (answer.status_code, answer.content[:200])


def tree_lines(profiler, writes: int, share: float = 0.01) -> list[str]:
    """The profile's calls from the view down (the middleware's chain, each frame holding nearly the whole time,
    left out), each with its share of the request's CPU time (the sampler's own cost inflates the milliseconds of
    a profiled request several times, so only the shares are shown), down to calls of `share` of the whole."""
    from pyinstrument.renderers import ConsoleRenderer

    frame = ConsoleRenderer().preprocess(profiler.last_session.root_frame())
    if frame is None:
        return ["(no samples)"]
    whole = frame.time
    while frame.children:
        heaviest = max(frame.children, key=lambda child: child.time)
        if heaviest.time < 0.97 * whole:
            break
        frame = heaviest
    lines: list[str] = []

    def walk(node, depth: int) -> None:
        where = f"{node.file_path_short}:{node.line_no}" if node.file_path_short else ""
        lines.append(f"{'  ' * depth}{node.time / whole * 100:5.1f} %  {node.function}  {where}")
        for child in sorted(node.children, key=lambda c: -c.time):
            if child.time >= share * whole:
                walk(child, depth + 1)

    lines.append(f"100.0 %  the whole request ({writes} requests)")
    walk(frame, 0)
    return lines


def profiled(profiler, go):
    profiler.start()
    try:
        return go()
    finally:
        profiler.stop()


KINDS = {
    "single result (API)": "result",
    "round sheet page (GET)": "sheet_page",
    "round sheet, 3 boards (POST)": "sheet",
    "match card, 4 boards (API)": "card",
}


def site_ready():
    """Django set up on this bench's own database (created, migrated) and its Redis DB emptied; returns its client."""
    from tests.bench.bench_pipeline import ensure_database

    ensure_database(bench_night.DATABASE_URL)
    import django

    django.setup()
    import redis
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    broker = redis.Redis.from_url(bench_night.REDIS_URL)
    broker.flushdb()
    return broker


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=15, help="timed writes of each kind")
    parser.add_argument("--profiled", type=int, default=5, help="writes of each kind in its profile")
    parser.add_argument("--tree-lines", type=int, default=60, help="lines of each profile shown")
    parser.add_argument("--sql", action="store_true", help="print the SQL statements of each kind's write")
    args = parser.parse_args()
    broker = site_ready()
    import random

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from pyinstrument import Profiler
    from pyinstrument.stack_sampler import get_stack_sampler

    from leagues.broker import _pending_key
    from leagues.models import Event

    per_kind = args.writes + args.profiled + 2  # the warm-up and the statements' write
    organiser, token, section, divisions = build(-(-per_kind // 15))
    event_ids = list(Event.objects.filter(league__slug="bench-write").values_list("pk", flat=True))
    client = Client(enforce_csrf_checks=True)
    assert client.login(username=organiser.username, password=bench_night.PASSWORD)
    writes = Writes(client, token, section, divisions, random.Random(37))
    clock = Clock()
    spent: dict[str, list[tuple[float, float]]] = {kind: [] for kind in KINDS}

    def send(kind: str, timed) -> None:
        broker.delete(*(_pending_key(pk) for pk in event_ids))  # a worker took the last recompute meanwhile
        if kind == "round sheet page (GET)":
            page = writes.sheet_page(timed)
            writes.sheet(lambda go: go(), page)  # the sheet is saved untimed: the next page has fewer boards left
        else:
            getattr(writes, KINDS[kind])(timed)

    def timed_as(kind: str):
        def timed(go):
            started = clock()
            answer = go()
            ended = clock()
            spent[kind].append((ended[0] - started[0], ended[1] - started[1]))
            return answer

        return timed

    for kind in KINDS:  # warm-up: imports, templates, the first query of each kind
        send(kind, lambda go: go())
    gc.freeze()  # as a web process does once it has answered its first requests (config/gunicorn.py)
    for _ in range(args.writes):
        for kind in KINDS:
            send(kind, timed_as(kind))
    print(
        f"{PLAYERS}-player section ({ROUNDS} rounds, {PLAYED} played) and {len(divisions)} divisions of 6 teams × "
        f"{bench_night.BOARDS} boards; load average {os.getloadavg()[0]:.2f}; {args.writes} writes of each kind, "
        "in turns"
    )
    print("| write | this process, median (min-max) | database, mean (10 ms ticks) | SQL statements |")
    print("|---|---|---|---|")
    for kind in KINDS:
        with CaptureQueriesContext(connection) as queries:
            send(kind, lambda go: go())
        mine = [m for m, _ in spent[kind]]
        base = statistics.mean(d for _, d in spent[kind])
        print(
            f"| {kind} | {statistics.median(mine) * 1000:.1f} ms ({min(mine) * 1000:.1f}-{max(mine) * 1000:.1f}) "
            f"| {base * 1000:.1f} ms | {len(queries)} |"
        )
    if args.sql:
        for kind in KINDS:
            with CaptureQueriesContext(connection) as queries:
                send(kind, lambda go: go())
            print(f"\n### {kind}: SQL\n")
            for query in queries:
                print(" ", query["sql"][:400])
    get_stack_sampler().timer_func = time.process_time  # the profile in CPU time
    for kind in KINDS if args.profiled else ():
        profiler = Profiler(interval=0.0002, async_mode="disabled")
        for _ in range(args.profiled):
            send(kind, partial(profiled, profiler))
        print(f"\n### {kind}: {args.profiled} writes, shares of the CPU time\n")
        print("\n".join(tree_lines(profiler, args.profiled)[: args.tree_lines]))
    League = section.league.__class__
    League.objects.filter(slug="bench-write").delete()
    broker.flushdb()


if __name__ == "__main__":
    main()
