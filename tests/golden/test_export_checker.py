"""Our TRF-2026 and TRF-16 export of golden files, read by FIDE's checker (gacrux), gives the
values the checker gives for the original file: the export keeps everything the tie-breaks need.
(The golden values themselves are compared with the engine in test_golden_fide2026/team.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden.checker import checker_values
from tests.paths import GOLDEN
from tiebreaks.trf import encode_trf, read_trf, write_trf

#: one file in three keeps the test short; every mode is among them (swiss, round robin, team)
FILES = sorted(GOLDEN.glob("*.json"))[::3] + sorted((GOLDEN / "team").glob("*.json"))[::3]


@pytest.mark.parametrize("edition", ["2026", "2016"])
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_checker_reads_our_export_as_it_reads_the_original(path: Path, edition: str, tmp_path: Path) -> None:
    data = json.loads(path.read_text())
    original = tmp_path / "original.trf"
    original.write_text(data["trf"])
    t = read_trf(data["trf"])
    exported = tmp_path / f"export-{edition}.trf"
    exported.write_bytes(encode_trf(write_trf(t, edition)))
    round_robin = data["mode"] == "round_robin"
    criteria = [c for c in data["criteria"] if not c.startswith(("ARO", "TPR", "PTP", "APRO", "APPO"))]
    rounds = max(len(p.rounds) for p in t.participants)
    expected = checker_values(original, criteria, rounds=rounds, round_robin=round_robin)
    assert checker_values(exported, criteria, rounds=rounds, round_robin=round_robin) == expected
