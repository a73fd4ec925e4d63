"""Where a recompute of a big open spends its CPU after one result (not a test).

    .venv/bin/python tests/bench/profile_recompute.py [--trf FILE] [--rounds 9] [--repeat 7]
                                                      [--criteria "BH/C1,BH,SB,PS,WIN"] [--tree]

Imports the first `rounds` rounds of a TRF file (default: tests/bench/data/swiss-1000-players.trf, 1,000 players with
byes and forfeits; the file needs a round after them, whose results are entered one by one below) as a Swiss event (bulk
writes), and measures the CPU time of the recompute's phases after one result of the round under way each time, as
standings_recompute_event runs them: reading rows (the event, its games and entries), standings (the engine and the
snapshot's table), snapshot store (the first phase: the standings are visible after it), then the second: round places
(the standings after each round, which a player's page plots: none but those of rounds whose results changed since the
worker last computed them, as the recompute keeps them; the cost of every round's, a worker's first recompute of the
event, is printed below the table), traces build (none but those of the result's players and the players who met them,
as the recompute keeps the others'), traces store (with the places). Each phase counts this process's CPU
(time.process_time) plus the CPU of the database's process serving this connection (/proc/PID/stat, 10 ms ticks;
PostgreSQL on this machine), since a stored column costs the database its parsing. The floor is reading rows + standings
+ snapshot store; the last line gives the ratio of the whole to the floor (medians of `repeat` runs). Then the whole
recompute after one more result, as the worker runs it, and its first phase alone (until the standings are stored and
visible). With --tree, a profile of one more recompute in CPU time (cProfile timed by time.process_time, so time waiting
for the database or for the CPU on a busy machine is not counted; the database's own CPU is in the table above), its 40
most costly calls by cumulative CPU time.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.bench.cpu_clock import Clock  # noqa: E402

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench")
os.environ["CELERY_BROKER_URL"] = "memory://"  # nothing reaches a worker: the recompute runs here
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"

TRF = ROOT / "tests" / "bench" / "data" / "swiss-1000-players.trf"
FLOOR = ("reading rows", "standings", "snapshot store")


def build_event(path: Path, rounds: int, criteria: list[str]):
    """The file's first `rounds` rounds as a published Swiss; the next round's games paired and not played yet."""
    from django.contrib.auth import get_user_model

    from leagues.models import TRF_CODES, Entry, Event, Game, League, Player, Result, Role, Round
    from tiebreaks.trf.read import read_trf_file

    tournament = read_trf_file(str(path))
    by_codes = {codes: result for result, codes in TRF_CODES.items() if result != Result.ABSENT}
    by_codes |= {("W", "L"): Result.WHITE_WINS, ("D", "D"): Result.DRAW, ("L", "W"): Result.BLACK_WINS}
    byes = {"U": Result.PAIRING_BYE, "F": Result.FULL_POINT_BYE, "H": Result.HALF_POINT_BYE}
    slug = f"bench-profile-{os.getpid()}"
    league = League.objects.create(name="Bench profile", slug=slug)
    event = Event.objects.create(
        league=league,
        name=f"Profile {len(tournament.participants)}",
        slug=slug,
        rounds_count=rounds + 1,
        status=Event.Status.PUBLISHED,
        tiebreak_criteria=criteria,
    )
    people = Player.objects.bulk_create(
        Player(name=p.name or f"Player {p.start_number}", rating=p.rating) for p in tournament.participants
    )
    entries = {
        p.start_number: e
        for p, e in zip(
            tournament.participants,
            Entry.objects.bulk_create(
                Entry(event=event, start_number=p.start_number, player=person, rating=p.rating)
                for p, person in zip(tournament.participants, people, strict=True)
            ),
            strict=True,
        )
    }
    games = []
    for number in range(1, rounds + 2):
        rnd = Round.objects.create(event=event, number=number)
        board = 0
        for p in tournament.participants:
            if number > len(p.rounds):
                continue
            block = p.rounds[number - 1]
            if block.opponent is None:
                if number <= rounds:
                    board += 1
                    result: str = byes.get(block.code, Result.ZERO_POINT_BYE)
                    games.append(Game(round=rnd, board=board, white=entries[p.start_number], result=result))
                continue
            if block.colour != "w":
                continue
            other = next(o for o in tournament.participants if o.start_number == block.opponent)
            result = by_codes[(block.code, other.rounds[number - 1].code)] if number <= rounds else Result.PENDING
            board += 1
            games.append(
                Game(
                    round=rnd,
                    board=board,
                    white=entries[p.start_number],
                    black=entries[block.opponent],
                    result=result,
                )
            )
    Game.objects.bulk_create(games)
    Event.objects.filter(pk=event.pk).update(results_version=1)
    user, _ = get_user_model().objects.get_or_create(username="bench-organiser")
    Role.objects.create(user=user, kind=Role.Kind.ORGANISER, league=league)
    pending = list(
        Game.objects.filter(round__event=event, round__number=rounds + 1, black__isnull=False).order_by("board")
    )
    return event, user, pending


def phases(event_id: int, clock: Clock) -> dict[str, tuple[float, float]]:
    """The recompute's phases as standings_recompute_event runs them after one result: (this process, database) CPU
    seconds."""
    from leagues import recompute
    from leagues.models import Event
    from leagues.services.standings import (
        _compute,
        crosstable_for,
        places_remembered,
        plain_rows,
        snapshot_fields,
        with_round_places,
    )

    version = Event.objects.filter(pk=event_id).values_list("results_version", flat=True).get()
    times = {}
    start = clock()

    def lap(name):
        nonlocal start
        now = clock()
        times[name] = (now[0] - start[0], now[1] - start[1])
        start = clock()

    event = Event.objects.get(pk=event_id)
    games, entries = plain_rows(event)  # as event_engine_result reads an open
    lap("reading rows")
    tournament = crosstable_for(event, games, entries)
    result = _compute(event, tournament)
    data = snapshot_fields(result.to_dict(), tournament=tournament)  # as the recompute
    lap("standings")
    assert recompute.store_snapshot(event_id, version, data, 0)
    lap("snapshot store")
    places = places_remembered(event, tournament, result)  # the first run: every round; then none changed
    lap("round places")
    traces = recompute.explanations_built(event_id, version, result)
    lap("traces build")
    assert traces is not None
    assert recompute.explanations_stored(event_id, version, traces, with_round_places(data["rows"], places))
    lap("traces store")
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trf", type=Path, default=TRF)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--criteria", default="BH/C1,BH,SB,PS,WIN")
    parser.add_argument("--tree", action="store_true")
    args = parser.parse_args()
    from tests.bench.bench_pipeline import ensure_database

    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from leagues import recompute
    from leagues.models import Result, StandingsSnapshot
    from leagues.recompute import standings_recompute_event
    from leagues.services.results import result_record
    from leagues.services.standings import crosstable_for, places_after_each_round, plain_rows

    event, user, games = build_event(args.trf, args.rounds, args.criteria.split(","))
    # the results entered one by one below are games of round `rounds` + 1: one opening the round, then one before
    # each run of the phases, one before each whole recompute and one before the profile
    if len(games) < 2 * args.repeat + 2:
        event.league.delete()
        sys.exit(f"{args.trf.name} needs {2 * args.repeat + 2} games in round {args.rounds + 1} (--rounds, --repeat)")
    result_record(game_id=games[0].pk, result=Result.DRAW, user=user)
    standings_recompute_event(event.pk)  # the first snapshot, and the round under way opened
    games = games[1:]
    clock = Clock()
    print(
        f"{args.trf.name}: {event.entries.count()} players, {args.rounds} rounds played, criteria {args.criteria}; "
        f"load average {os.getloadavg()[0]:.2f}; CPU seconds, median of {args.repeat} runs"
    )
    runs = []
    for game in games[: args.repeat]:
        result_record(game_id=game.pk, result=Result.DRAW, user=user)
        runs.append(phases(event.pk, clock))
    games = games[args.repeat :]
    print("| phase | this process | database | both | worst (both) |\n|---|---|---|---|---|")
    medians = {}
    for phase in runs[0]:
        mine = statistics.median(run[phase][0] for run in runs)
        base = statistics.median(run[phase][1] for run in runs)
        both = [sum(run[phase]) for run in runs]
        medians[phase] = statistics.median(both)
        print(
            f"| {phase} | {mine * 1000:.0f} ms | {base * 1000:.0f} ms | {medians[phase] * 1000:.0f} ms "
            f"| {max(both) * 1000:.0f} ms |"
        )
    wholes = [sum(map(sum, run.values())) for run in runs]
    floors = [sum(sum(run[phase]) for phase in FLOOR) for run in runs]
    whole, floor = statistics.median(wholes), statistics.median(floors)
    ratios = sorted(w / f for w, f in zip(wholes, floors, strict=True))
    event.refresh_from_db()
    started = clock()
    places_after_each_round(event, crosstable_for(event, *plain_rows(event)))
    ended = clock()
    print(f"round places of every round (a worker's first recompute of the event): {sum(ended) - sum(started):.3f} s")
    print(
        f"whole {whole * 1000:.0f} ms, floor (reading rows + standings + snapshot store) {floor * 1000:.0f} ms: "
        f"whole / floor {statistics.median(ratios):.2f} (runs: {', '.join(f'{r:.2f}' for r in ratios)})"
    )
    StandingsSnapshot.objects.filter(event=event).delete()
    standings_recompute_event(event.pk)
    whole_runs, first_runs = [], []
    second_phase = recompute.store_explanations

    def first_phase_ended(*args):
        first_runs.append(sum(clock()) - sum(started))
        second_phase(*args)

    recompute.store_explanations = first_phase_ended
    for game in games[: args.repeat]:
        result_record(game_id=game.pk, result=Result.DRAW, user=user)
        started = clock()
        standings_recompute_event(event.pk)  # as the worker runs it: standings, then explanations
        ended = clock()
        whole_runs.append(ended[0] - started[0] + ended[1] - started[1])
    recompute.store_explanations = second_phase
    firsts = ", ".join(f"{r * 1000:.0f}" for r in sorted(first_runs))
    print(
        f"whole recompute after one result, as the worker runs it: median {statistics.median(whole_runs) * 1000:.0f} ms"
        " CPU (this process and database), of which the first phase (until the standings are stored) median "
        f"{statistics.median(first_runs) * 1000:.0f} ms (runs: {firsts} ms)"
    )
    if args.tree:
        import cProfile
        import pstats

        result_record(game_id=games[args.repeat].pk, result=Result.WHITE_WINS, user=user)
        profiler = cProfile.Profile(time.process_time)  # CPU time: a busy machine's waits are not the recompute's
        profiler.runcall(standings_recompute_event, event.pk)
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(40)
    event.league.delete()


if __name__ == "__main__":
    main()
