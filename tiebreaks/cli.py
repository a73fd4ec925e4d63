"""The engine's command line (DESIGN.md, "The engine's command line" - a contract).

    python -m tiebreaks standings FILE.trf [--rules R] [--criteria "BH/C1,BH,SB"]
                                           [--round-robin] [--unrated-rating R] [--after-round N] [--json]
    python -m tiebreaks explain   FILE.trf --player START_NO [--rules ...] [--criteria ...]
                                           [--after-round N] [--json]

Without ``--after-round`` the standings are after the last round with a pairing between two
players (a later round holding only byes entered before its pairing is not counted);
``--after-round N`` evaluates rounds 1..N. A points column that differs from the results is
reported on stderr ("warning: line N: ...") and the results decide, as in FIDE's checker.

Without ``--rules`` the rule set is the FIDE edition of the file's start date, chosen exactly as the site's
import chooses it (:func:`tiebreaks.trf.dates.file_edition`); when the file cannot say, the rules in force
(fide-2026), with a warning if it has a start date. The table's first line and the JSON's ``"edition"`` say
what the rules follow from.

Bad input exits with status 2 and one line on stderr naming the problem; nothing is printed on
stdout unless the whole result was computed. Startup stays cheap (the benchmark times the whole
process): only the standard library, the TRF reader and the engine are imported.
"""

from __future__ import annotations

import gc
import os
import re
import sys
from dataclasses import replace
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import argparse

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70


