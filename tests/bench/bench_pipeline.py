"""Result recorded → standings visible, round by round, with a real Celery worker, Redis and PostgreSQL (not a test).

    .venv/bin/python tests/bench/bench_pipeline.py [--players 1000] [--rounds 7] [-n 30] [--measure 1,4,7]
    .venv/bin/python tests/bench/bench_pipeline.py --players 5600 --rounds 9 --trf-dir ~/bench-trf

For each event size a whole Swiss event is built by the site's TRF import (leagues.services.trf, the
organiser's door) from a generated tournament: tests/bench/data/swiss-N-players.trf when it exists for that
size and has enough rounds, else pairings.generator.generate (ratings 1,000-2,750; every round paired by our
FIDE Dutch engine, which takes minutes for thousands of players: --trf-dir keeps the file for the next run; above
2,000 players, where that engine's graph of every pair of players takes gigabytes, by score groups:
score_groups_paired). All
results are then taken back to "not played yet", and the rounds are played again from the first to the last,
their results entered round by round: in each measured round (--measure, default the first, the middle and
the last) the first N results one at a time through the result service (as a secretary's form does), each
timed until the standings snapshot shows it, and the rest of the round at once through the round sheet; the
other rounds through the round sheet only. Before a measured round the worker is let catch up, so a result's
time is its own. Prints p50, p90, p99 and worst per measured round and for the whole event, with the machine.

Uses its own database (chess_league_bench) and Redis DB 10 (the suite uses 15 and 14).
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "bench" / "data"
sys.path.insert(0, str(ROOT))
from tests.processes import celery_worker_command  # noqa: E402

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/10")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"
CRITERIA = ["BH/C1", "BH", "SB", "PS", "WIN"]


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def tournament_file(players: int, rounds: int, trf_dir: Path | None) -> bytes:
    """A played Swiss of `players` × at least `rounds` rounds, as TRF."""
    shipped = BENCH / f"swiss-{players}-players.trf"
    if shipped.exists():
        data = shipped.read_bytes()
        from tiebreaks.trf import read_trf

        if read_trf(data).total_rounds >= rounds:
            return data
    kept = trf_dir / f"generated-{players}x{rounds}.trf" if trf_dir else None
    if kept and kept.exists():
        return kept.read_bytes()
    from pairings.generator import TournamentPlan, generate

    started = time.perf_counter()
    stand_in = players > DUTCH_UP_TO
    plan = TournamentPlan(players=players, rounds=rounds, seed=players, hpb=0.02, forfeits=0.01)
    text = generate(plan, score_groups_paired if stand_in else None)
    print(
        f"generated {players} players × {rounds} rounds in {time.perf_counter() - started:.0f} s, "
        f"{'by score groups (score_groups_paired)' if stand_in else 'paired by our FIDE Dutch engine'}",
        file=sys.stderr,
    )
    if kept:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(text, encoding="utf-8")
    return text.encode()


DUTCH_UP_TO = 2000  # players: a bigger generated event is paired by score_groups_paired


def score_groups_paired(state):
    """A bench's stand-in for the Dutch engine, whose graph of every pair of players is too big for thousands of
    players (minutes and gigabytes a round): the players by points, then rating; in each score group from the top,
    the top half against the bottom half (a player already met swapped for the next of the bottom half, if any), an
    odd one out floating down to the next group, the last one left the pairing-allocated bye; white to the top half on
    odd boards. A Swiss's shape for the recompute to work on (score groups, byes, forfeits, rare rematches), not FIDE's
    rules of colours and floats."""
    from pairings.model import Board, Bye, ByeType, RoundPairing

    halves = {"1": 2, "+": 2, "W": 2, "F": 2, "U": 2, "=": 1, "D": 1, "H": 1}
    asked = {b.start_number: b.type for b in state.requested_byes}
    points = {p.start_number: sum(halves.get(e.code, 0) for e in p.rounds) for p in state.players}
    playing = sorted(
        (p for p in state.players if p.start_number not in asked),
        key=lambda p: (-points[p.start_number], -(p.rating or 0), p.start_number),
    )
    met = {p.start_number: {e.opponent for e in p.rounds if e.opponent} for p in state.players}
    groups: dict[int, list[int]] = {}
    for p in playing:
        groups.setdefault(points[p.start_number], []).append(p.start_number)
    boards: list[Board] = []
    floater: list[int] = []
    for score in sorted(groups, reverse=True):
        group = floater + groups[score]
        floater = [group.pop()] if len(group) % 2 else []
        half = len(group) // 2
        top, bottom = group[:half], group[half:]
        for player in top:
            opponent = next((b for b in bottom if b not in met[player]), bottom[0])
            bottom.remove(opponent)
            white, black = (player, opponent) if len(boards) % 2 == 0 else (opponent, player)
            boards.append(Board(len(boards) + 1, white, black))
    byes = [Bye(n, ByeType.PAB) for n in floater] + [Bye(n, asked[n]) for n in sorted(asked)]
    return RoundPairing(state.round, "score groups (a bench's stand-in)", tuple(boards), tuple(byes))


def build_event(players: int, data: bytes, rounds: int):
    """The event imported through the organiser's door, its rounds after `rounds` removed and every result
    taken back (a bench's set-up): the event, its organiser and each game's result in the file."""
    from django.contrib.auth import get_user_model

    from leagues.models import Event, Game, League, Result, Role, Round
    from leagues.services.trf import event_import_trf

    League.objects.filter(slug="bench-pipeline").delete()
    league = League.objects.create(name="Bench pipeline", slug="bench-pipeline")
    user, _ = get_user_model().objects.get_or_create(username="bench-organiser")
    Role.objects.create(user=user, kind=Role.Kind.ORGANISER, league=league)
    started = time.perf_counter()
    event = event_import_trf(
        league=league,
        name=f"Bench {players}",
        slug=f"bench-pipeline-{players}",
        data=data,
        user=user,
        start_date="2026-03-01",
        accept_points_column=True,
    )
    print(f"imported {players} players in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    Round.objects.filter(event=event, number__gt=rounds).delete()
    Event.objects.filter(pk=event.pk).update(
        tiebreak_criteria=CRITERIA, status=Event.Status.RUNNING, rounds_count=rounds
    )
    outcomes = dict(Game.objects.filter(round__event=event).values_list("pk", "result"))
    Game.objects.filter(round__event=event).update(result=Result.PENDING, version=0, corrected=False)
    event.refresh_from_db()
    return event, user, outcomes


def wait_visible(event_id: int) -> None:
    from leagues.models import Event, StandingsSnapshot

    version = Event.objects.filter(pk=event_id).values_list("results_version", flat=True).get()
    while not StandingsSnapshot.objects.filter(event_id=event_id, version__gte=version).exists():
        time.sleep(0.005)


def play(
    event, user, outcomes: dict[int, str], results: int, measured: set[int], pause: float = 0.0
) -> dict[int, list[float]]:
    """Enter every round's results in order; the latencies of each measured round's first `results`."""
    from leagues.models import Game
    from leagues.services.results import result_record, round_sheet_save

    latencies: dict[int, list[float]] = {}
    rounds = sorted(set(Game.objects.filter(round__event=event).values_list("round__number", flat=True)))
    for number in rounds:
        games = list(Game.objects.filter(round__event=event, round__number=number).order_by("board", "pk"))
        if number in measured:
            wait_visible(event.pk)  # the worker has caught up: each time below is one result's own
            timed = []
            for game in games[:results]:
                time.sleep(pause)
                started = time.perf_counter()
                result_record(game_id=game.pk, result=outcomes[game.pk], user=user)
                wait_visible(event.pk)
                timed.append(time.perf_counter() - started)
            latencies[number] = timed
            games = games[results:]
        if games:
            fresh = dict(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", "version"))
            round_sheet_save(
                event=event,
                round_number=number,
                results={g.pk: (outcomes[g.pk], fresh[g.pk]) for g in games},
                user=user,
            )
    wait_visible(event.pk)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1000])
    parser.add_argument("--rounds", type=int, default=7, help="rounds played (the file may have more: not played)")
    parser.add_argument("-n", type=int, default=30, help="results timed one at a time in each measured round")
    parser.add_argument("--measure", default="", help="rounds timed, e.g. 1,4,7 (default: first, middle, last)")
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        help="seconds between timed results (0: each right after the one before is visible, while the worker still "
        "builds its explanations; a few seconds: each result finds the worker idle)",
    )
    parser.add_argument("--trf-dir", type=Path, help="keep generated tournaments here for the next run")
    args = parser.parse_args()
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(os.environ["CELERY_BROKER_URL"]).flushdb()
    measured = {int(r) for r in args.measure.split(",") if r} or {1, (args.rounds + 1) // 2, args.rounds}
    events = []
    for players in args.players:
        data = tournament_file(players, args.rounds, args.trf_dir)
        events.append((players, *build_event(players, data, args.rounds)))
    # one process of the recompute pool, as docker-compose.yml's worker-recompute (FIDE checks, imports, webhooks
    # and e-mails have pools of their own there: their tasks wait in this Redis DB, flushed at the next start)
    worker = subprocess.Popen(
        celery_worker_command(queues="recompute,celery"), cwd=ROOT, env=os.environ.copy(), stdout=subprocess.DEVNULL
    )
    try:
        cpu = next(
            (line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?"
        )
        print(f"machine: {len(os.sched_getaffinity(0))} CPUs (nproc), {cpu}, Python {platform.python_version()};")
        print(
            "one worker process (-Q recompute,celery); load average (1, 5, 15 min) before: {:.2f} {:.2f} {:.2f}".format(
                *os.getloadavg()
            )
        )
        print(
            f"criteria {' '.join(CRITERIA)}; {args.n} results timed one at a time in rounds {sorted(measured)}, "
            f"{args.pause:g} s apart\n"
        )
        print("| event | round (played before) | results | p50 | p90 | p99 | worst |\n|---|---|---|---|---|---|---|")
        for players, event, user, outcomes in events:
            latencies = play(event, user, outcomes, args.n, measured, args.pause)
            everything = [t for times in latencies.values() for t in times]
            for number, times in sorted(latencies.items()):
                print(row(f"{players} players", f"{number} ({number - 1})", times), flush=True)
            print(row(f"{players} players", "all measured", everything), flush=True)
        print("\nload average (1, 5, 15 min) after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    finally:
        worker.terminate()
        worker.wait(timeout=60)


def row(event: str, rounds: str, times: list[float]) -> str:
    if not times:
        return f"| {event} | {rounds} | 0 | | | | |"
    return (
        f"| {event} | {rounds} | {len(times)} | {statistics.median(times):.2f} s | {percentile(times, 0.9):.2f} s "
        f"| {percentile(times, 0.99):.2f} s | {max(times):.2f} s |"
    )


if __name__ == "__main__":
    main()
