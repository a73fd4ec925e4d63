"""FIDE's own checkers (gacrux, FIDE TEC's reference implementation: MIT, (c) FIDE) run on a TRF file in
this process: the pairing checker replays every round of the file with FIDE's engine, and the tie-break
checker computes each listed tie-break as FIDE's tool does. Pure Python, nothing from Django: the site's
worker runs them on an event's own TRF export (leagues/services/fide_check.py), and so do the tests and
``scripts/check-fide``.

Each checker runs as its command line would (``python -m gacrux.pairingchecker -c``, ``python -m
gacrux.tiebreakchecker -t ... -n R``), its arguments parsed by its own parser, the file handed over as
text; a file a checker refuses raises :class:`FideToolRefused` with the checker's own message.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["FideToolRefused", "RoundCheck", "fide_pairing_check", "fide_rules_version", "fide_tiebreaks"]


class FideToolRefused(Exception):
    """A FIDE checker could not read the file; ``str()`` is its own message."""


@dataclass(frozen=True)
class RoundCheck:
    """One round as the file has it and as FIDE's engine pairs it: (white, black), black 0 = the PAB."""

    round: int
    file: tuple[tuple[int, int], ...]
    fide: tuple[tuple[int, int], ...]

    @property
    def same(self) -> bool:
        return self.file == self.fide


def _run(checker: Any, args: list[str], trf_text: str) -> Any:
    """The checker's stages as its command line runs them, the arguments given, the file as text."""
    parse = checker.parser.parse_args
    checker.parser.parse_args = lambda *_ignored: parse(args)
    checker.do_command(checker.read_command_line, 500, "Bad command line")
    checker.params["jch"] = trf_text  # the checkers' own way to hand a file over without a path
    checker.do_command(checker.read_input_file, 502, "Error when reading the file")
    checker.do_command(checker.prepare_tournament, 501, "Invalid tournament number")
    checker.do_command(checker.do_checker, 481, "Program error")
    checker.do_command(checker.apply_result, 482, "Program error")
    status = checker.resultjson["status"]
    if checker.exit or status["code"] >= 400 or checker.chessfile.chessjson["status"]["code"] >= 400:
        errors = status.get("error", []) or checker.chessfile.chessjson["status"].get("error", [])
        raise FideToolRefused("; ".join(map(str, errors)) or f"status {status['code']}")
    return checker.chessfile.result


def fide_pairing_check(trf_text: str, round_number: int | None = None) -> list[RoundCheck]:
    """Every paired round of the file (or only ``round_number``) next to FIDE's pairing of it (Dutch, or
    Berger for a round robin)."""
    from gacrux.pairingchecker import pairingchecker

    only = ["-n", str(round_number)] if round_number else []
    result = _run(pairingchecker(), ["-c", *only, "-b", "utf-8"], trf_text)
    return [
        RoundCheck(
            round=int(checked["round"]),
            file=tuple((int(w), int(b)) for w, b in checked["current"]),
            fide=tuple((int(w), int(b)) for w, b in checked["pairs"]),
        )
        for checked in result.get("roundpairing", [])
    ]


def fide_rules_version(rule_set: str) -> str | None:
    """The checker's rule edition (``/V2026``) for one of our FIDE rule sets; None: not FIDE's rules."""
    return {"fide-2026": "V2026", "fide-2023": "V2024"}.get(rule_set)


def fide_tiebreaks(
    trf_text: str, criteria: list[str], *, rounds: int, rule_set: str = "fide-2026", round_robin: bool = False
) -> dict[int, list[Fraction | None]]:
    """{start number (team number in a team file): [value of each criterion]} as FIDE's tie-break checker
    computes them after ``rounds`` rounds (None: the checker gives no value)."""
    from gacrux.tiebreakchecker import tiebreakchecker

    version = fide_rules_version(rule_set) or "V2026"
    args = ["-t", *(f"{c}/{version}" for c in criteria), "-p" if round_robin else "-s", "-n", str(rounds)]
    result = _run(tiebreakchecker(), [*args, "-b", "utf-8"], trf_text)
    return {
        int(row["cid"]): [None if v is None else Fraction(str(v)) for v in row["tiebreakScore"]]
        for row in result.get("competitors", [])
    }
