"""A league night (not a test): many events receiving results at once while hundreds of readers poll.

    make bench-night                      # the same night with one worker, then with two
    .venv/bin/python tests/bench/bench_night.py [--workers 1 2] [--seconds 60] [--readers 200] [--writers 6]
                                          [--worker-nice 6]
    WEB_CONCURRENCY=3 .venv/bin/python tests/bench/bench_night.py   # gunicorn's processes (default 2) and
                                          # WEB_THREADS, as the image reads them

Builds 40 team divisions (6 teams, 4 boards, round 1 paired) and 5 individual opens (one of 1,000 players,
four of 100; five rounds played, round 6 paired) with bulk writes, then starts gunicorn (config/gunicorn.py, the
image's threaded workers: 2 processes × 8 threads) and Celery workers on PostgreSQL and Redis. For `--seconds`,
secretaries enter results at a club's pace (one write every second or two each): match cards and single results
through the API, whole round sheets through the page. Readers follow one event each, polling its standings page
or standings API with If-None-Match every `--poll` seconds on average; three probers, each a process of its own,
ask every public page of the 1,000-player open three times in a row (an answer with the same ETag as the one before
came from the cache), timed by the prober and by gunicorn's access log.
Then, while nothing else of the bench runs, every event is sent again as soon as its last recompute is done (standings
and explanation traces stored), for `--throughput-seconds`: the workers' sustained recompute throughput.

Before the night, every page the night reads is asked once (readers were reading before the first result; a first
render after a deploy is not what this measures), and the secretaries sign in.

Reports write p50/p99 by kind, read p50/p99 by page and status (200, 304), the cached pages of the 1,000-player
open, result → visible p50/p99 of every event and of the 1,000-player open (until the result is in the event's
standings snapshot, which the standings API and light pages show from then on, after at most the 1 s page stamp;
heavy pages follow after a worker's render pass), every error by request kind and cause (status or exception), lost
results (checked against the database at the end), recomputes per result, renders of heavy pages by web processes
and by workers, CPU by process kind and the load average; for each number of workers. CPU counts only what this
bench started: the processes it started and their children (web, workers, probers, itself) and the PostgreSQL
backends of its own database's connections (pg_stat_activity, datname chess_league_bench_night, sampled every half
second: a backend's CPU after its last sample is not counted); Redis is a server shared with the rest of the machine,
none of whose CPU is this bench's alone, so it is not counted. The logs (gunicorn's, each worker's) are written in a
folder of the run's own (tempfile.mkdtemp), printed at the start. Its own database and Redis DB 11 (the suite uses
15 and 14).
"""

import argparse
import itertools
import logging
import os
import platform
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.processes import celery_worker_command  # noqa: E402

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench_night")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")
os.environ.update(
    DATABASE_URL=DATABASE_URL,
    CELERY_BROKER_URL=REDIS_URL,
    CACHE_URL=REDIS_URL,
    CACHE_KEY_PREFIX="bench-night",
    DJANGO_SETTINGS_MODULE="config.settings.dev",
)
LOGS = Path()  # the run's own folder (tempfile.mkdtemp in main); the probers' processes write no log
PASSWORD = "bench-night-password"
DIVISIONS, TEAMS, BOARDS = 40, 6, 4
OPENS = (1000, 100, 100, 100, 100)
PLAYED_ROUNDS = 5
PROBERS = 3
# the workers' CPU priority, as docker-compose.yml gives them on a host shared with the web (cpu_shares 256 of the
# web's 1,024; nice 6 weighs 272 of nice 0's 1,024): a recompute waits a little, a reader does not
WORKER_NICE = 6
PROBERS_START = 3  # seconds for the probers' processes to start (Python, requests) before the night begins


def percentile(values, share):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# ------------------------------------------------------------------------------------------- the night's events


OUTCOMES = ["1-0", "1/2-1/2", "0-1"]  # Result.WHITE_WINS, DRAW, BLACK_WINS: the played rounds' results in turn


