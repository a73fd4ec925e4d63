"""The pairing command line (DESIGN.md, "The pairing command line").

    python -m pairings next FILE.trf [--system dutch|berger] [--json]
    python -m pairings check FILE.trf [--system dutch|berger] [--json]

Bad input exits with status 2 and one line on standard error; nothing is paired. ``check`` exits
with status 1 when a recorded round differs from the engine's.
"""

from __future__ import annotations

import argparse
import json
import sys

from .checker import check_event
from .engine import pair_round
from .model import PairingError, RoundPairing, System
from .trf import read_event

SYSTEMS = {"dutch": System.DUTCH, "berger": System.BERGER}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pairings", description="FIDE pairings of a TRF file")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("next", "pair the round after the last one with games"), ("check", "replay every round")):
        command = commands.add_parser(name, help=text)
        command.add_argument("file", metavar="FILE.trf")
        command.add_argument("--system", choices=sorted(SYSTEMS), help="default: the file's (record 192), else dutch")
        command.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    try:
        with open(args.file, "rb") as handle:
            data = handle.read()
        event = read_event(data, SYSTEMS[args.system] if args.system else None)
        if args.command == "next":
            result = pair_round(event.state(event.last_round_with_games + 1), event.system)
            print(json.dumps(result.to_json()) if args.json else _text(result))
            return 0
        checks = check_event(event)
    except (OSError, PairingError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        print(f"error: {message}", file=sys.stderr)
        return 2
    differing = [c for c in checks if not c.same]
    if args.json:
        print(json.dumps({"system": str(event.system), "rounds": [c.to_json() for c in checks]}))
    else:
        for c in checks:
            if c.same:
                print(f"round {c.round}: same as the engine's")
            else:
                engine = c.problem or _pairs_text(c.engine)
                print(f"round {c.round}: differs\n  recorded: {_pairs_text(c.recorded)}\n  engine:   {engine}")
        print(f"{len(differing)} of {len(checks)} rounds differ")
    return 1 if differing else 0


def _pairs_text(pairs: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{w} bye" if b == 0 else f"{w}-{abs(b)}" for w, b in sorted(pairs, key=lambda p: (p[1] == 0, p)))


def _text(result: RoundPairing) -> str:
    lines = [f"Round {result.round} ({result.system})"]
    lines += [f"Board {b.number:3d}: {b.white:4d} - {b.black:4d}" for b in result.boards]
    lines += [f"Bye: {b.start_number} ({b.type})" for b in result.byes]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
