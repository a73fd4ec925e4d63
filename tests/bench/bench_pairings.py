"""Pairing benchmark: round 9 of a 1,000-player and a 200-player open, our interface against
gacrux alone, in the same run.

    python tests/bench/bench_pairings.py [--runs 3] [--sizes 200,1000]

Inputs: the 1,000-player bench file (tests/bench/data/swiss-1000-players.trf) cut after round 8
(without its FIDE ids, which the generator repeats), and a 200-player open of 8 rounds made by
gacrux's tournament generator (file 0: its seed is 4711); both announce more rounds, so round 9
is the next one.

Each measurement is one child process (imports done before the clock starts), median of --runs,
the kinds taking turns:

* gacrux alone: gacrux's TRF reader on the file and its Dutch engine for round 9, in process
  (what ``gacrux.pairingchecker -p`` does without the interpreter's start);
* ours, from the file: ``pairings.trf.read_event`` (tiebreaks' TRF reader), the state for
  round 9 and ``pair_round`` (our TRF for gacrux, gacrux's reader and engine in a forked child
  with a deadline, the result checked complete), i.e. ``python -m pairings next`` without the
  interpreter's start;
* ours, from a state: ``pair_round`` on a state already built;
* ours, on the site: the event imported into PostgreSQL (``BENCH_DATABASE_URL``, default the database
  chess_league_bench_pairings) by the site's TRF import, then what the worker's pairing task does
  before it stores the boards: ``pairing_state`` read from the database and ``pair_round``.
  Left out when PostgreSQL does not answer.

Every child runs with the same PYTHONHASHSEED, so gacrux's engine walks its sets in the same order
(and does the same work) in every kind.

Overhead = ours / gacrux alone - 1, on wall time (median and best of the runs: the machine is
shared, the best is the least disturbed) and on CPU time (the process and its forked engine).
Memory: each child's peak resident set (itself and its
forked children, ``getrusage``), and the state's own size (``tracemalloc``: the PairingState
for round 9 with its players and round blocks). Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

BENCH_1000 = ROOT / "tests" / "bench" / "data" / "swiss-1000-players.trf"
ROUND = 9
KINDS = ("gacrux", "ours-file", "ours-state", "ours-site")
LABELS = {"ours-file": "ours from the file", "ours-state": "ours from a state", "ours-site": "ours on the site"}
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench_pairings")


def _django() -> None:
    os.environ.update(DATABASE_URL=DATABASE_URL, DJANGO_SETTINGS_MODULE="config.settings.dev")
    import django

    django.setup()


def import_events(inputs: dict[int, Path]) -> bool:
    """Each input imported as the event bench-pairings-N by the site's TRF import; False without PostgreSQL."""
    from tests.bench.bench_pipeline import ensure_database

    try:
        ensure_database(DATABASE_URL)
    except OSError:
        return False
    _django()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from leagues.models import League, Role
    from leagues.services.trf import event_import_trf

    call_command("migrate", verbosity=0)
    League.objects.filter(slug="bench-pairings").delete()
    league = League.objects.create(name="Bench pairings", slug="bench-pairings")
    user, _ = get_user_model().objects.get_or_create(username="bench-pairings")
    Role.objects.create(user=user, kind=Role.Kind.ORGANISER, league=league)
    for size, path in inputs.items():
        event_import_trf(
            league=league,
            name=f"Open {size}",
            slug=f"bench-pairings-{size}",
            data=path.read_bytes(),
            user=user,
            rule_set="fide-2026",
        )
    return True


def make_inputs(folder: Path, sizes: list[int]) -> dict[int, Path]:
    from tiebreaks.trf import read_trf_file, write_trf

    inputs: dict[int, Path] = {}
    for size in sizes:
        if size == 1000:
            tournament = read_trf_file(str(BENCH_1000))
            cut = replace(
                tournament,
                # the generated file gives one FIDE id to several players, which the site's import refuses
                participants=[replace(p, rounds=p.rounds[: ROUND - 1], fide_id="") for p in tournament.participants],
            )
            path = folder / "open-1000-after-8.trf"
            path.write_text(write_trf(cut))
        else:
            subprocess.run(
                [sys.executable, "-m", "gacrux.tournamentgenerator", "-N", str(ROUND - 1), "-p", str(size)]
                + ["-o", str(folder / f"open-{size}-%d.trf"), "-g", "0", "1"],
                check=True,
                capture_output=True,
            )
            path = folder / f"open-{size}-after-8.trf"
            text = (folder / f"open-{size}-0000.trf").read_text()
            path.write_text(text.replace(f"\n142 {ROUND - 1}\n", f"\n142 {ROUND + 2}\n"))
        inputs[size] = path
    return inputs


