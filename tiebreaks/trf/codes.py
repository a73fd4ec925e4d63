"""TRF vocabulary: result codes, the record order, scoring records (162/362 and JaVaFo's BBx),
number and date fields, the error every part of the reader raises and the notes it keeps."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any

from tiebreaks.engine.model import Scoring


class TRFError(ValueError):
    """A TRF file that cannot be imported; ``str()`` is "line N: problem".

    ``kind`` names problems an organiser may overrule: ``"points_column"`` (a points column that
    differs from the results; :func:`~tiebreaks.trf.read_trf` with ``accept_points_column``)."""

    def __init__(
        self, line_number: int | None, message: str, kind: str = "", params: dict[str, Any] | None = None
    ) -> None:
        self.line_number = line_number
        self.message = message
        self.kind = kind
        self.params = params or {}  # the message's values, for a translated sentence of the same kind
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line_number is None:
            return self.message
        return f"line {self.line_number}: {self.message}"


@dataclass(frozen=True)
class TRFNote:
    """How the reader understood something a real exporter wrote (for the import preview).

    ``kind``: ``date_unreadable``, ``date_ambiguous`` (``readings`` holds the candidate ISO
    dates), ``unpaired_result`` (a result without an opponent, read as the bye it stands for),
    ``bye_from_points_column`` (a blank result whose value the points column gives),
    ``points_column_pre_entered_byes``, ``points_column_ignored``, ``points_column_accepted``,
    ``team_byes`` (record 240 in a team file names teams), ``mid_event``, ``forfeit_without_colour``
    (a forfeit between two players, colour ``-``), ``records_kept`` (records the model does not
    hold, written back on export). ``params`` holds the message's values (the site writes its
    own translated sentence for each kind)."""

    line_number: int | None
    kind: str
    message: str
    readings: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __str__(self) -> str:
        return self.message if self.line_number is None else f"line {self.line_number}: {self.message}"


# --- codes (§4) ---------------------------------------------------------------------------

#: codes of a game against an opponent; written without one (``0000 - +``, as Swiss-Manager,
#: Swiss-Chess, lichess and the ICU exporter do) they stand for the bye of the same value:
#: + 1 W an unplayed win (full-point bye), = D X ? a half-point bye, - 0 L a zero-point absence
#: (FIDE's checker reads them so; so does the engine's crosstable)
GAME_CODES = frozenset("1=0WDLX?+-")
#: codes without an opponent (opponent 0000 or blank, colour "-" or blank)
BYE_CODES = frozenset("FHUZA ")
#: a game code written without an opponent -> the bye code of the same value
UNPAIRED_AS_BYE = {"+": "F", "1": "F", "W": "F", "=": "H", "D": "H", "X": "H", "?": "H", "-": "Z", "0": "Z", "L": "Z"}
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
    " ": " ",  # a game paired but not played yet: no result on either side
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
#: records of TRF-2026 (not in TRF-16): left out of a TRF-16 export
TRF26_ONLY = frozenset({"142", "152", "162", "172", "182", "192", "202", "212", "222", "240", "250",
                        "260", "299", "300", "310", "320", "330", "352", "362", "801", "802"})  # fmt: skip
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


_MONTHS = {
    m: i for i, m in enumerate(("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"), 1)
}
_NUMERIC_DATE = re.compile(r"(\d{1,4})\s*([./-])\s*(\d{1,2})\s*\2\s*(\d{1,4})\.?")
#: compiled on first use (re's cache): most files write their dates in numbers
_NAMED_DATE = r"(?:(\d{1,2})[ .-]*([A-Z]{3})[A-Z]*\.?[ .-]*(\d{4})|([A-Z]{3})[A-Z]*\.?\s*(\d{1,2}),?\s*(\d{4}))"


def _iso(year: int, month: int, day: int) -> str | None:
    if year < 100:
        year += 2000
    if not (1 <= month <= 12 and 1 <= day <= 31) or year < 1000:
        return None
    if (
        day
        > (31, 29 if year % 4 == 0 and (year % 100 or year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[
            month - 1
        ]
    ):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def parse_date(text: str) -> tuple[str, ...]:
    """Every reading of a date as real exporters write it (``2026/06/01``, ``2026-06-01``,
    ``01.06.2026``, ``28. 07. 2005``, ``24/09/2010``, ``10.09.13``, ``May 29, 2020``, ...) as ISO
    dates: one reading, several (ambiguous: ``10.09.13`` is 2010-09-13 or 2013-09-10), or none
    (blank or not a date). A four-digit year first is Y-M-D; last with dots D.M.Y, with slashes
    or hyphens D/M/Y or M/D/Y; two-digit years with slashes are YY/MM/DD (the TRF round-date
    format, as FIDE's checker reads them), with dots or hyphens Y.M.D or D.M.Y."""
    text = text.strip().upper()
    if not text:
        return ()
    match = _NUMERIC_DATE.fullmatch(text.split(" ", 1)[0] if text[:4].isdigit() and len(text) > 10 else text)
    if match:
        first, separator, middle, last = match.groups()
        a, b, c = int(first), int(middle), int(last)
        if len(first) == 4:
            orders = [(a, b, c)]
        elif len(last) == 4:
            orders = [(c, b, a)] if separator == "." else [(c, b, a), (c, a, b)]
        elif separator == "/":
            orders = [(a, b, c)]  # YY/MM/DD, the TRF round-date format (FIDE's checker reads it so)
        else:
            orders = [(a, b, c), (c, b, a)]
        readings = [iso for iso in (_iso(*order) for order in orders) if iso]
        return tuple(dict.fromkeys(readings))
    match = re.fullmatch(_NAMED_DATE, text)
    if match:
        day, month, year = (match.group(1), match.group(2), match.group(3)) if match.group(1) else match.group(5, 4, 6)
        iso = _iso(int(year), _MONTHS.get(month, 0), int(day))
        return (iso,) if iso else ()
    return ()


def parse_birth(text: str, *, this_year: int) -> tuple[int | None, str]:
    """A 001 birth field (columns 70-79) as (year, ISO date): the date only when the day is known and not
    ambiguous, the year alone when only it is (``2011``, ``1975.  .``, ``1990/00/00``), (None, "") when
    neither is. Forms: ``1990/11/30`` (TRF), ``1969.12.06``, ``1990-11-30``, ``30.11.1990`` (day first with
    dots), ``30/11/1990`` (day first unless only month first is a date; both: year only), six digits
    ``120242`` (DDMMYY, else YYMMDD; a two-digit year is the latest one not after `this_year`)."""
    text = text.strip()
    if len(text) == 6 and text.isdigit():
        a, b, c = int(text[:2]), int(text[2:4]), int(text[4:])
        readings = {iso for iso in (_iso(_century(c, this_year), b, a), _iso(_century(a, this_year), b, c)) if iso}
        if len(readings) == 1:
            iso = readings.pop()
            return int(iso[:4]), iso
        return None, ""
    parts = [part.strip() for part in re.split(r"[./-]", text)]
    numbers = [int(part) if part.isdigit() else 0 for part in parts]
    if len(parts[0]) == 4 and parts[0].isdigit():  # year first
        year = numbers[0]
        if not 1850 <= year <= this_year:
            return None, ""
        ymd = _iso(year, numbers[1], numbers[2]) if len(numbers) == 3 else None
        return year, ymd or ""
    if len(parts) == 3 and len(parts[2]) == 4 and parts[2].isdigit():  # year last
        year = numbers[2]
        if not 1850 <= year <= this_year:
            return None, ""
        day_first = _iso(year, numbers[1], numbers[0])
        dots = re.search(r"[./-]", text).group() == "."  # type: ignore[union-attr]
        month_first = None if dots else _iso(year, numbers[0], numbers[1])
        readings = {iso for iso in (day_first, month_first) if iso}
        return year, readings.pop() if len(readings) == 1 else ""
    return None, ""


def _century(two_digits: int, this_year: int) -> int:
    year = this_year - this_year % 100 + two_digits
    return year if year <= this_year else year - 100


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
        if number is None:
            raise RuntimeError("a scoring value that reads is a number")
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
