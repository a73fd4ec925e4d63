"""Where a Dutch pairing of a big open spends its CPU: ours against gacrux's (issue #37; not a test).

    .venv/bin/python tests/bench/profile_pairing.py [--size 1000] [--rounds 4,8,11] [--tree ROUND]

Each round of tests/bench/data/swiss-SIZE-players.trf is paired as bench_pairings.py pairs it (round r from rounds
1..r-1 as the file records them, in a child process with PYTHONHASHSEED=0, the state built and everything imported
before the clock starts), the way the site pairs it: ``pairings.dutch.dutch_pairs``, which builds gacrux's
in-memory tournament and calls gacrux's Dutch engine. The table gives the CPU time (time.process_time) of each
phase, ours and gacrux's, each without the phases it calls (they add up to the whole); the phases are gacrux's own
methods, timed by wrapping them in this process (nothing of gacrux is changed). Then the whole of
``pairings.pair_round`` as the site's worker runs it: our checks of the state and of the answer in the worker, the
pairing in a forked child (its CPU from getrusage, system time included).

With --tree ROUND, a profile of that round in CPU time (cProfile timed by time.process_time, so the profiler's own
cost swells the functions called most; the table above is the measure), its 30 most costly functions by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import json
import os
import pstats
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_pairings import DATA, _state, machine  # noqa: E402

#: (module, owner, method, phase): gacrux's phases of a Dutch pairing, and ours around them
PHASES = (
    ("pairings.dutch", None, "gacrux_tournament", "ours: the state in gacrux's form (gacrux_tournament)"),
    ("pairings.dutch", None, "_engine_pairs", "ours: the answer, and freeing gacrux's work"),
    ("gacrux.pairingdutch", "pairing_dutch", "__init__", "gacrux: the engine set up"),
    ("gacrux.crosstable", "crosstable", "compute_tiebreak", "gacrux: scores, colours, floats (its tiebreak module)"),
    ("gacrux.crosstable", "crosstable", "list_edges", "gacrux: a record for every two players (crosstable)"),
    ("gacrux.pairing", "pairing", "list_edges", "gacrux: the pairs allowed, sorted"),
    ("gacrux.pairing", "pairing", "compute_hamilton", "gacrux: can the round be completed (compute_hamilton)"),
    ("gacrux.pairingdutch", "pairing_dutch", "find_pab", "gacrux: the PAB's score group (find_pab)"),
    ("gacrux.pairingdutch", "pairing_dutch", "pair_bracket", "gacrux: score brackets, the rest (pair_bracket)"),
    ("gacrux.pairing", "pairing", "get_edges", "gacrux: score brackets, the pairs left (get_edges)"),
    ("gacrux.pairingdutch", "pairing_dutch", "pair_simple_round", "gacrux: score brackets, its own search"),
    ("gacrux.pairingdutch", "pairing_dutch", "pair_weighted_round", "gacrux: brackets, weighted matching (networkx)"),
    ("gacrux.crosstabledutch", "crosstable_dutch", "update_crosstable", "gacrux: score brackets, pair qualities"),
    ("gacrux.pairingdutch", "pairing_dutch", "update_board", "gacrux: board order"),
    ("gacrux.pairing", "pairing", "compute_pairing", "gacrux: the rest of compute_pairing"),
)
WHOLE = "the whole pairing (dutch_pairs)"


class PhaseClock:
    """CPU time per phase, each phase without the phases it calls."""

    def __init__(self) -> None:
        self.spent: Counter[str] = Counter()
        self.stack: list[list[Any]] = []

    def wrap(self, owner: Any, name: str, phase: str) -> None:
        original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.stack.append([phase, 0.0])
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent = time.process_time() - start
                _, inner = self.stack.pop()
                self.spent[phase] += spent - inner
                if self.stack:
                    self.stack[-1][1] += spent

        setattr(owner, name, timed)


def child(path: Path, rnd: int, tree: bool) -> None:
    """One round: prints JSON {phase: CPU seconds} (or, with ``tree``, the profile)."""
    import importlib

    import gacrux.pairingdutch  # noqa: F401 - imported before the clock

    from pairings import dutch
    from pairings.engine import pair_round

    state = _state(path, rnd)
    if tree:
        profile = cProfile.Profile(time.process_time)
        profile.runcall(dutch.dutch_pairs, state)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        return
    clock = PhaseClock()
    for module, owner, name, phase in PHASES:
        imported = importlib.import_module(module)
        clock.wrap(getattr(imported, owner) if owner else imported, name, phase)
    start = time.process_time()
    pairs = dutch.dutch_pairs(state)
    spent = dict(clock.spent, **{WHOLE: time.process_time() - start})
    before, children = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    result = pair_round(state)  # as the worker: the checks here, the pairing in a forked child
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent["site: our checks in the worker (pair_round)"] = time.process_time() - before
    spent["site: the forked child (dutch_pairs, its exit)"] = (after.ru_utime + after.ru_stime) - (
        children.ru_utime + children.ru_stime
    )
    same = [(b.white, b.black) for b in result.boards] == [p for p in pairs if p[1]]
    print(json.dumps({"spent": spent, "same": same}))


def measure(path: Path, rnd: int, tree: bool) -> str:
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(path), str(rnd), *(["--tree", str(rnd)] if tree else [])],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1000, help="tests/bench/data/swiss-SIZE-players.trf")
    parser.add_argument("--rounds", default="4,8,11")
    parser.add_argument("--tree", type=int, help="a cProfile of this round instead of the table")
    parser.add_argument("--child", nargs=2, metavar=("FILE", "ROUND"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child[0]), int(args.child[1]), args.tree is not None)
        return
    path = DATA / f"swiss-{args.size}-players.trf"
    print(f"machine: {machine()}")
    if args.tree:
        print(measure(path, args.tree, True))
        return
    rounds = [int(r) for r in args.rounds.split(",")]
    runs = {rnd: json.loads(measure(path, rnd, False)) for rnd in rounds}
    if not all(run["same"] for run in runs.values()):
        raise SystemExit("pair_round and dutch_pairs paired a round differently")
    print(f"{args.size} players; CPU seconds (time.process_time), each phase without the phases it calls")
    print()
    print("| phase | " + " | ".join(f"round {r}" for r in rounds) + " | share |")
    print("|---|" + "---|" * (len(rounds) + 1))
    whole = sum(run["spent"][WHOLE] for run in runs.values())
    for phase in [p for *_, p in PHASES] + [WHOLE]:
        total = sum(run["spent"].get(phase, 0.0) for run in runs.values())
        cells = " | ".join(f"{run['spent'].get(phase, 0.0):.2f}" for run in runs.values())
        print(f"| {phase} | {cells} | {100 * total / whole:.1f} % |")
    ours = sum(run["spent"].get(p, 0.0) for run in runs.values() for *_, p in PHASES if p.startswith("ours"))
    print()
    print(f"ours {100 * ours / whole:.1f} %, gacrux's {100 - 100 * ours / whole:.1f} % of the pairing's CPU")
    print()
    for rnd, run in runs.items():
        spent = run["spent"]
        checks, forked = (spent[k] for k in spent if k.startswith("site:"))
        print(
            f"round {rnd}, pair_round as the worker runs it: {checks + forked:.2f} s "
            f"(our checks in the worker {checks:.2f} s, the forked child {forked:.2f} s)"
        )


if __name__ == "__main__":
    main()
