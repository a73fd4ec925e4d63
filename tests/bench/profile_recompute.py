"""Where a recompute of a big open spends its time after one result (not a test).

    .venv/bin/python tests/bench/profile_recompute.py [--players 1000] [--rounds 5] [--repeat 5] [--tree]

Builds a Swiss event of `players` entries with `rounds` rounds played (bulk writes), records one more result and
times the phases of the recompute that follows: load (the database reads), engine (the standings), the
standings table, the snapshot write, explanations (the second phase). With --tree, also prints
pyinstrument's call tree of one whole recompute.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench")
os.environ["CELERY_BROKER_URL"] = "memory://"  # nothing reaches a worker: the recompute runs here
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"


def build_event(players: int, rounds: int):
    from django.contrib.auth import get_user_model

    from leagues.models import Entry, Event, Game, League, Player, Result, Role, Round

    League.objects.filter(slug="bench-profile").delete()
    league = League.objects.create(name="Bench profile", slug="bench-profile")
    event = Event.objects.create(
        league=league,
        name=f"Profile {players}",
        slug=f"bench-profile-{players}",
        rounds_count=rounds + 1,
        status=Event.Status.PUBLISHED,
        tiebreak_criteria=["BH/C1", "BH", "SB", "PS", "WIN"],
    )
    people = Player.objects.bulk_create(Player(name=f"Player, {n}", rating=2400 - n) for n in range(players))
    entries = Entry.objects.bulk_create(
        Entry(event=event, start_number=n + 1, player=p, rating=p.rating) for n, p in enumerate(people)
    )
    outcomes = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    half = players // 2
    games = []
    for number in range(1, rounds + 2):
        rnd = Round.objects.create(event=event, number=number)
        for board in range(half):  # a different opponent each round
            white, black = entries[board], entries[half + (board + number - 1) % half]
            played = number <= rounds
            games.append(
                Game(
                    round=rnd,
                    board=board + 1,
                    white=white,
                    black=black,
                    result=outcomes[(board + number) % 3] if played else Result.PENDING,
                )
            )
    Game.objects.bulk_create(games)
    Event.objects.filter(pk=event.pk).update(results_version=1)
    user, _ = get_user_model().objects.get_or_create(username="bench-organiser")
    Role.objects.create(user=user, kind=Role.Kind.ORGANISER, league=league)
    last = list(Game.objects.filter(round__event=event, round__number=rounds + 1).order_by("board"))
    return event, user, last


def phases(event_id: int, version: int) -> dict[str, float]:
    """The recompute's phases as standings_recompute_event runs them, each timed."""
    from leagues.models import Event
    from leagues.recompute import store_snapshot
    from leagues.services.standings import _compute, crosstable_for, plain_rows, snapshot_fields

    times = {}
    started = time.perf_counter()
    event = Event.objects.get(pk=event_id)
    games, entries = plain_rows(event)  # as event_engine_result reads an open
    times["load"] = time.perf_counter() - started
    started = time.perf_counter()
    result = _compute(event, crosstable_for(event, games, entries))
    times["engine"] = time.perf_counter() - started
    started = time.perf_counter()
    data = result.to_dict()
    times["standings table"] = time.perf_counter() - started
    started = time.perf_counter()
    assert store_snapshot(event_id, version, snapshot_fields(data, event), 0)
    times["snapshot write"] = time.perf_counter() - started
    started = time.perf_counter()
    dict(result.explanations())
    times["explanations"] = time.perf_counter() - started
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tree", action="store_true")
    args = parser.parse_args()
    from tests.bench.bench_pipeline import ensure_database

    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from leagues.models import Result, StandingsSnapshot
    from leagues.recompute import standings_recompute_event
    from leagues.services.results import result_record

    event, user, games = build_event(args.players, args.rounds)
    standings_recompute_event(event.pk)  # the first snapshot
    print(f"{args.players} players, {args.rounds} rounds played; load average {os.getloadavg()[0]:.2f}")
    rows = [phases(event.pk, 1000 + n) for n in range(args.repeat)]
    print("| phase | median | worst |\n|---|---|---|")
    for phase in rows[0]:
        values = [row[phase] for row in rows]
        print(f"| {phase} | {statistics.median(values) * 1000:.0f} ms | {max(values) * 1000:.0f} ms |")
    StandingsSnapshot.objects.filter(event=event).delete()
    standings_recompute_event(event.pk)
    whole = []
    for game in games[: args.repeat]:
        result_record(game_id=game.pk, result=Result.DRAW, user=user)
        started = time.perf_counter()
        standings_recompute_event(event.pk)  # as the worker runs it: standings, then explanations
        whole.append(time.perf_counter() - started)
    print(f"whole recompute after one result (both phases): median {statistics.median(whole) * 1000:.0f} ms")
    if args.tree:
        from pyinstrument import Profiler

        result_record(game_id=games[args.repeat].pk, result=Result.WHITE_WINS, user=user)
        profiler = Profiler(interval=0.001)
        with profiler:
            standings_recompute_event(event.pk)
        print(profiler.output_text(unicode=False, color=False, show_all=False))


if __name__ == "__main__":
    main()
