"""Every problem of a TRF file at once, each with its line number (the import preview)."""

from __future__ import annotations

from fractions import Fraction

from tiebreaks.engine.model import RoundEntry, Scoring

from .codes import Player, TRFError, code_units, int_field, parse_date, parse_scoring_line
from .read import apply_240, check_pairings, infer_scoring, parse_player, parse_teams, records_by_tag


def trf_problems(data: bytes | str) -> list[TRFError]:
    """Every problem of a TRF file that :func:`read_trf` would refuse, each with its line number
    (None for a problem of the whole file), in line order; an empty list for a readable file.

    Where :func:`read_trf` stops at the first problem, this reads on: every header record and
    every 001 and 240 record on its own, then the checks across lines (pairings, byes per round,
    points columns, teams) for the players whose records could be read. A player record that
    cannot be read is reported once; the pairings that name it are not reported again."""
    by_tag = records_by_tag(data)
    problems: list[TRFError] = []

    def collect(check, *args, **kwargs):
        try:
            return check(*args, **kwargs)
        except TRFError as exc:
            problems.append(exc)
            return None

    def single(tag: str) -> tuple[int, str] | None:
        found = by_tag.get(tag)
        return found[-1] if found else None

    if rec := single("042"):
        collect(parse_date, rec[1][4:], rec[0], "start date")
    if rec := single("052"):
        collect(parse_date, rec[1][4:], rec[0], "end date")
    announced_rounds: int | None = None
    for tag, what in (("142", "number of rounds"), ("XXR", "number of rounds (XXR)")):
        if rec := single(tag):
            value = collect(int_field, rec[1][4:], rec[0], what)
            if value is not None:
                announced_rounds = value
    scoring: Scoring | None = None
    if rec := single("162"):
        scoring = collect(parse_scoring_line, rec[1], rec[0], team=False)
    if rec := single("362"):
        collect(parse_scoring_line, rec[1], rec[0], team=True)

    player_lines = by_tag.get("001", [])
    if not player_lines:
        problems.append(TRFError(None, "no player records (001) in the file"))
        return _in_line_order(problems)
    parsed: dict[int, Player] = {}
    unreadable: set[int] = set()  # start numbers of player records that could not be read
    blocks: dict[str, RoundEntry] = {}
    for n, line in player_lines:
        player = collect(parse_player, n, line, blocks)
        if player is None:
            number = line[4:8].strip()
            if number.isdigit():
                unreadable.add(int(number))
            continue
        number = player["start_number"]
        if number in parsed:
            problems.append(TRFError(n, f"start number {number} appears twice (also line {parsed[number]['line']})"))
            continue
        parsed[number] = player
    count = len(player_lines)
    known = set(parsed) | unreadable
    for number in range(1, count + 1):
        if number not in known and parsed:
            biggest = max(parsed)
            problems.append(
                TRFError(
                    parsed[biggest]["line"],
                    f"start numbers must run 1..{count} without gaps, but {number} is missing",
                )
            )
    for record in by_tag.get("240", []):
        collect(apply_240, [record], parsed)
    check_pairings(parsed, announced_rounds, problems=problems, unreadable=unreadable)
    # each points column depends on its own record only, so unreadable records do not matter here
    if scoring is None:
        try:
            scoring = infer_scoring(parsed)
        except TRFError as exc:
            problems.extend(_points_problems(parsed, Scoring(), _NO_SCORING_FITS) or [exc])
    if scoring is not None:
        problems.extend(_points_problems(parsed, scoring))
    collect(parse_teams, by_tag, count)
    return _in_line_order(problems)


def _in_line_order(problems: list[TRFError]) -> list[TRFError]:
    return sorted(problems, key=lambda p: (p.line_number is not None, p.line_number or 0))


_NO_SCORING_FITS = " (no record 162, and no scoring system fits every player)"


def _points_problems(parsed: dict[int, Player], scoring: Scoring, suffix: str = "") -> list[TRFError]:
    """A problem for every player whose points column differs from the points awarded."""
    units, denominator = code_units(scoring)
    problems = []
    for player in parsed.values():
        stated = player["points"]
        if stated is None:
            continue
        awarded = sum([units[e.code] for e in player["rounds"]])
        if awarded * stated.denominator != stated.numerator * denominator:
            problems.append(
                TRFError(
                    player["line"],
                    f"player {player['start_number']} has {float(stated):g} in the points column "
                    f"but the results add up to {float(Fraction(awarded, denominator)):g}{suffix}",
                )
            )
    return problems