def build_division(league, clubs, *, name: str, slug: str, rounds: int):
    """A team round robin of `clubs`' teams (BOARDS boards a match) with its first `rounds` rounds paired (the
    circle method: round 1 pairs the first team with the last) and nothing played; returns the event."""
    from leagues.models import Entry, Event, Game, Player, Round, Team, TeamMatch

    teams = len(clubs)
    event = Event.objects.create(
        league=league,
        name=name,
        slug=slug,
        kind=Event.Kind.TEAM,
        system=Event.System.ROUND_ROBIN,
        rounds_count=teams - 1,
        boards=BOARDS,
        status=Event.Status.PUBLISHED,
        tiebreak_criteria=["GPTS", "SB"],
    )
    squads = Team.objects.bulk_create(Team(event=event, club=club, name=f"{club.name} ({name})") for club in clubs)
    sides = Entry.objects.bulk_create(Entry(event=event, start_number=n + 1, team=t) for n, t in enumerate(squads))
    players = Player.objects.bulk_create(
        Player(name=f"Team player {slug}-{n}", rating=1500 + n) for n in range(teams * BOARDS)
    )
    order, games = list(range(teams)), []
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(event=event, number=number)
        pairs = [(order[m], order[teams - 1 - m]) for m in range(teams // 2)]
        matches = TeamMatch.objects.bulk_create(TeamMatch(round=rnd, home=sides[h], away=sides[a]) for h, a in pairs)
        for match, (home, away) in zip(matches, pairs, strict=True):
            for board in range(1, BOARDS + 1):
                white, black = (home, away) if board % 2 else (away, home)
                games.append(
                    Game(
                        round=rnd,
                        match=match,
                        board=board,
                        white=sides[white],
                        black=sides[black],
                        white_player=players[white * BOARDS + board - 1],
                        black_player=players[black * BOARDS + board - 1],
                    )
                )
        order = [order[0], order[-1], *order[1:-1]]  # the circle turns, the first team stays
    Game.objects.bulk_create(games)
    return event


def build_open(league, number: int, size: int, *, name: str, slug: str, rounds: int, played: int):
    """An individual Swiss of `size` players (rated 2400 down) with `rounds` rounds paired, a different opponent
    each round (an odd player out is absent), the first `played` of them played; returns the event."""
    from leagues.models import Entry, Event, Game, Player, Result, Round

    event = Event.objects.create(
        league=league,
        name=name,
        slug=slug,
        rounds_count=rounds,
        status=Event.Status.PUBLISHED,
        tiebreak_criteria=["BH/C1", "BH", "SB", "PS", "WIN"],
    )
    people = Player.objects.bulk_create(Player(name=f"Open player {number}-{n}", rating=2400 - n) for n in range(size))
    entries = Entry.objects.bulk_create(
        Entry(event=event, start_number=n + 1, player=p, rating=p.rating) for n, p in enumerate(people)
    )
    half, games = size // 2, []
    for r in range(1, rounds + 1):
        rnd = Round.objects.create(event=event, number=r)
        for board in range(half):  # a different opponent each round
            games.append(
                Game(
                    round=rnd,
                    board=board + 1,
                    white=entries[board],
                    black=entries[half + (board + r - 1) % half],
                    result=OUTCOMES[(board + r) % 3] if r <= played else Result.PENDING,
                )
            )
    Game.objects.bulk_create(games)
    Event.objects.filter(pk=event.pk).update(results_version=1)
    return event


def organiser_with_token(league):
    """The league's organiser (who signs in as the secretaries, signed_in) and an API token of theirs."""
    from django.contrib.auth import get_user_model

    from leagues.models import Role, Scope
    from leagues.services.tokens import api_token_create

    user_model = get_user_model()
    user_model.objects.filter(username="night-organiser").delete()
    organiser = user_model.objects.create_user("night-organiser", password=PASSWORD)
    Role.objects.create(user=organiser, kind=Role.Kind.ORGANISER, league=league)
    _, token = api_token_create(user=organiser, name="night", scopes=[Scope.ORGANISER])
    return organiser, token


def build_night():
    """The events, with bulk writes; returns (organiser, token, team match ids, open slugs)."""
    from leagues.models import Club, League, TeamMatch

    League.objects.filter(slug="night").delete()
    Club.objects.filter(name__startswith="Night club ").delete()
    league = League.objects.create(name="League night", slug="night")
    organiser, token = organiser_with_token(league)
    clubs = Club.objects.bulk_create(Club(name=f"Night club {n}", slug=f"night-club-{n}") for n in range(TEAMS))
    league.clubs.add(*clubs)
    for division in range(1, DIVISIONS + 1):
        build_division(league, clubs, name=f"Division {division}", slug=f"night-division-{division}", rounds=1)
    for number, size in enumerate(OPENS, start=1):
        name, slug = f"Open {number} ({size})", f"night-open-{number}"
        build_open(league, number, size, name=name, slug=slug, rounds=PLAYED_ROUNDS + 1, played=PLAYED_ROUNDS)
    match_ids = list(TeamMatch.objects.filter(round__event__league=league).values_list("pk", flat=True))
    return organiser, token, match_ids, [f"night-open-{n}" for n in range(1, len(OPENS) + 1)]


def recompute_all_here(league: str = "night"):
    """Every event's first snapshot, computed in this process before the night starts, after the database's
    statistics are gathered (ANALYZE), as a site's database has them: autovacuum gathers them a minute or more after
    the bulk writes that built the night, so without it the night's first minutes were planned as for empty tables
    (a division's match cards, 60 games, read with two scans of every player: 33 ms instead of 0.3)."""
    from django.db import connection

    from leagues.models import Event
    from leagues.recompute import standings_recompute_event

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    for event_id in Event.objects.filter(league__slug=league).values_list("pk", flat=True):
        standings_recompute_event(event_id)


# ------------------------------------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def site_environment() -> dict:
    return {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "bench-night-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "API_ANON_RATE": "100000000/minute",
        "API_USER_RATE": "100000000/minute",
        "LOGIN_ATTEMPTS": "1000",
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "INFO",
    }


WEB_CONCURRENCY, WEB_THREADS = os.environ.get("WEB_CONCURRENCY", "2"), os.environ.get("WEB_THREADS", "8")


def start_web(port: int, config: str = "config/gunicorn.py") -> subprocess.Popen:
    """gunicorn as the image runs it (config/gunicorn.py: threaded workers), 2 processes on this 2-core machine;
    its access log and errors in LOGS/bench-night-web.log. `config`: the image's, or one that adds to it."""
    log = open(LOGS / "bench-night-web.log", "wb")
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", config, "config.wsgi", "-b", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env={**site_environment(), "WEB_CONCURRENCY": WEB_CONCURRENCY, "WEB_THREADS": WEB_THREADS},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def site_ready(base: str) -> None:
    """Wait until the site answers /ping, then give the workers time to connect."""
    import requests

    for _ in range(100):
        try:
            requests.get(f"{base}/ping", timeout=1)
            break
        except requests.RequestException:
            time.sleep(0.2)
    time.sleep(4)  # the workers connect


def start_worker(name: str, nice: int, queues: str | None = None) -> subprocess.Popen:
    """A Celery worker taking `queues` (default: every queue), at CPU priority `nice` (0: the web's; 10: it yields
    the CPU to the web processes). Each process started here has a session of its own, which Linux schedules as a
    group (autogroup: a session gets its share of the CPU whatever the number of its threads, as a container gets its
    cgroup's); the group's priority is set too, or the worker's would only count against the other processes of its
    own session."""
    log = open(LOGS / f"bench-night-{name}.log", "wb")
    worker = subprocess.Popen(
        ["nice", "-n", str(nice), *celery_worker_command(name=name, level="info", queues=queues)],
        cwd=ROOT,
        env=site_environment(),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    group = Path(f"/proc/{worker.pid}/autogroup")
    if nice and group.exists():
        group.write_text(str(nice))
    return worker


def start_workers(prefix: str, recompute: int, nice: int) -> list[subprocess.Popen]:
    """The site's workers as docker-compose.yml runs them, at CPU priority `nice`: `recompute` workers for the
    recompute queue (and "celery"), each of concurrency 1, and one worker for the other queues (pairing, which runs
    FIDE's checks of each new state; email, which sends the followers' notifications; webhooks), which the image gives
    a pool each: a recompute never waits behind a notification or a check."""
    pool = [start_worker(f"{prefix}{n + 1}", nice, "recompute,celery") for n in range(recompute)]
    return [*pool, start_worker(f"{prefix}-other", nice, "pairing,email,webhooks")]


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def cpu_seconds(process: subprocess.Popen) -> float:
    """CPU time of a process and its children (gunicorn's and Celery's forks) so far."""
    import psutil

    try:
        root = psutil.Process(process.pid)
        return sum(sum(p.cpu_times()[:2]) for p in [root, *root.children(recursive=True)])
    except psutil.Error:
        return 0.0


class BackendCpu:
    """CPU time of the PostgreSQL backends serving this bench's database (its own connections only: the web's,
    the workers' and its own), sampled every `every` seconds from pg_stat_activity by datname, from a connection
    to another database so that the sampler's own backend is not counted. A backend's last CPU seen is kept when
    it ends: what it used after its last sample is missed (less than `every` seconds of each ended backend)."""

    def __init__(self, every: float = 0.5):
        self.database = DATABASE_URL.rsplit("/", 1)[1]
        self.seen: dict[int, float] = {}
        self.every = every
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        import psutil
        import psycopg

        with psycopg.connect(DATABASE_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            while not self.stopped.is_set():
                rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database]).fetchall()
                for (pid,) in rows:
                    try:
                        times = psutil.Process(pid).cpu_times()
                        self.seen[pid] = times.user + times.system
                    except psutil.Error:
                        pass
                self.stopped.wait(self.every)

    def seconds(self) -> float:
        """The CPU the backends of this bench's database have used so far (every backend seen)."""
        return sum(self.seen.values())

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join()


def heavy_renders(names) -> tuple[int, float]:
    """Renders of heavy pages (leagues.page_cache) logged by these processes so far: (count, seconds)."""
    took = [
        int(found)
        for name in names
        for found in re.findall(
            r"heavy page rendered .*duration_ms=(\d+)", (LOGS / f"bench-night-{name}.log").read_text(errors="replace")
        )
    ]
    return len(took), sum(took) / 1000


def recomputes_logged(names) -> int:
    return sum((LOGS / f"bench-night-{n}.log").read_text(errors="replace").count("recompute started") for n in names)


# ------------------------------------------------------------------------------------------- the night


def signed_in(base: str):
    """A secretary's browser session, signed in (before the night: a secretary signs in once, at the start of the
    evening)."""
    import requests

    session = requests.Session()
    page = session.get(f"{base}/en/accounts/login/", timeout=30)
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert found is not None
    token = found.group(1)
    answer = session.post(
        f"{base}/en/accounts/login/",
        data={"username": "night-organiser", "password": PASSWORD, "csrfmiddlewaretoken": token},
        headers={"Referer": f"{base}/en/accounts/login/"},
        timeout=30,
        allow_redirects=False,
    )
    if answer.status_code != 302 or "sessionid" not in session.cookies:
        raise RuntimeError(f"the secretary could not sign in: {answer.status_code}")
    return session


class Night:
    def __init__(self, base: str, token: str, match_ids: list[int], opens: list[str], seconds: float, poll: float):
        import requests

        self.requests = requests
        self.base, self.token, self.seconds, self.poll = base, token, seconds, poll
        self.match_ids, self.opens = list(match_ids), opens
        random.Random(2026).shuffle(self.match_ids)
        self.lock = threading.Lock()
        self.writes: list[float] = []
        self.write_kinds: list[tuple[str, float]] = []  # (card, result or sheet; seconds)
        self.pages: list[float] = []
        self.reads: list[tuple[str, int, float]] = []  # (which page, status, seconds)
        # (page of the 1,000-player open, seconds, when: seconds into the night, seconds by gunicorn's log),
        # answered from the cache
        self.cached: list[tuple[str, float, float, float]] = []
        self.not_modified = 0
        self.conflicts = 0  # writes refused because another secretary changed the game first (409, 412)
        self.errors: list[str] = []
        self.written: dict[int, str] = {}  # game id -> the result a 200 answer confirmed
        self.results = 0
        self.waiting: list[tuple[str, int, float]] = []  # (event slug, results version, written at)
        self.visible: list[float] = []
        self.visible_in_the_big_open: list[float] = []  # the same, for results of the 1,000-player open
        self.visible_by_event: dict[str, list[float]] = {}  # the same, by event slug
        self.start_at = time.monotonic() + PROBERS_START  # the probers' processes are ready by then
        self.stop_at = self.start_at + seconds
        self.done = threading.Event()

    def _error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)

    def _take_match(self):
        with self.lock:
            return self.match_ids.pop() if self.match_ids else None

    def _target(self, event_id: int) -> int:
        from django.db import connection

        from leagues.models import Event

        try:
            return Event.objects.filter(pk=event_id).values_list("results_version", flat=True).get()
        finally:
            connection.close()

    # a secretary: a match card through the API, a single open result through the API, or a round sheet page
    def secretary(self, number: int, session) -> None:
        api = {"Authorization": f"Token {self.token}"}
        pace = random.Random(number)
        while time.monotonic() < self.stop_at:
            kind = ("card", "card", "result", "sheet")[pace.randrange(4)]
            try:
                if kind == "card":
                    self.card(session, api, pace)
                elif kind == "result":
                    self.open_result(session, api, pace)
                else:
                    self.sheet(session, pace)
            except self.requests.RequestException as exc:
                self._error(f"{kind}: {exc.__class__.__name__} (no answer within the client's 30 s, or refused)")
            time.sleep(pace.uniform(0.8, 2.0))

    def _timed(self, kind, send):
        started = time.perf_counter()
        answer = send()
        took = time.perf_counter() - started
        with self.lock:
            self.writes.append(took)
            self.write_kinds.append((kind, took))
        return answer

    def card(self, session, api, pace) -> None:
        match_id = self._take_match()
        if match_id is None:
            return self.open_result(session, api, pace)
        self.card_of(session, api, pace, match_id)

    def card_of(self, session, api, pace, match_id: int) -> None:
        """A match card through the API: every board's result at once."""
        from leagues.models import TeamMatch

        match = TeamMatch.objects.select_related("round").get(pk=match_id)
        games = list(match.games.order_by("board").values_list("pk", "version"))
        boards = [{"game": pk, "result": pace.choice(["1-0", "1/2-1/2", "0-1"]), "version": v} for pk, v in games]
        answer = self._timed(
            "match card (API)",
            lambda: session.post(
                f"{self.base}/api/v1/matches/{match_id}/card/",
                json={"version": match.version, "boards": boards},
                headers=api,
                timeout=30,
            ),
        )
        if answer.status_code != 200:
            return self._error(f"match card (API): {answer.status_code} {answer.text[:80]}")
        self._written({b["game"]: b["result"] for b in boards}, match.round.event_id)

    def _pending_games(self, slug: str, count: int):
        from leagues.models import Game, Result

        return list(
            Game.objects.filter(round__event__slug=slug, round__number=PLAYED_ROUNDS + 1, result=Result.PENDING)
            .order_by("?")
            .values_list("pk", "version", "round__event_id")[:count]
        )

    def open_result(self, session, api, pace) -> None:
        slug = self.opens[0] if pace.random() < 0.5 else pace.choice(self.opens[1:])
        pending = self._pending_games(slug, 1)
        if not pending:
            return
        self.result_of(session, api, pace, *pending[0])

    def result_of(self, session, api, pace, game_id: int, version: int, event_id: int) -> None:
        """A single result through the API, sent with the game's version it read (If-Match)."""
        result = pace.choice(["1-0", "1/2-1/2", "0-1"])
        answer = self._timed(
            "single result (API)",
            lambda: session.post(
                f"{self.base}/api/v1/games/{game_id}/result/",
                json={"result": result},
                headers={**api, "If-Match": f'"v{version}"'},
                timeout=30,
            ),
        )
        if answer.status_code == 412:  # another secretary was quicker: refused with the current state
            with self.lock:
                self.conflicts += 1
            return
        if answer.status_code != 200:
            return self._error(f"single result (API): {answer.status_code} {answer.text[:80]}")
        self._written({game_id: result}, event_id)

    def sheet(self, session, pace) -> None:
        """A whole round sheet of a 100-player open: a few boards typed in, the others as stored."""
        self.sheet_of(session, pace, pace.choice(self.opens[1:]), PLAYED_ROUNDS + 1)

    def sheet_of(self, session, pace, slug: str, number: int) -> int:
        """The round sheet page of round `number`: a few of its boards without a result typed in, the others sent
        as stored. Returns the results saved."""
        from leagues.models import Game

        url = f"{self.base}/en/manage/events/{slug}/rounds/{number}/"
        page = session.get(url, timeout=30)
        if page.status_code != 200:
            self._error(f"round sheet, its page: {page.status_code}")
            return 0
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert found is not None
        token = found.group(1)
        games = list(
            Game.objects.filter(round__event__slug=slug, round__number=number).values_list(
                "pk", "result", "version", "round__event_id"
            )
        )
        typed = {pk: pace.choice(["1-0", "1/2-1/2", "0-1"]) for pk, result, _, _ in games if not result}
        typed = dict(list(typed.items())[: pace.randint(2, 5)])
        if not typed:
            return 0
        form = {"csrfmiddlewaretoken": token, "reason": ""}
        for pk, result, version, _ in games:
            form[f"result_{pk}"], form[f"version_{pk}"] = typed.get(pk, result), version
        answer = self._timed(
            "round sheet (page)",
            lambda: session.post(url, data=form, headers={"Referer": url}, timeout=30, allow_redirects=False),
        )
        if answer.status_code == 302 and answer.headers.get("Location") == url[len(self.base) :]:
            self._written(typed, games[0][3])  # saved: the sheet again, with its message
            return len(typed)
        if answer.status_code == 409:  # another secretary saved a board of this sheet meanwhile: refused, shown
            with self.lock:
                self.conflicts += 1
        else:
            self._error(f"round sheet (page): {answer.status_code} {answer.headers.get('Location', '')}")
        return 0

    def _written(self, results: dict[int, str], event_id: int) -> None:
        target = self._target(event_id)
        from leagues.models import Event

        slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).get()
        with self.lock:
            self.written.update(results)
            self.results += len(results)
            self.waiting.append((slug, target, time.monotonic()))

    # a reader: follows one event (the big open, or a division or open of their own) on its standings page or
    # through the standings API, sending the ETag it has
    def reader(self, number: int, slugs: list[str]) -> None:
        session = self.requests.Session()
        pace = random.Random(10_000 + number)
        slug = self.opens[0] if number % 3 == 0 else slugs[number % len(slugs)]
        path = f"/en/events/{slug}/" if number % 2 else f"/api/v1/events/{slug}/standings/"
        which = ("standings page" if number % 2 else "standings API") + (
            " of the 1,000-player open" if slug == self.opens[0] else " of a division or 100-player open"
        )
        etag = None
        time.sleep(pace.uniform(0, self.poll))  # readers arrive spread out, not all in the same second
        while time.monotonic() < self.stop_at:
            started = time.perf_counter()
            try:
                answer = session.get(self.base + path, headers={"If-None-Match": etag} if etag else {}, timeout=30)
            except self.requests.RequestException as exc:
                self._error(f"{which}: {exc.__class__.__name__} (no answer within the client's 30 s, or refused)")
                continue
            took = time.perf_counter() - started
            with self.lock:
                self.pages.append(took)
                self.reads.append((which, answer.status_code, took))
                self.not_modified += answer.status_code == 304
            if answer.status_code not in (200, 304):
                self._error(f"{which}: {answer.status_code}")
            else:
                etag = answer.headers.get("ETag", etag)
            time.sleep(pace.uniform(0.5, 1.5) * self.poll)

    @staticmethod
    def probed_paths(slug: str) -> list[str]:
        return [
            f"/en/events/{slug}/",
            f"/en/events/{slug}/crosstable/",
            f"/en/events/{slug}/rounds/{PLAYED_ROUNDS}/",
            f"/en/events/{slug}/pairings/",
            f"/en/events/{slug}/players/1/",
            f"/en/events/{slug}/prizes/",
            f"/en/events/{slug}/why/",
            f"/en/events/{slug}/standings.csv",
            f"/en/events/{slug}/rounds.ics",
            f"/api/v1/events/{slug}/standings/",
        ]

    def probers(self) -> list[subprocess.Popen]:
        """The probers, each a process and a session of its own (start_worker), as a reader on another machine would
        be: the hundreds of reader threads of this process do not hold it up."""
        command = [sys.executable, __file__, "probe", self.base, self.opens[0], str(self.start_at), str(self.stop_at)]
        return [
            subprocess.Popen([*command, str(n)], stdout=subprocess.PIPE, text=True, start_new_session=True)
            for n in range(PROBERS)
        ]

    def probed(self, probers: list[subprocess.Popen]) -> None:
        """The probers' answers from the cache, with the time gunicorn's log gives each (the server's own)."""
        served = {
            agent: int(ms) / 1000
            for agent, ms in re.findall(
                r'"(bench-night-prober/\d+/\d+)" (\d+)ms', (LOGS / "bench-night-web.log").read_text(errors="replace")
            )
        }
        for prober in probers:
            out, _ = prober.communicate()
            for line in out.splitlines():
                what, path, took, at, agent = line.split(" ")
                if what == "error":
                    self._error(f"probe {path}: {took}")
                else:
                    at = float(at) - self.start_at  # seconds into the night
                    self.cached.append((path, float(took), at, served.get(agent, float("nan"))))

    # the watcher: when is each write in its event's standings snapshot, which every page and the standings API
    # show from then on (each web process checks the event's stamp at least once a second)?
    def watcher(self) -> None:
        from django.db import connection

        from leagues.models import StandingsSnapshot

        while not self.done.is_set():
            with self.lock:
                slugs = {slug for slug, _, _ in self.waiting}
            shown = dict(StandingsSnapshot.objects.filter(event__slug__in=slugs).values_list("event__slug", "version"))
            now = time.monotonic()
            with self.lock:
                still = []
                for slug, target, written_at in self.waiting:
                    if shown.get(slug, -1) >= target:
                        self.visible.append(now - written_at)
                        self.visible_by_event.setdefault(slug, []).append(now - written_at)
                        if slug == self.opens[0]:
                            self.visible_in_the_big_open.append(now - written_at)
                    else:
                        still.append((slug, target, written_at))
                self.waiting = still
            time.sleep(0.02)
        connection.close()


