"""Write an event's history the way an arbiter reads a crosstable: one line per round.

    rounds = ["1-3 1, 4-2 0", "2-1 =, 3-4 1, 5 U"]

Each game is "white-black result" with the result from white's side (1, =, 0, + forfeit win,
- forfeit loss); a bye is "number code" (U PAB, H, F, Z). Both sides of every game are written,
so a history is always consistent.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from pairings import PairingState, Player, RoundEntry

_OTHER_SIDE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


def players_after(count: int, rounds: list[str], *, ratings: list[int] | None = None) -> tuple[Player, ...]:
    history: dict[int, list[RoundEntry]] = {n: [] for n in range(1, count + 1)}
    for text in rounds:
        seen: dict[int, RoundEntry] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            pairing, code = item.split()
            if "-" in pairing:
                white, black = (int(x) for x in pairing.split("-"))
                seen[white] = RoundEntry(code, black, "w")
                seen[black] = RoundEntry(_OTHER_SIDE[code], white, "b")
            else:
                seen[int(pairing)] = RoundEntry(code)
        for number in history:
            history[number].append(seen.get(number, RoundEntry("Z")))
    ratings = ratings or [2400 - 10 * n for n in range(count)]
    return tuple(Player(n, ratings[n - 1], tuple(history[n])) for n in history)


def state(count: int, rounds: list[str], *, total_rounds: int = 9, **kwargs: Any) -> PairingState:
    return PairingState(
        players=players_after(count, rounds), round=len(rounds) + 1, total_rounds=total_rounds, **kwargs
    )


def generated_tournaments(
    folder: Path, *, players: int, rounds: int, first: int, count: int, byes: tuple[float, float, float]
) -> list[Path]:
    """Tournaments from gacrux's random tournament generator (FIDE TEC's; paired by its own Dutch
    engine). File number k always gets the generator's seed k * 10000 + 4711, so a set is the
    same on every machine. ``byes``: rates of zero-point byes, half-point byes and forfeits."""
    zpb, hpb, forfeits = byes
    pattern = folder / f"p{players}_r{rounds}_%d.trf"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "gacrux.tournamentgenerator",
            "-N",
            str(rounds),
            "-p",
            str(players),
            "-S",
            str(zpb),
            str(hpb),
            str(forfeits),
            "-o",
            str(pattern),
            "-g",
            str(first),
            str(count),
        ],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        timeout=300,
    )
    return sorted(folder.glob(f"p{players}_r{rounds}_*.trf"))
