"""FIDE's tie-break checker (``gacrux`` on PyPI, Otto Milvang's TieBreakServer) run as an oracle.

``checker_values(path, criteria, ...)`` runs ``python -m gacrux.tiebreakchecker`` on a TRF file
and returns {start number (team number in a team file): [value per criterion]} as the checker
prints them, or raises CheckerRefused with the checker's own message when it cannot read the file.
Every criterion is forced to the 2026 rules (``/V2026``), which is what our ``fide-2026`` applies
whatever the file's start date; ``rounds`` is the checker's ``-n`` (the current round).
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path


class CheckerRefused(Exception):
    """The checker could not read the file; ``str()`` is its own message."""


def checker_values(
    path: Path,
    criteria: list[str],
    *,
    rounds: int,
    round_robin: bool = False,
    encoding: str = "",
) -> dict[int, list[Fraction | None]]:
    command = [sys.executable, "-m", "gacrux.tiebreakchecker", "-i", str(Path(path).resolve()), "-t"]
    command += [f"{c}/V2026" for c in criteria]
    command += ["-p" if round_robin else "-s", "-d", "T", "-n", str(rounds)]
    if encoding:
        command += ["-b", encoding]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=Path(path).resolve().parent)
    lines = result.stdout.strip().splitlines()
    if result.returncode or not lines or not lines[0].startswith("StartNo"):
        raise CheckerRefused(" | ".join((result.stdout + result.stderr).split("\n")).strip())
    values: dict[int, list[Fraction | None]] = {}
    for line in lines[1:]:
        if line.startswith("Check"):
            continue
        cells = line.split("\t")
        values[int(cells[0])] = [None if c in ("None", "-0") else Fraction(c) for c in cells[2:]]
    return values


def to_hundredths(value: Fraction | None) -> Fraction | None:
    """A value as the checker prints it: two decimals at most (half up)."""
    if value is None:
        return None
    return Fraction(round(value * 100), 100)
