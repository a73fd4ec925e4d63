"""Feed a tournament of our engine's model to PyPI ``tiebreak-core`` 1.2.0 (MIT, test-only).

Used by the differential test (tests/unit/engine/test_differential_tiebreak_core.py) and by the
benchmark's peer runner (tests/bench/tiebreak_core_runner.py). Standard scoring (1 / ½ / 0)
only: tiebreak-core accepts no other round scores.

Mapping of TRF result codes (spec trf-format.md §4) to tiebreak-core game kinds:
``1 = 0 W D L`` played; ``+`` / ``-`` forfeit win / loss against the scheduled opponent;
``U`` and ``F`` pairing bye (category 16.2.1); ``H`` requested bye ½; ``Z``, ``A``, blank and
rounds missing at the end of a line requested bye 0 (tiebreak-core's reading of §16.1.1).
"""

from __future__ import annotations

from typing import Any

#: our (FIDE MTB26) criterion codes -> tiebreak-core fide-2026 criterion ids
CRITERION_IDS = {
    "DE": "direct_encounter",
    "BH": "buchholz",
    "BH/C1": "buchholz_cut1",
    "BH/C2": "buchholz_cut2",
    "BH/M1": "median_buchholz",
    "BH/M2": "median_buchholz_2",
    "SB": "sonneborn_berger",
    "SB/C1": "sonneborn_berger_cut1",
    "PS": "progressive",
    "PS/C1": "progressive_cut1",
    "WIN": "wins",
    "WON": "won",
    "BPG": "games_black",
    "BWG": "wins_black",
    "REP": "rounds_elected",
    "KS": "koya",
    "ARO": "aro",
    "ARO/C1": "aro_cut1",
    "TPR": "tpr",
    "PTP": "ptp",
    "APRO": "apro",
    "APPO": "appo",
    "AOB": "aob",
    "STD": "std",
    "FB": "fore_buchholz",
}

_PLAYED_SCORE = {"1": 1.0, "W": 1.0, "=": 0.5, "D": 0.5, "0": 0.0, "L": 0.0}


def to_tiebreak_core(tournament: Any, unrated_rating: int | None = None) -> dict[int, Any]:
    """``{start number: PlayerTiebreakData}`` for tiebreak-core."""
    from tiebreak_core import (
        FORFEIT_LOSS,
        FORFEIT_WIN,
        PAIRING_BYE,
        PLAYED,
        REQUESTED_BYE,
        GameRecord,
        PlayerTiebreakData,
    )

    def rating(p: Any) -> int:
        return p.rating or unrated_rating or 0

    ratings = {p.start_number: rating(p) for p in tournament.participants}
    players = {}
    for p in tournament.participants:
        games = []
        for rnd in range(1, tournament.total_rounds + 1):
            entry = p.rounds[rnd - 1] if rnd <= len(p.rounds) else None
            code = entry.code if entry is not None else " "
            colour = "black" if entry is not None and entry.colour == "b" else "white"
            opp = entry.opponent if entry is not None and entry.opponent else -1
            opp_rating = ratings.get(opp, 0)
            if code in _PLAYED_SCORE:
                games.append(GameRecord(opp, opp_rating, _PLAYED_SCORE[code], colour, rnd, kind=PLAYED))
            elif code == "+":
                games.append(GameRecord(opp, opp_rating, 1.0, colour, rnd, kind=FORFEIT_WIN))
            elif code == "-":
                games.append(GameRecord(opp, opp_rating, 0.0, colour, rnd, kind=FORFEIT_LOSS))
            elif code in "UF":
                games.append(GameRecord(-1, 0, 1.0, "white", rnd, kind=PAIRING_BYE))
            elif code == "H":
                games.append(GameRecord(-1, 0, 0.5, "white", rnd, kind=REQUESTED_BYE))
            elif code in "ZA ":
                games.append(GameRecord(-1, 0, 0.0, "white", rnd, kind=REQUESTED_BYE))
            else:
                raise ValueError(f"tiebreak-core has no equivalent of result code {code!r}")
        points = sum(g.score for g in games)
        players[p.start_number] = PlayerTiebreakData(p.start_number, rating(p), points, games)
    return players


def rank_with_tiebreak_core(
    tournament: Any,
    criteria: list[str],
    *,
    round_robin: bool = False,
    unrated_rating: int | None = None,
) -> Any:
    """tiebreak-core's fide-2026 standings for our criterion codes (PTS is implicit there)."""
    from tiebreak_core import rank_standings_strict

    ids = [CRITERION_IDS[c] for c in criteria if c != "PTS"]
    return rank_standings_strict(
        to_tiebreak_core(tournament, unrated_rating),
        ids,
        total_rounds=tournament.total_rounds,
        ruleset="fide-2026",
        mode="round_robin" if round_robin else "swiss",
    )
