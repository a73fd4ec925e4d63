"""A tiny private TRF reader for the golden tests: 001 lines, 142 rounds, 162 scoring.

Columns per trf-format.md §3 (1-based): start number 5-8, name 15-47, rating 49-52 (0 =
unrated), round blocks from column 92 every 10 columns (opponent 4 chars, colour at c+5,
result at c+7). Deliberately independent of tiebreaks/trf.py.
"""

from __future__ import annotations

from fractions import Fraction

from tiebreaks.engine.model import Participant, RoundEntry, Scoring, Tournament

_SCORE_KEYS = {"W": "win", "D": "draw", "L": "loss", "A": "absence", "P": "pab", "X": "unknown"}


def _scoring(line: str) -> Scoring:
    values: dict[str, Fraction] = {}
    pos = 5
    while pos < len(line):
        code = line[pos].strip()
        number = line[pos + 1 : pos + 5].strip().replace(",", ".")
        if code in _SCORE_KEYS and number:
            values[_SCORE_KEYS[code]] = Fraction(number)
        pos += 9
    return Scoring(**values)  # type: ignore[arg-type]


def parse_trf(text: str, *, round_robin: bool = False) -> Tournament:
    participants: list[Participant] = []
    rounds_declared: int | None = None
    scoring = Scoring()
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        tag = raw[:3]
        if tag == "142":
            rounds_declared = int(raw[4:].split()[0])
        elif tag == "162":
            scoring = _scoring(raw)
        elif tag == "001":
            rating_text = raw[48:52].strip()
            rating = int(rating_text) if rating_text else 0
            entries: list[RoundEntry] = []
            c = 91  # 0-based start of round 1's block (column 92)
            while len(raw) > c + 7 - 1:
                opp_text = raw[c : c + 4].strip()
                colour = raw[c + 5 : c + 6].strip() if len(raw) > c + 5 else ""
                code = raw[c + 7 : c + 8] if len(raw) > c + 7 else " "
                opponent = int(opp_text) if opp_text and int(opp_text) > 0 else None
                entries.append(
                    RoundEntry(code=code, opponent=opponent, colour=colour if colour in ("w", "b") else None)
                )
                c += 10
            participants.append(
                Participant(
                    start_number=int(raw[4:8]),
                    name=raw[14:47].strip(),
                    rating=rating or None,
                    rounds=tuple(entries),
                )
            )
    total = rounds_declared if rounds_declared is not None else max((len(p.rounds) for p in participants), default=0)
    participants.sort(key=lambda p: p.start_number)
    return Tournament(
        participants=participants,
        total_rounds=total,
        scoring=scoring,
        rounds_computed=total,
        round_robin=round_robin,
    )
