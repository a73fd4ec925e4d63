"""Peer runner for the benchmark: tiebreak-core on a TRF file, as a whole process.

    python tests/bench/tiebreak_core_runner.py FILE.trf "PTS,BH,BH/C1,..."

Reads the file with our TRF reader (tiebreak-core has no TRF parser), ranks with tiebreak-core
(ruleset fide-2026, Swiss) and prints the rows as JSON, like ``python -m tiebreaks standings
--json`` does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.tiebreak_core_adapter import CRITERION_IDS, rank_with_tiebreak_core  # noqa: E402
from tiebreaks.trf import read_trf_file  # noqa: E402


def main() -> None:
    path, criteria = sys.argv[1], [c for c in sys.argv[2].split(",") if c]
    tournament = read_trf_file(path)
    standings = rank_with_tiebreak_core(tournament, criteria)
    names = {CRITERION_IDS[c]: c for c in criteria if c in CRITERION_IDS}
    rows = [
        {
            "rank": p.rank,
            "start_number": p.player_id,
            "points": p.points,
            "values": {names.get(k, k): v for k, v in p.values.items()},
        }
        for p in standings.players
    ]
    json.dump({"rules": "fide-2026", "criteria": criteria, "rows": rows}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