def probe(base: str, slug: str, start_at: float, stop_at: float, number: int) -> None:
    """A prober: every public page of the 1,000-player open, asked three times in a row without a validator; an
    answer with the same ETag as the one before (no result in between) came from the cache. Prints a line per such
    answer (path, seconds, when by the monotonic clock, the request's User-Agent, which gunicorn logs) and per
    error."""
    import requests

    session = requests.Session()
    paths = Night.probed_paths(slug)
    time.sleep(max(0.0, start_at - time.monotonic()))  # the night starts (CLOCK_MONOTONIC: the machine's)
    turn, sent = number * 3, 0  # the probers start at different pages
    while time.monotonic() < stop_at:
        path = paths[turn % len(paths)]
        turn += 1
        try:
            answers = []
            for _ in range(3):
                sent += 1
                agent = f"bench-night-prober/{number}/{sent}"
                started = time.perf_counter()
                answer = session.get(base + path, timeout=30, headers={"User-Agent": agent})
                answers.append((answer, time.perf_counter() - started, agent))
        except requests.RequestException as exc:
            print("error", path, f"{exc.__class__.__name__}(no-answer-within-30-s)", 0, "-", flush=True)
            continue
        for answer, _, _ in answers:
            if answer.status_code != 200:
                print("error", path, answer.status_code, 0, "-", flush=True)
        for (before, _, _), (answer, took, agent) in itertools.pairwise(answers):
            etag = answer.headers.get("ETag")
            if answer.status_code == 200 and etag and etag == before.headers.get("ETag"):
                print("cached", path.split(slug, 1)[-1] or "/", took, time.monotonic(), agent, flush=True)
        time.sleep(0.5)


