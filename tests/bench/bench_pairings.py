"""Pairing benchmark (issue #37): gacrux given the event in its own in-memory form against the old
round trip through TRF text, on the 1,000- and 2,000-player bench files, in the same run.

    python tests/bench/bench_pairings.py [--sizes 1000,2000] [--rounds 4,8,11] [--runs 1]

Each file is paired round by round: round r from rounds 1..r-1 as the file records them, a player
without a game in round r absent with the bye the file gives (as ``python -m pairings check``
replays a file). Each measurement is one child process with the same PYTHONHASHSEED, everything
imported and the state built before the clock starts, the two ways taking turns:

* text (the old way): ``gacrux_trf`` writes the state as TRF, gacrux's own reader parses it, then
  gacrux's Dutch engine pairs the round;
* memory (the new way): ``gacrux_tournament`` builds gacrux's form of the state, then the same engine.

CPU is ``time.process_time()`` of the pairing alone (in process, no fork); memory is the child's peak
resident set (``getrusage``) and how much the pairing added to what the child held before it. Every
round's two answers are compared: the benchmark stops if they differ. Nothing here asserts a time.
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
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DATA = ROOT / "tests" / "bench" / "data"
KINDS = ("text", "memory")


def _state(path: Path, rnd: int):  # type: ignore[no-untyped-def]
    from pairings.checker import recorded_round
    from pairings.trf import absent_in, read_event

    event = read_event(path.read_bytes())
    present = {abs(n) for pair in recorded_round(event, rnd) for n in pair if n}
    absent = {
        p.start_number: absent_in(p.rounds[rnd - 1] if len(p.rounds) >= rnd else None)
        for p in event.tournament.participants
        if p.start_number not in present
    }
    return event.state(rnd, absent=absent)


def _rss_kib() -> int:
    """The resident set now, in KiB."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


def child(kind: str, path: Path, rnd: int) -> None:
    """One measurement: prints JSON {cpu, wall, peak_mib, added_mib, pairs}."""
    import gacrux.pairingdutch  # imports before the clock, for both ways
    import gacrux.trf2json  # noqa: F401

    from pairings.dutch import dutch_pairs, gacrux_pairs, gacrux_trf

    state = _state(path, rnd)
    before = _rss_kib()
    cpu, wall = time.process_time(), time.perf_counter()
    pairs = gacrux_pairs(gacrux_trf(state), rnd) if kind == "text" else dutch_pairs(state)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(
        json.dumps(
            {"cpu": cpu, "wall": wall, "peak_mib": peak / 1024, "added_mib": (peak - before) / 1024, "pairs": pairs}
        )
    )


def measure(kind: str, path: Path, rnd: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, str(path), str(rnd)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor(),
    )
    load = os.getloadavg()[0]
    system = f"Python {platform.python_version()}; {platform.system()} {platform.release()}"
    return f"{cpu}; nproc {os.cpu_count()}; load {load:.1f}; {system}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--sizes", default="1000,2000", help="bench files by players (tests/bench/data/swiss-N-players.trf)"
    )
    parser.add_argument("--rounds", default="4,8,11", help="the rounds to pair")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--child", nargs=3, metavar=("KIND", "FILE", "ROUND"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]), int(args.child[2]))
        return
    from gacrux.version import version

    print(f"machine: {machine()}")
    print(f"gacrux {version()['version']}; median of {args.runs} run(s); CPU = time.process_time() of the pairing")
    print()
    columns = ("players", "round", "CPU text", "CPU memory", "CPU ratio", "peak RSS text", "peak RSS memory")
    print("| " + " | ".join((*columns, "added text", "added memory")) + " |")
    print("|---|---|---|---|---|---|---|---|---|")
    totals = {kind: 0.0 for kind in KINDS}
    for size in (int(s) for s in args.sizes.split(",")):
        path = DATA / f"swiss-{size}-players.trf"
        size_totals = {kind: 0.0 for kind in KINDS}
        for rnd in (int(r) for r in args.rounds.split(",")):
            results: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
            for run in range(args.runs):
                for kind in KINDS if run % 2 == 0 else KINDS[::-1]:
                    results[kind].append(measure(kind, path, rnd))
            answers = {json.dumps(r["pairs"]) for rows in results.values() for r in rows}
            if len(answers) != 1:
                raise SystemExit(f"round {rnd} of {size} players: the two ways paired differently")
            cpu = {k: statistics.median(float(r["cpu"]) for r in v) for k, v in results.items()}
            peak = {k: max(float(r["peak_mib"]) for r in v) for k, v in results.items()}
            added = {k: max(float(r["added_mib"]) for r in v) for k, v in results.items()}
            for kind in KINDS:
                size_totals[kind] += cpu[kind]
                totals[kind] += cpu[kind]
            print(
                f"| {size} | {rnd} | {cpu['text']:.2f} s | {cpu['memory']:.2f} s | {cpu['memory'] / cpu['text']:.2f}× "
                f"| {peak['text']:.0f} MiB | {peak['memory']:.0f} MiB "
                f"| {added['text']:.0f} MiB | {added['memory']:.0f} MiB |",
                flush=True,
            )
        ratio = size_totals["memory"] / size_totals["text"]
        print(
            f"| {size} | all | {size_totals['text']:.2f} s | {size_totals['memory']:.2f} s | {ratio:.2f}× | | | | |",
            flush=True,
        )
    print()
    print(
        f"CPU of every round: text {totals['text']:.2f} s, memory {totals['memory']:.2f} s, "
        f"ratio {totals['memory'] / totals['text']:.2f}×"
    )
    print("Same boards, colours, order and bye both ways in every round (checked).")


if __name__ == "__main__":
    main()