def child(kind: str, path: Path) -> None:
    """One measurement: prints JSON {seconds, rss_mib, pairs, state_kib}."""
    import gacrux.pairingdutch  # noqa: F401 - imports before the clock, for every kind
    from gacrux.pairingdutch import pairing_dutch
    from gacrux.trf2json import trf2json

    from pairings import pair_round
    from pairings.dutch import gacrux_trf
    from pairings.trf import read_event

    if kind == "ours-site":
        _django()
        from leagues.models import Event
        from leagues.services.round_pairings import engine_system, pairing_state

        event = Event.objects.get(slug=f"bench-pairings-{path.name.split('-')[1]}")
    data = path.read_bytes()
    state_kib = None
    if kind == "ours-state":
        tracemalloc.start()
        state = read_event(data).state(ROUND)
        state_kib = tracemalloc.get_traced_memory()[0] / 1024
        tracemalloc.stop()
    start, cpu_start = time.perf_counter(), _cpu()
    if kind == "gacrux":
        reader = trf2json()
        reader.parse_file(data.decode("latin-1"), 0)
        tournament = reader.get_tournament(1)
        tournament.setdefault("maxMeets", 1)
        engine = pairing_dutch(tournament, ROUND, {"experimental": [], "verbose": 0})
        brackets = engine.compute_pairing(False, 0)
        found = sorted((p for b in brackets for p in b["pairs"]), key=lambda p: p["board"])
        pairs = [[p["w"], p["b"]] for p in found]
    elif kind == "ours-site":
        result = pair_round(pairing_state(event, ROUND), engine_system(event))
        pairs = [[b.white, b.black] for b in result.boards] + [[b.start_number, 0] for b in result.byes]
    else:
        if kind == "ours-file":
            state = read_event(data).state(ROUND)
        result = pair_round(state)
        pairs = [[b.white, b.black] for b in result.boards] + [[b.start_number, 0] for b in result.byes]
    seconds, cpu = time.perf_counter() - start, _cpu() - cpu_start
    rss = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    own = {}
    if kind == "ours-file":  # our own steps alone, after the measurement: reader + state, TRF for gacrux
        clock = time.perf_counter()
        state = read_event(data).state(ROUND)
        own["read_state"] = time.perf_counter() - clock
        clock = time.perf_counter()
        gacrux_trf(state)
        own["gacrux_trf"] = time.perf_counter() - clock
    print(
        json.dumps(
            {"seconds": seconds, "cpu": cpu, "rss_mib": rss / 1024, "pairs": pairs, "state_kib": state_kib, **own}
        )
    )


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the forked engine)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(kind: str, path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return json.loads(done.stdout)


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor(),
    )
    return (
        f"{cpu}; nproc {os.cpu_count()}; Python {platform.python_version()}; {platform.system()} {platform.release()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="200,1000")
    parser.add_argument("--child", nargs=2, metavar=("KIND", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]))
        return
    from gacrux.version import version

    print(f"machine: {machine()}")
    print(f"gacrux {version()['version']}; median of {args.runs} runs; round {ROUND}")
    own: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        inputs = make_inputs(Path(tmp), [int(s) for s in args.sizes.split(",")])
        kinds = KINDS if import_events(inputs) else KINDS[:-1]
        ours = kinds[1:]
        print()
        print("| players | measure | gacrux alone | " + " | ".join(LABELS[k] for k in ours) + " |")
        print("|---|---|---|" + "---|" * len(ours))
        for size, path in inputs.items():
            results: dict[str, list[dict[str, object]]] = {kind: [] for kind in kinds}
            for run in range(args.runs):
                for kind in kinds[run % len(kinds) :] + kinds[: run % len(kinds)]:
                    results[kind].append(measure(kind, path))
            reference = results["gacrux"][0]["pairs"]
            for kind in kinds:
                for r in results[kind]:
                    if r["pairs"] != reference:
                        raise SystemExit(f"{kind} paired round {ROUND} of {size} players differently from gacrux")
            for label, key, pick in (
                ("wall, median", "seconds", statistics.median),
                ("wall, best", "seconds", min),
                ("CPU, median", "cpu", statistics.median),
            ):
                t = {k: pick(float(r[key]) for r in v) for k, v in results.items()}
                cells = [f"{t[k]:.2f} s ({t[k] / t['gacrux'] - 1:+.1%})" for k in ours]
                print(f"| {size} | {label} | {t['gacrux']:.2f} s | " + " | ".join(cells) + " |")
            # each run's kinds ran one after the other: the ratio within a run is the least disturbed by the load
            ratios = {
                k: [float(o["cpu"]) / float(g["cpu"]) for o, g in zip(results[k], results["gacrux"], strict=True)]
                for k in ours
            }
            cells = [f"{statistics.median(ratios[k]) - 1:+.1%}" for k in ours]
            print(f"| {size} | CPU, median of the runs' own ratios | | " + " | ".join(cells) + " |")
            rss = [f"{max(float(r['rss_mib']) for r in results[k]):.0f} MiB" for k in kinds]
            print(f"| {size} | peak RSS | " + " | ".join(rss) + " |")
            own.append(f"{size} players: the state takes {results['ours-state'][0]['state_kib']:.0f} KiB")
            read_ms = statistics.median(float(r["read_state"]) for r in results["ours-file"]) * 1000
            trf_ms = statistics.median(float(r["gacrux_trf"]) for r in results["ours-file"]) * 1000
            own[-1] += (
                f"; reading the file and building the state {read_ms:.0f} ms, writing gacrux's "
                f"TRF {trf_ms:.0f} ms ({(read_ms + trf_ms) / 1000 / t['gacrux']:.1%} of gacrux alone's CPU)"
            )
    print()
    print("Our own steps alone (median):")
    for line in own:
        print(f"- {line}")
    print()
    print(f"Same pairing from all {len(kinds)} in every run (checked).")


if __name__ == "__main__":
    main()