def lost_results(written: dict[int, str]) -> list[tuple[int, str, str | None]]:
    """Results a 200 answer confirmed that the database does not hold: (game id, confirmed, stored)."""
    from leagues.models import Game

    stored = dict(Game.objects.filter(pk__in=written).values_list("pk", "result"))
    return [(pk, result, stored.get(pk)) for pk, result in written.items() if stored.get(pk) != result]


def stale_events(league: str = "night") -> int:
    from leagues.models import Event

    return Event.objects.filter(league__slug=league).stale().count()


def throughput(seconds: float) -> tuple[int, float]:
    """The workers' sustained recompute throughput: for `seconds`, each event of the night is made out of date and
    sent again as soon as its last recompute is done (its standings and, where the event has them, its explanation
    traces are stored: the worker's whole task), so the queue never runs dry and no worker waits for another's
    longest task. Nothing else of the bench runs meanwhile (readers and secretaries have stopped; the web processes
    are idle). Returns (recomputes done, seconds)."""
    from django.db.models import F, Func, IntegerField, Q

    from leagues.broker import enqueue_recompute
    from leagues.models import Event, StandingsSnapshot

    events = Event.objects.filter(league__slug="night")
    snapshots = StandingsSnapshot.objects.filter(event__in=events).annotate(
        # the stored size, read without unpacking the traces (a few MB for the 1,000-player open)
        traces_size=Func(F("explanations"), function="pg_column_size", output_field=IntegerField())
    )
    explained = list(snapshots.filter(traces_size__gt=16).values_list("event_id", flat=True))
    finished = snapshots.filter(version=F("event__results_version")).filter(
        ~Q(event_id__in=explained) | Q(traces_size__gt=16)
    )
    started = time.monotonic()
    done, sent = 0, list(events.values_list("pk", flat=True))
    while True:
        events.filter(pk__in=sent).update(results_version=F("results_version") + 1)  # out of date again
        for event_id in sent:
            enqueue_recompute(event_id)
        time.sleep(0.02)
        if time.monotonic() - started >= seconds:
            break
        sent = list(finished.values_list("event_id", flat=True))
        done += len(sent)
    elapsed = time.monotonic() - started
    while finished.count() < events.count() and time.monotonic() - started < seconds + 120:
        time.sleep(0.1)  # the last ones end before the workers are stopped
    return done, elapsed


