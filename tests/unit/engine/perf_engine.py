"""Time compute_standings on a TRF file with the 26 golden criteria (not a test; no assertions).

    .venv/bin/python -m tests.unit.engine.perf_engine tests/bench/data/swiss-1000-players.trf [--profile]

Prints the best CPU time of five runs. Reads the file with the golden tests' private mini TRF
reader, so it measures the engine alone.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from tests.golden._trf_min import parse_trf
from tiebreaks.engine import compute_standings

CRITERIA = (
    "PTS DE BH BH/C1 BH/C2 BH/M1 BH/M2 SB SB/C1 PS PS/C1 WIN WON BPG BWG REP KS ARO ARO/C1 TPR PTP APRO APPO AOB STD FB"
).split()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for path in args.files:
        tournament = parse_trf(path.read_text(encoding="latin-1"))
        best = float("inf")
        for _ in range(args.runs):
            start = time.process_time()
            compute_standings(tournament, CRITERIA)
            best = min(best, time.process_time() - start)
        print(
            f"{path.name}: {len(tournament.participants)} players x {tournament.total_rounds} rounds, "
            f"{len(CRITERIA) - 1} criteria: {best * 1000:.1f} ms CPU (best of {args.runs})"
        )
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(compute_standings, tournament, CRITERIA)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