class BadInput(Exception):
    """One-line message for the user; the process exits with EXIT_BAD_INPUT."""


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` without importing shutil (and the compression
    modules it pulls in) on every run: argparse asks for it each time it builds a formatter."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns


def _build_parser() -> argparse.ArgumentParser:
    import argparse

    class _Formatter(argparse.HelpFormatter):
        def __init__(
            self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
        ) -> None:
            if width is None:
                width = _terminal_columns() - 2
            super().__init__(prog, indent_increment, max_help_position, width)

    class _Parser(argparse.ArgumentParser):
        """argparse that reports a usage error on one line (no usage block)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("formatter_class", _Formatter)
            super().__init__(*args, **kwargs)

        def error(self, message: str) -> NoReturn:
            raise BadInput(message)

    parser = _Parser(prog="python -m tiebreaks", description="FIDE tie-breaks for a TRF file.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("file", metavar="FILE.trf", help="TRF-16 or TRF-2026 file (UTF-8 or Latin-1)")
        sub.add_argument(
            "--rules",
            help="rule set (default: the FIDE edition of the file's start date, as the site's import chooses it; "
            "fide-2026 when the file cannot say)",
        )
        sub.add_argument(
            "--criteria",
            help='tie-break list, comma-separated, e.g. "BH/C1,BH,SB" (default: the file\'s 202/212 '
            "list, else the recommended list for the event type)",
        )
        sub.add_argument("--round-robin", action="store_true", help="pre-determined pairings (Art. 15.2)")
        sub.add_argument(
            "--ratings-per-round",
            action="store_true",
            help="rating-based criteria read each opponent's rating in the round they met, from the file's "
            "'### rating from round' lines (default: the first rating, FIDE's rule, unless the file says so)",
        )
        sub.add_argument(
            "--unrated-rating",
            type=int,
            metavar="R",
            help="rating announced for unrated players (Art. 10)",
        )
        sub.add_argument(
            "--after-round",
            type=int,
            metavar="N",
            help="standings after round N (default: the last round with a pairing)",
        )
        sub.add_argument("--json", action="store_true", help="machine-readable output")

    standings = commands.add_parser("standings", help="ranked table with every tie-break value")
    common(standings)
    explain = commands.add_parser("explain", help="how each tie-break of one player was computed")
    common(explain)
    explain.add_argument("--player", type=int, required=True, metavar="START_NO", help="start number")
    return parser


_FLAGS = {"--json": "json", "--round-robin": "round_robin", "--ratings-per-round": "ratings_per_round"}
_VALUES = {
    "--rules": "rules",
    "--criteria": "criteria",
    "--unrated-rating": "unrated_rating",
    "--player": "player",
    "--after-round": "after_round",
}
_INTEGERS = frozenset({"unrated_rating", "player", "after_round"})


def _parse_simple(argv: list[str]) -> SimpleNamespace | None:
    """The arguments argparse would produce for the plain spellings (``COMMAND FILE`` and
    ``--option value`` with exact option names, each at most once, no value starting with "-",
    plain decimal integers), else None: then argparse parses (and reports any error) itself.
    Saves importing and building argparse on every ordinary run."""
    if not argv or argv[0] not in ("standings", "explain"):
        return None
    command = argv[0]
    values: dict[str, Any] = {
        "command": command,
        "file": None,
        "rules": None,
        "criteria": None,
        "round_robin": False,
        "ratings_per_round": False,
        "unrated_rating": None,
        "after_round": None,
        "json": False,
    }
    seen: set[str] = set()
    i, n = 1, len(argv)
    while i < n:
        token = argv[i]
        if not token:
            return None
        if token[0] != "-":
            if values["file"] is not None:
                return None
            values["file"] = token
            i += 1
            continue
        if token in seen:
            return None
        seen.add(token)
        if token in _FLAGS:
            values[_FLAGS[token]] = True
            i += 1
            continue
        name = _VALUES.get(token)
        if name is None or (name == "player" and command != "explain") or i + 1 >= n:
            return None
        value = argv[i + 1]
        if not value or value[0] == "-":
            return None
        if name in _INTEGERS:
            if not (value.isascii() and value.isdigit()):
                return None
            values[name] = int(value)
        else:
            values[name] = value
        i += 2
    if values["file"] is None:
        return None
    if command == "explain":
        if "player" not in values:
            return None
    return SimpleNamespace(**values)


def split_criteria(text: str) -> list[str]:
    items = [item for item in re.split(r"[,\s]+", text.strip()) if item]
    if not items:
        raise BadInput("--criteria is empty")
    return items


def _load(path: str) -> Any:
    from tiebreaks.trf import TRFError, read_trf_with_notes

    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        tournament, notes = read_trf_with_notes(data, accept_points_column=True)
    except TRFError as exc:
        raise BadInput(f"{path}: {exc}") from None
    for note in notes:
        if note.kind == "points_column_accepted":
            sys.stderr.write(f"warning: {path}: {note}\n")
    return tournament, notes


def _edition(args: Any, tournament: Any, notes: list[Any]) -> dict[str, Any]:
    """The rule set and what it follows from (the JSON's "edition"): ``--rules``; else the file's start date,
    exactly as the site's import chooses the edition (:func:`tiebreaks.trf.dates.file_edition`: FIDE 2026 from
    1 March 2026, the earlier edition before; also an ambiguous date the file's other dates settle, or whose
    readings all give one edition); else, when the file cannot say, the rules in force (fide-2026), with a
    warning if it has a start date (the site asks the organiser instead)."""
    from tiebreaks.trf.dates import file_edition

    found = file_edition(tournament, notes)
    if args.rules:
        source = "option"
    elif found.start_date:
        source = "start_date"
    elif found.rule_set:
        source = "start_date_readings"
    else:
        source = "default"
    edition: dict[str, Any] = {
        "rules": args.rules or found.rule_set or "fide-2026",
        "from": source,
        "start_date": found.start_date or None,
        "written": found.text or None,
        "readings": list(found.readings),
    }
    if source == "default" and found.text:
        reading = (
            f"is {' or '.join(found.readings)}, on either side of 1 March 2026" if found.readings else "is no date"
        )
        sys.stderr.write(
            f"warning: {args.file}: the start date {found.text!r} {reading}: fide-2026 applied (--rules chooses)\n"
        )
    return edition


def _edition_text(edition: dict[str, Any]) -> str:
    """What the rules follow from, in words (the text output's first line)."""
    rules, source, written = edition["rules"], edition["from"], edition["written"]
    if source == "option":
        return f"{rules} (--rules)"
    if source == "start_date":
        return f"{rules} (from the start date {edition['start_date']})"
    readings = " or ".join(edition["readings"])
    if source == "start_date_readings":
        return f"{rules} (the start date {written!r} is {readings}: these rules either way)"
    if readings:
        return f"{rules} (the start date {written!r} is {readings}: the rules in force; --rules chooses)"
    if written:
        return f"{rules} (the start date {written!r} is no date: the rules in force; --rules chooses)"
    return f"{rules} (the file has no start date: the rules in force)"


def _after_round(tournament: Any, rounds: int) -> Any:
    """The tournament evaluated after round ``rounds`` (1..the rounds in the file)."""
    longest = max((len(p.rounds) for p in tournament.participants), default=0)
    if not 1 <= rounds <= max(longest, 1):
        raise BadInput(f"--after-round {rounds}: the file has rounds 1..{longest}")
    return replace(tournament, rounds_computed=rounds)


def _event_type(tournament: Any) -> str:
    prefix = "team_" if tournament.teams else ""
    return prefix + ("round_robin" if tournament.round_robin else "swiss")


def run(argv: list[str]) -> str:
    """Compute what the command asks for and return the complete text for stdout."""
    args = _parse_simple(argv) or _build_parser().parse_args(argv)

    from tiebreaks import engine
    from tiebreaks.trf import apply_national_ratings, apply_round_ratings, ratings_per_round_chosen

    if args.rules is not None and args.rules not in engine.RULE_SETS:
        raise BadInput(f"unknown rule set {args.rules!r} (known: {', '.join(sorted(engine.RULE_SETS))})")
    tournament, notes = _load(args.file)
    edition = _edition(args, tournament, notes)
    args.rules = edition["rules"]
    tournament = apply_national_ratings(tournament)
    ratings_per_round = args.ratings_per_round or ratings_per_round_chosen(tournament)
    if ratings_per_round:
        tournament = apply_round_ratings(tournament)
    if args.round_robin:
        tournament = replace(tournament, round_robin=True)
    if args.after_round is not None:
        tournament = _after_round(tournament, args.after_round)

    if args.criteria is not None:
        criteria = split_criteria(args.criteria)
    elif tournament.tiebreaks:
        criteria = list(tournament.tiebreaks)
    else:
        criteria = engine.recommended_criteria(_event_type(tournament), tournament.total_rounds, rules=args.rules)
        if not tournament.teams:  # the recommendation's leading PTS is the ranking itself, not a column
            criteria = [c for c in criteria if c != "PTS"]

    if tournament.teams:
        return _run_teams(args, tournament, criteria, edition)

    if args.command == "explain" and args.player not in {p.start_number for p in tournament.participants}:
        raise BadInput(f"{args.file}: no player with start number {args.player}")

    standings = engine.compute_standings(
        tournament,
        criteria,
        rules=args.rules,
        unrated_rating=args.unrated_rating,
        ratings_per_round=ratings_per_round,
        explain=args.command == "explain",
    )
    if args.command == "standings" and args.json:
        return _with_edition(standings.to_json(), edition) + "\n"  # as _dumps(to_dict() with it), sooner
    result = standings.to_dict()

    if args.command == "standings":
        return format_table(result, edition)
    trace = _plain(standings.explain(args.player))
    row = next(r for r in result["rows"] if r.get("start_number") == args.player)
    if args.json:
        shown = {"rules": result["rules"], "edition": _edition_json(edition), "criteria": result["criteria"]}
        return _dumps({**shown, "row": row, "explain": trace})
    return format_explanation(row, result["criteria"], trace, edition)


def _edition_json(edition: dict[str, Any]) -> dict[str, Any]:
    """The JSON's "edition": what the rule set ("rules") follows from: "from" is "option" (--rules),
    "start_date", "start_date_readings" (an ambiguous start date whose readings all give these rules) or
    "default" (the file cannot say: the rules in force); the start date read ("start_date"), as written
    ("written"), and the readings of an ambiguous one ("readings")."""
    return {key: value for key, value in edition.items() if key != "rules"}


def _with_edition(text: str, edition: dict[str, Any]) -> str:
    """The standings' JSON text with "edition" after "rules" (the engine writes "rules" first), as json.dumps
    would write it (without importing json: startup stays cheap)."""
    rules = '{"rules": ' + _json_text(edition["rules"])
    if not text.startswith(rules + ", "):
        raise RuntimeError('the engine writes "rules" first')
    return f'{rules}, "edition": {_json_text(_edition_json(edition))}{text[len(rules) :]}'


def _json_text(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)`` of strings, None, lists and dicts of them."""
    try:
        from _json import encode_basestring
    except ImportError:  # pragma: no cover - CPython always has the accelerator
        from json.encoder import encode_basestring
    if value is None:
        return "null"
    if isinstance(value, str):
        return encode_basestring(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(_json_text, value)) + "]"
    return "{" + ", ".join(f"{_json_text(key)}: {_json_text(item)}" for key, item in value.items()) + "}"


def _run_teams(args: Any, tournament: Any, criteria: list[str], edition: dict[str, Any]) -> str:
    """A file with team records ranks the teams (DESIGN.md): rows carry ``team_number``;
    ``explain --player N`` explains team N. The primary score comes from record 192 (MP by default)."""
    from tiebreaks.engine.team import compute_team_standings, primary_from_event_type

    standings = compute_team_standings(
        tournament,
        criteria,
        rules=args.rules,
        explain=args.command == "explain",
        primary=primary_from_event_type(tournament.event_type),
    )
    result = standings.to_dict()
    result = {"rules": result.pop("rules"), "edition": _edition_json(edition)} | result
    if args.command == "standings":
        return _dumps(result) if args.json else format_table(result, edition)
    row = next((r for r in result["rows"] if r["team_number"] == args.player), None)
    if row is None:
        raise BadInput(f"{args.file}: no team with number {args.player} (explain --player takes a team number)")
    trace = _plain(standings.explain(args.player))
    if args.json:
        shown = {key: result[key] for key in ("rules", "edition", "criteria")}
        return _dumps({**shown, "row": row, "explain": trace})
    text = format_explanation({**row, "start_number": row["team_number"]}, result["criteria"], trace, edition)
    return text.replace("(start number ", "(team number ", 1)


def _dumps(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, indent=None) + "\n"


def _plain(value: Any) -> Any:
    """Traces and other engine objects as JSON-ready data (they offer to_dict())."""
    if hasattr(value, "to_dict"):
        return _plain(value.to_dict())
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    try:  # Fraction, Decimal
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return int(number) if number.is_integer() else round(number, 4)


def fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return text if text != "-0" else "0"
    return str(value)


def format_table(result: dict[str, Any], edition: dict[str, Any] | None = None) -> str:
    criteria = [c for c in result["criteria"] if c != "PTS"]
    team = any("team_number" in row for row in result["rows"])
    header = ["Rank", "Team" if team else "SNo", "Name", "Pts", *criteria]
    body = [
        [
            str(row["rank"]),
            str(row.get("team_number", row.get("start_number", ""))),
            str(row["name"]),
            fmt(row["points"]),
            *(fmt(row["values"].get(c)) for c in criteria),
        ]
        for row in result["rows"]
    ]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]

    def render(line: list[str]) -> str:
        cells = [
            cell.ljust(w) if i == 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    rules = _edition_text(edition) if edition else result["rules"]
    lines = [f"Rules: {rules}    Tie-breaks: {', '.join(result['criteria'])}", ""]
    lines.append(render(header))
    lines.append("  ".join("-" * w for w in widths))
    lines.extend(render(line) for line in body)
    return "\n".join(lines) + "\n"


def format_explanation(
    row: dict[str, Any], criteria: list[str], trace: Any, edition: dict[str, Any] | None = None
) -> str:
    lines = [
        f"{row['name']} (start number {row['start_number']}): rank {row['rank']}, {fmt(row['points'])} points",
        *([f"Rules: {_edition_text(edition)}"] if edition else []),
        "",
    ]
    traces = trace
    if isinstance(trace, dict) and "criterion" not in trace:
        traces = [
            dict(v, criterion=v.get("criterion", k)) if isinstance(v, dict) else {"criterion": k, "value": v}
            for k, v in trace.items()
        ]
    if not isinstance(traces, list):
        traces = [traces]
    for item in traces:
        if not isinstance(item, dict) or "criterion" not in item:
            lines.append(f"  {item}")
            continue
        lines.append(f"{item['criterion']} = {fmt(item.get('value'))}")
        for element in item.get("elements") or []:
            lines.append("    " + _element_line(element))
        arithmetic = []
        if item.get("terms"):
            arithmetic.append(" + ".join(fmt(t) for t in item["terms"]) + f" = {fmt(item.get('total'))}")
        if item.get("divisor"):
            arithmetic.append(f"/ {item['divisor']}")
        if item.get("rounding"):
            arithmetic.append(f"(rounded {item['rounding']})")
        if arithmetic:
            lines.append("    " + " ".join(arithmetic))
        if item.get("reason"):
            lines.append(f"    note: {item['reason']}")
        for key, value in (item.get("details") or {}).items():
            lines.append(f"    {key}: {fmt(value) if not isinstance(value, dict | list) else value}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _element_line(element: Any) -> str:
    if not isinstance(element, dict):
        return str(element)
    where = f"R{element['round']}" if element.get("round") is not None else "  "
    if element.get("dummy"):
        who = "dummy"
    elif element.get("opponent") is not None:
        who = f"vs {element['opponent']}"
    else:
        who = ""
    parts = [f"{where:>3} {who:<7}"]
    if element.get("value") is not None:
        parts.append(f"value {fmt(element['value'])}")
    if element.get("points") is not None:
        parts.append(f"points {fmt(element['points'])}")
    parts.append(f"adds {fmt(element.get('contribution'))}")
    extra = ", ".join(str(element[k]) for k in ("reason", "article") if element.get(k))
    if extra:
        parts.append(f"({extra})")
    if element.get("vur"):
        parts.append("[VUR]")
    if element.get("removed"):
        parts.append(f"[cut: {element['removed']}]")
    return "  ".join(parts)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if any(a in ("-h", "--help") for a in argv):
        _build_parser().parse_args(argv)  # prints help and exits 0
    # one short computation that allocates many small objects and frees almost nothing until it
    # ends: the cyclic garbage collector would only re-scan them (a tenth of the run time)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _main(argv)
    finally:
        if collecting:
            gc.enable()


def _main(argv: list[str]) -> int:
    try:
        try:
            output = run(argv)
        except BadInput:
            raise
        except Exception as exc:  # engine errors, bad values
            from tiebreaks.engine import EngineError

            if isinstance(exc, EngineError):
                raise BadInput(" ".join(str(exc).split()) or type(exc).__name__) from None
            raise
    except BadInput as exc:
        sys.stderr.write(f"error: {' '.join(str(exc).split())}\n")
        return EXIT_BAD_INPUT
    except Exception as exc:  # a bug: still one line, never a partial table
        sys.stderr.write(f"internal error: {type(exc).__name__}: {' '.join(str(exc).split())}\n")
        return EXIT_INTERNAL
    sys.stdout.write(output)
    return 0