def run(workers: int, args) -> dict:
    import django
    import redis

    django.setup()
    logging.getLogger("leagues.recompute").setLevel(logging.WARNING)  # the events' first standings, 45 lines each
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(REDIS_URL).flushdb()
    started = time.monotonic()
    _organiser, token, match_ids, opens = build_night()
    recompute_all_here()
    from leagues.models import Event

    slugs = list(Event.objects.filter(league__slug="night").values_list("slug", flat=True))
    built = time.monotonic() - started
    backends = BackendCpu()
    port = free_port()
    web = start_web(port)
    names = [f"night{n + 1}" for n in range(workers)]  # the recompute workers (start_workers)
    pool = start_workers("night", workers, args.worker_nice)
    base = f"http://127.0.0.1:{port}"
    import requests

    try:
        site_ready(base)
        # readers were reading before the night's first result: every page the night reads is in the cache (the
        # first render of a page, after a deploy, is not what this measures)
        for path in Night.probed_paths(opens[0]) + [f"/en/events/{slug}/" for slug in slugs]:
            requests.get(base + path, timeout=60)
        sessions = [signed_in(base) for _ in range(args.writers)]
        cpu_before = {
            "web (gunicorn)": cpu_seconds(web),
            "workers (celery)": sum(cpu_seconds(p) for p in pool),
            "PostgreSQL (this bench's database's backends)": backends.seconds(),
            "bench clients": sum(os.times()[:4]),  # with the probers' processes, once they have ended
        }
        load_before = os.getloadavg()[0]
        renders_before = {"web": heavy_renders(["web"]), "workers": heavy_renders(names)}
        night = Night(base, token, match_ids, opens, args.seconds, args.poll)
        threads = [threading.Thread(target=night.secretary, args=(n, sessions[n])) for n in range(args.writers)]
        threads += [threading.Thread(target=night.reader, args=(n, slugs)) for n in range(args.readers)]
        watcher = threading.Thread(target=night.watcher)
        probers = night.probers()
        time.sleep(max(0.0, night.start_at - time.monotonic()))
        night_started = time.monotonic()
        for thread in [*threads, watcher]:
            thread.start()
        for thread in threads:
            thread.join()
        night.probed(probers)
        drain_until = time.monotonic() + 120
        while night.waiting and time.monotonic() < drain_until:
            time.sleep(0.1)
        night.done.set()
        watcher.join()
        elapsed = time.monotonic() - night_started
        load_during = os.getloadavg()[0]
        cpu = {
            "web (gunicorn)": cpu_seconds(web),
            "workers (celery)": sum(cpu_seconds(p) for p in pool),
            "PostgreSQL (this bench's database's backends)": backends.seconds(),
            "bench clients": sum(os.times()[:4]),
        }
        cpu = {kind: cpu[kind] - cpu_before[kind] for kind in cpu}
        recomputes = recomputes_logged(names)
        renders = {
            kind: tuple(a - b for a, b in zip(heavy_renders(logs), renders_before[kind], strict=True))
            for kind, logs in (("web", ["web"]), ("workers", names))
        }
        lost = lost_results(night.written)
        stale = stale_events()
        count, seconds = throughput(args.throughput_seconds)
        load_after = os.getloadavg()[0]
    finally:
        for process in [web, *pool]:
            stop(process)
        backends.stop()
    return {
        "workers": workers,
        "built": built,
        "elapsed": elapsed,
        "night": night,
        "recomputes": recomputes,
        "renders": renders,
        "lost": lost,
        "stale": stale,
        "cpu": cpu,
        "throughput": count / seconds,
        "throughput_detail": (count, seconds),
        "load": (load_before, load_during, load_after),
    }


