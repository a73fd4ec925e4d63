"""A file's dates: an ambiguous start or end date the file's other dates settle, and the FIDE rule edition
its start date gives (the site's import and the command line choose the edition with :func:`file_edition`).

A date written ``11.09.26`` or ``08/04/2018`` has two readings (:func:`.codes.parse_date`). The file often
says which one it is: an event does not start after it ends (record 052) nor after one of its rounds (the
round dates of record 132, which follow each other), and does not end before them. A reading those dates
rule out is dropped; when one reading is left, the date is read so (a ``date_settled`` note says why). When
the start date keeps both readings and both fall on the same side of 1 March 2026, the edition is decided
all the same; only when they fall on either side (or the date is unreadable or missing) must someone choose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tiebreaks.engine.rules import fide_edition_for

from .codes import TRFNote, parse_date

if TYPE_CHECKING:
    from tiebreaks.engine.model import Tournament

#: why the other reading of a date cannot be: the record that rules it out
SETTLED_BY = {
    "end_date": "is after the end date",
    "start_date": "is before the start date",
    "round_dates": "does not fit the dates of the rounds (record 132)",
}


def round_dates(line: str) -> list[tuple[str, ...]]:
    """The readings of each round date of a 132 record, in round order (blank and unreadable ones left out)."""
    fields = re.split(r"\s{2,}", line[3:].strip())
    return [readings for readings in map(parse_date, fields) if readings]


def _last_round(start: str, rounds: list[tuple[str, ...]]) -> str | None:
    """The earliest date the last round can have when the event starts on `start` ("" for unknown) and each
    round is on or after the one before; None when some round has no reading that can follow."""
    last = start
    for readings in rounds:
        later = [reading for reading in readings if reading >= last]
        if not later:
            return None
        last = min(later)
    return last


def settle_dates(
    start: tuple[str, ...], end: tuple[str, ...], rounds: list[tuple[str, ...]]
) -> dict[str, tuple[str, str, str]]:
    """The start (``"042"``) and end (``"052"``) dates the file's dates settle, as {record: (reading, the other
    reading, what rules it out: a key of SETTLED_BY)}, from the readings of the start date, of the end date
    (one each for a clear date, none for a missing one) and of the round dates. Dates that contradict each
    other settle nothing."""
    if _last_round("", rounds) is None:  # round dates out of order: they say nothing
        rounds = []

    def fits(reading: str) -> bool:
        last = _last_round(reading, rounds)
        return last is not None and (not end or any(e >= last for e in end))

    settled: dict[str, tuple[str, str, str]] = {}
    starts = tuple(s for s in start if fits(s))
    if start and not starts:
        return settled
    if len(start) == 2 and len(starts) == 1:
        other = next(s for s in start if s != starts[0])
        by = "end_date" if end and all(e < other for e in end) else "round_dates"
        settled["042"] = (starts[0], other, by)
    lows = [low for s in starts or ("",) if (low := _last_round(s, rounds)) is not None]
    ends = tuple(e for e in end if lows and e >= min(lows))
    if len(end) == 2 and len(ends) == 1:
        other = next(e for e in end if e != ends[0])
        by = "start_date" if starts and all(other < s for s in starts) else "round_dates"
        settled["052"] = (ends[0], other, by)
    return settled


def settled_note(note: TRFNote, reading: str, other: str, by: str) -> TRFNote:
    """The note of an ambiguous date (``date_ambiguous``) the file's dates settle."""
    what = "start date" if note.params["record"] == "042" else "end date"
    text = note.params["text"]
    return TRFNote(
        note.line_number,
        "date_settled",
        f"the {what} {text!r} is read as {reading}: its other reading, {other}, {SETTLED_BY[by]}",
        (reading,),
        {"record": note.params["record"], "text": text, "date": reading, "other": other, "by": by},
    )


@dataclass(frozen=True)
class FileEdition:
    """The FIDE rule edition a file's start date gives (C.07 of 2026 from 1 March 2026, the earlier edition
    before): `rule_set` "" when the file cannot say (no start date, one that is not a date, or readings on
    either side of 1 March 2026)."""

    rule_set: str
    start_date: str = ""  # ISO, "" when unknown (also when both readings give the edition)
    text: str = ""  # the start date as the file writes it, when not a clear date ("" a clear one, or none)
    readings: tuple[str, ...] = ()  # the readings of a start date still ambiguous


def file_edition(tournament: Tournament, notes: list[TRFNote]) -> FileEdition:
    """The rule edition of the file read as `tournament` with `notes` (:func:`.read.read_trf_with_notes`)."""
    note = next((n for n in notes if n.kind.startswith("date_") and n.params.get("record") == "042"), None)
    text = note.params["text"] if note else ""
    if tournament.start_date:
        return FileEdition(fide_edition_for(tournament.start_date), tournament.start_date, text)
    readings = tuple(note.params.get("readings", ())) if note else ()
    editions = {fide_edition_for(reading) for reading in readings}
    return FileEdition(editions.pop() if len(editions) == 1 else "", "", text, readings)
