"""TRF vocabulary: result codes (§4), the record order (§9), scoring records 162/362 (§5),
number fields, and the error every part of the reader raises."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any

from tiebreaks.engine.model import Scoring


class TRFError(ValueError):
    """A TRF file that cannot be imported; ``str()`` is "line N: problem"."""

    def __init__(self, line_number: int | None, message: str) -> None:
        self.line_number = line_number
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line_number is None:
            return self.message
        return f"line {self.line_number}: {self.message}"


# --- codes (§4) ---------------------------------------------------------------------------

#: codes of a game against an opponent (the opponent field is mandatory)
GAME_CODES = frozenset("1=0WDLX?+-")
#: codes without an opponent (opponent 0000, colour "-")
BYE_CODES = frozenset("FHUZA ")
VALID_CODES = GAME_CODES | BYE_CODES
#: code -> codes the opponent's block may carry in the same round
COMPLEMENT = {
    "1": "0",
    "0": "1",
    "=": "=",
    "W": "L",
    "L": "W",
    "D": "D",
    "X": "X?",
    "?": "X?",
    "+": "-",
    "-": "+-",
}
#: score key (record 162) of each code
SCORE_KEY = {
    "1": "W", "W": "W", "+": "W", "F": "W",
    "=": "D", "D": "D", "H": "D",
    "0": "L", "L": "L",
    "-": "A", "Z": "A", "A": "A", " ": "A",
    "U": "P",
    "X": "X", "?": "X",
}  # fmt: skip

ROUND_ROBIN_TYPES = ("ROUNDROBIN", "SCHILLER", "SCHEVENINGEN")
SWISS_TYPES = ("SWISS", "DUTCH", "DUBOV", "BURSTEIN", "KNOCKOUT")

#: the checker's record order (§9 step 2); also the order in which records are written
RECORD_ORDER = (
    "###", "012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "122",
    "132", "142", "152", "162", "172", "182", "192", "202", "212", "222", "352", "362", "001",
    "NRS", "310", "013", "250", "260", "240", "320", "330", "299", "300", "801", "802", "XXR",
    "XXZ",
)  # fmt: skip
ORDER_INDEX = {tag: i for i, tag in enumerate(RECORD_ORDER)}
MODELLED = frozenset({"001", "012", "042", "052", "062", "072", "082", "142", "162", "192",
                       "202", "212", "013", "310", "362", "240", "XXR"})  # fmt: skip
#: one parsed 001 record: line number, fields, points column and the list of RoundEntry
Player = dict[str, Any]


# --- small field parsers ------------------------------------------------------------------


_NUMBER_RE = re.compile(r"(-?)(\d*)(?:\.(\d+))?")


def decimal(text: str) -> Fraction | None:
    """A decimal number ("7.5", "7,5", ".5", "-1") as an exact Fraction built from integers
    (no float, no Fraction string parsing); None when blank; ValueError otherwise."""
    text = text.strip().replace(",", ".")
    if not text:
        return None
    match = _NUMBER_RE.fullmatch(text)
    if match is None:
        raise ValueError(text)
    sign, whole, decimals = match.groups()
    if decimals is None:
        if not whole:
            raise ValueError(text)
        value = int(whole)
        return Fraction(-value if sign else value)
    value = int(whole + decimals)
    return Fraction(-value if sign else value, 10 ** len(decimals))


#: the points column (cols 81-84) takes few distinct values: parse each once
points_column = lru_cache(maxsize=1024)(decimal)


def int_field(text: str, lineno: int, what: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit():
        raise TRFError(lineno, f"{what} {text!r} is not a number")
    return int(text)


def parse_date(text: str, lineno: int, what: str) -> str:
    text = text.strip()
    if not text:
        return ""
    patterns = (
        (r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", ("y", "m", "d")),
        (r"(\d{1,2})\.(\d{1,2})\.(\d{4})", ("d", "m", "y")),
        (r"(\d{2})/(\d{1,2})/(\d{1,2})", ("y", "m", "d")),
    )
    for pattern, order in patterns:
        match = re.fullmatch(pattern, text)
        if match:
            parts = dict(zip(order, (int(g) for g in match.groups()), strict=True))
            year = parts["y"] + 2000 if parts["y"] < 100 else parts["y"]
            if 1 <= parts["m"] <= 12 and 1 <= parts["d"] <= 31:
                return f"{year:04d}-{parts['m']:02d}-{parts['d']:02d}"
    raise TRFError(lineno, f"{what} {text!r} is not a date (YYYY/MM/DD)")


def fmt_points(value: Fraction, what: str) -> str:
    if (value * 2).denominator != 1:
        raise ValueError(f"{what} {value} cannot be written in TRF (only halves fit the 11.5 format)")
    return f"{float(value):4.1f}"


def parse_scoring_line(line: str, lineno: int, *, team: bool) -> Scoring:
    """Record 162 (or 362): code at col 6, value at cols 7-10, then every 9 columns (§5).

    362 is also accepted with the TRF-2026 two-letter codes (TW, TD, TL)."""
    values: dict[str, Fraction] = {}
    for match in re.finditer(r"\b(T?[WDLAPX])\s*(-?\d+(?:[.,]\d+)?)", line[4:].upper()):
        key = match.group(1)[-1]
        try:
            number = decimal(match.group(2))
        except ValueError:
            raise TRFError(lineno, f"scoring value {match.group(2)!r} is not a number") from None
        assert number is not None
        values[key] = number
    if not values and line[4:].strip():
        raise TRFError(lineno, f"cannot read the scoring system {line[4:].strip()!r}")
    base = Scoring(win=Fraction(2), draw=Fraction(1), loss=Fraction(0)) if team else Scoring()
    return Scoring(
        win=values.get("W", base.win),
        draw=values.get("D", base.draw),
        loss=values.get("L", base.loss),
        absence=values.get("A", base.absence),
        pab=values.get("P"),
        unknown=values.get("X"),
    )


def write_scoring(tag: str, scoring: Scoring) -> str:
    pairs = [("W", scoring.win), ("D", scoring.draw), ("L", scoring.loss), ("A", scoring.absence)]
    if scoring.pab is not None:
        pairs.append(("P", scoring.pab))
    if scoring.unknown is not None:
        pairs.append(("X", scoring.unknown))
    return tag + " " + "".join(f" {code}{fmt_points(value, 'score'):>4}   " for code, value in pairs).rstrip()


def points_of(code: str, scoring: Scoring) -> Fraction:
    key = SCORE_KEY[code]
    return {
        "W": scoring.win,
        "D": scoring.draw,
        "L": scoring.loss,
        "A": scoring.absence,
        "P": scoring.pab_points,
        "X": scoring.unknown_points,
    }[key]


def code_units(scoring: Scoring) -> tuple[dict[str, int], int]:
    """Every result code's points as an integer on the scoring's common denominator.

    Returns (units, denominator): code ``c`` is worth ``Fraction(units[c], denominator)``, so a
    player's points are one integer sum instead of a chain of Fraction additions."""
    values = {
        "W": scoring.win,
        "D": scoring.draw,
        "L": scoring.loss,
        "A": scoring.absence,
        "P": scoring.pab_points,
        "X": scoring.unknown_points,
    }
    denominator = 1
    for value in values.values():
        denominator = lcm(denominator, value.denominator)
    units = {code: values[key].numerator * (denominator // values[key].denominator) for code, key in SCORE_KEY.items()}
    return units, denominator


def is_round_robin(event_type: str, type_text: str) -> bool:
    event_type = event_type.upper()
    if any(word in event_type for word in ROUND_ROBIN_TYPES):
        return True
    if any(word in event_type for word in SWISS_TYPES):
        return False
    text = type_text.upper()
    if "SWISS" in text:
        return False
    return bool(re.search(r"\bRR\b|ROBIN|BERGER", text))