def report(outcome: dict) -> None:
    night = outcome["night"]
    ms = lambda values, share: f"{percentile(values, share) * 1000:.0f} ms"  # noqa: E731
    print(
        f"\n### {outcome['workers']} worker(s): {len(night.writes)} writes ({night.results} results) and "
        f"{len(night.pages)} reads in {outcome['elapsed']:.0f} s; events built in {outcome['built']:.0f} s; "
        f"load average {outcome['load'][0]:.1f} before, {outcome['load'][1]:.1f} after the night, "
        f"{outcome['load'][2]:.1f} after the throughput run"
    )
    print("| measure | value |\n|---|---|")
    print(f"| write (API and round-sheet page) p50 / p99 | {ms(night.writes, 0.5)} / {ms(night.writes, 0.99)} |")
    print(f"| page / standings API read p50 / p99 | {ms(night.pages, 0.5)} / {ms(night.pages, 0.99)} |")
    print(f"| reads answered 304 | {night.not_modified} of {len(night.pages)} |")
    for which in sorted({w for w, _, _ in night.reads}):
        for status in sorted({s for w, s, _ in night.reads if w == which}):
            took = [t for w, s, t in night.reads if w == which and s == status]
            print(f"| {which}, answered {status}: p50 / p99 | {ms(took, 0.5)} / {ms(took, 0.99)} ({len(took)}) |")
    for kind in sorted({k for k, _ in night.write_kinds}):
        took = [t for k, t in night.write_kinds if k == kind]
        print(f"| write: {kind} p50 / p99 | {ms(took, 0.5)} / {ms(took, 0.99)} ({len(took)}) |")
    cached = [t for _, t, _, _ in night.cached]
    served = [t for _, _, _, t in night.cached if t == t]  # nan: not found in the log
    worst = sorted(night.cached, key=lambda probe: -probe[1])[:3]
    print(
        f"| every public page of the 1,000-player open from the cache, p50 / p99 | {ms(cached, 0.5)} / "
        f"{ms(cached, 0.99)} ({len(cached)}; slowest: "
        + ", ".join(f"{p} {t * 1000:.0f} ms ({s * 1000:.0f} ms in gunicorn) at {at:.0f} s" for p, t, at, s in worst)
        + ") |"
    )
    print(
        f"| the same answers as gunicorn's log times them, p50 / p99 | {ms(served, 0.5)} / {ms(served, 0.99)} "
        f"({len(served)}) |"
    )
    by_page: dict[str, list[tuple[float, float]]] = {}
    for path, took, _, in_gunicorn in night.cached:
        by_page.setdefault(path, []).append((took, in_gunicorn))
    for path, times in sorted(by_page.items()):
        took = [t for t, _ in times]
        logged = [s for _, s in times if s == s]
        print(
            f"| {path} from the cache, p50 / p99 by the prober, by gunicorn | {ms(took, 0.5)} / {ms(took, 0.99)}, "
            f"{ms(logged, 0.5)} / {ms(logged, 0.99)} ({len(took)}) |"
        )
    print(f"| result → visible p50 / p99 | {ms(night.visible, 0.5)} / {ms(night.visible, 0.99)} |")
    big = night.visible_in_the_big_open
    print(f"| result → visible, the 1,000-player open, p50 / p99 | {ms(big, 0.5)} / {ms(big, 0.99)} ({len(big)}) |")
    print(f"| writes never in the standings | {len(night.waiting)} |")
    print(f"| writes refused as stale (another secretary was first: 409, 412) | {night.conflicts} |")
    print(f"| errors | {len(night.errors)} |")
    for what, count in sorted(Counter(night.errors).items(), key=lambda pair: -pair[1]):
        print(f"| error: {what} | {count} |")
    lost = outcome["lost"]
    print(f"| lost results (checked in the database) | {len(lost)} of {len(night.written)} {lost[:3] or ''} |")
    print(f"| events with stale standings at the end | {outcome['stale']} |")
    per = outcome["recomputes"] / max(1, night.results)
    print(f"| recomputes per result (coalescing) | {outcome['recomputes']} / {night.results} = {per:.2f} |")
    for kind, (count, seconds) in outcome["renders"].items():
        print(f"| heavy page renders during the night: {kind} | {count} ({seconds:.1f} s) |")
    for kind, seconds in outcome["cpu"].items():
        share = seconds / outcome["elapsed"] * 100
        print(f"| CPU during the night: {kind} | {seconds:.1f} s ({share:.0f} % of a core) |")
    count, seconds = outcome["throughput_detail"]
    print(
        f"| recompute throughput (every event sent again once done, standings and traces stored) | {count} in "
        f"{seconds:.1f} s = {outcome['throughput']:.1f}/s |"
    )


def main() -> None:
    if sys.argv[1:2] == ["probe"]:
        base, slug, start_at, stop_at, number = sys.argv[2:]
        probe(base, slug, float(start_at), float(stop_at), int(number))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--readers", type=int, default=200)
    parser.add_argument("--writers", type=int, default=6)
    # seconds between a reader's polls, on average (the live standings page asks every 30 s)
    parser.add_argument("--poll", type=float, default=10)
    parser.add_argument("--throughput-seconds", type=float, default=20)
    parser.add_argument("--worker-nice", type=int, default=WORKER_NICE, help="the workers' CPU priority (nice)")
    args = parser.parse_args()
    from tests.bench.bench_pipeline import ensure_database

    global LOGS
    LOGS = Path(tempfile.mkdtemp(prefix="bench-night-"))
    print(f"logs: {LOGS}")
    ensure_database(DATABASE_URL)
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(
        f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}; gunicorn -c config/gunicorn.py, "
        f"{WEB_CONCURRENCY} processes × {WEB_THREADS} threads, "
        f"Celery workers of concurrency 1 at nice {args.worker_nice} (and one for the other queues), PostgreSQL and "
        "Redis shared with the other work on this machine; "
        f"{args.writers} secretaries, {args.readers} readers polling every {args.poll:.0f} s on average, "
        f"{args.seconds:.0f} s"
    )
    outcomes = []
    for workers in args.workers:
        outcome = run(workers, args)
        report(outcome)
        outcomes.append(outcome)
    if len(outcomes) == 2:
        ratio = outcomes[1]["throughput"] / outcomes[0]["throughput"]
        print(
            f"\nrecompute throughput, {outcomes[1]['workers']} workers / {outcomes[0]['workers']}: {ratio:.2f}x "
            f"(goal 1.6x; {os.cpu_count()} cores shared with everything else on the machine)"
        )


if __name__ == "__main__":
    main()
