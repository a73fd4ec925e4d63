"""The pairing command line (DESIGN.md, "The pairing command line").

    python -m pairings next FILE.trf [--system dutch|berger|team] [--json]
    python -m pairings check FILE.trf [--system dutch|berger] [--criteria LIST] [--rules R] [--json]
    python -m pairings generate --players N --rounds R [--seed S] [--baku] [--zpb RATE] [--hpb RATE]
                                [--forfeits RATE] [--criteria LIST] [-o FILE.trf]

Bad input exits with status 2 and one line on standard error; nothing is paired. ``check`` exits
with status 1 when a recorded round differs from the engine's or the file's ranking does not follow
its tie-break list. ``next`` pairs a TRF-26 team file (310 records) as a team Swiss (FIDE C.04.6).
"""

from __future__ import annotations

import argparse
import json
import sys

from tiebreaks.trf.write import encode_trf

from .checker import StandingsCheck, check_event, check_standings
from .engine import pair_round
from .generator import TournamentPlan, generate
from .model import PairingError, RoundPairing, System
from .trf import read_event

SYSTEMS = {"dutch": System.DUTCH, "berger": System.BERGER, "team": System.TEAM_SWISS}


def _criteria(text: str | None) -> list[str] | None:
    return [c for c in text.replace(" ", ",").split(",") if c and c != "PTS"] if text else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pairings", description="FIDE pairings of a TRF file")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("next", "pair the round after the last one with games"), ("check", "replay every round")):
        command = commands.add_parser(name, help=text)
        command.add_argument("file", metavar="FILE.trf")
        command.add_argument("--system", choices=sorted(SYSTEMS), help="default: the file's (record 192), else dutch")
        command.add_argument("--json", action="store_true", help="print JSON")
        if name == "check":
            command.add_argument("--criteria", help="the tie-break list (default: the file's 202/212 records)")
            command.add_argument("--rules", help="the tie-break rule set (default: the edition of the file's date)")
    generator = commands.add_parser("generate", help="a random tournament paired by the engine, as TRF-2026")
    generator.add_argument("--players", type=int, required=True)
    generator.add_argument("--rounds", type=int, required=True)
    generator.add_argument("--seed", type=int, default=1)
    generator.add_argument("--baku", action="store_true", help="Baku acceleration")
    for rate, text in (("zpb", "absences announced"), ("hpb", "half-point byes asked"), ("forfeits", "forfeits")):
        generator.add_argument(f"--{rate}", type=float, default=0.0, help=f"rate of {text}, 0..1")
    generator.add_argument("--criteria", help="the tie-break list (default: FIDE's recommended one)")
    generator.add_argument("-o", "--output", metavar="FILE.trf", help="default: standard output")
    args = parser.parse_args(argv)
    try:
        if args.command == "generate":
            return _generate(args)
        with open(args.file, "rb") as handle:
            data = handle.read()
        event = read_event(data, SYSTEMS[args.system] if args.system else None)
        if args.command == "next":
            number = event.last_round_with_games + 1
            state = event.team_state(number) if event.system is System.TEAM_SWISS else event.state(number)
            result = pair_round(state, event.system)
            print(json.dumps(result.to_json()) if args.json else _text(result))
            return 0
        if event.system is System.TEAM_SWISS:
            raise PairingError("check replays individual tournaments; a team file's next round is paired with next")
        checks = check_event(event)
        standings = check_standings(event.tournament, _criteria(args.criteria), args.rules or _edition(data))
    except (OSError, PairingError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        print(f"error: {message}", file=sys.stderr)
        return 2
    differing = [c for c in checks if not c.same]
    if args.json:
        rounds = [c.to_json() for c in checks]
        ranking = standings.to_json() if standings else None
        print(json.dumps({"system": str(event.system), "rounds": rounds, "standings": ranking}))
    else:
        for c in checks:
            if c.same:
                print(f"round {c.round}: same as the engine's")
            else:
                engine = c.problem or _pairs_text(c.engine)
                print(f"round {c.round}: differs\n  recorded: {_pairs_text(c.recorded)}\n  engine:   {engine}")
        print(f"{len(differing)} of {len(checks)} rounds differ")
        print(_standings_text(standings))
    return 1 if differing or (standings and not standings.follows) else 0


def _edition(data: bytes) -> str:
    """The FIDE edition of the file's start date, chosen as the tiebreak command line and the site choose it."""
    from tiebreaks.trf.dates import file_edition
    from tiebreaks.trf.read import read_trf_with_notes

    tournament, notes = read_trf_with_notes(data)
    return file_edition(tournament, notes).rule_set or "fide-2026"


def _generate(args: argparse.Namespace) -> int:
    plan = TournamentPlan(
        players=args.players,
        rounds=args.rounds,
        seed=args.seed,
        baku=args.baku,
        zpb=args.zpb,
        hpb=args.hpb,
        forfeits=args.forfeits,
        criteria=tuple(_criteria(args.criteria) or ()),
    )
    data = encode_trf(generate(plan))
    if args.output:
        with open(args.output, "wb") as handle:
            handle.write(data)
    else:
        sys.stdout.buffer.write(data)
    return 0


def _pairs_text(pairs: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{w} bye" if b == 0 else f"{w}-{abs(b)}" for w, b in sorted(pairs, key=lambda p: (p[1] == 0, p)))


def _standings_text(check: StandingsCheck | None) -> str:
    if check is None:
        return "standings not checked: the file has no tie-break list (record 202 or 212; or give --criteria)"
    head = f"standings ({check.ranked_by}) by PTS, {', '.join(check.criteria)} under {check.rules}: "
    if check.follows:
        return head + "follow the tie-break list"
    lines = [head + f"{len(check.differences)} players placed against the tie-break list"]
    for d in check.differences:
        places = str(d.ranks[0]) if d.ranks[0] == d.ranks[1] else f"{d.ranks[0]}-{d.ranks[1]}"
        values = ", ".join(f"{code} {'-' if v is None else float(v):g}" for code, v in d.values.items())
        lines.append(f"  {d.start_number} {d.name}: {d.file_rank} in the file, {places} by the list ({values})")
    return "\n".join(lines)


def _text(result: RoundPairing) -> str:
    lines = [f"Round {result.round} ({result.system})"]
    lines += [f"Board {b.number:3d}: {b.white:4d} - {b.black:4d}" for b in result.boards]
    lines += [f"Bye: {b.start_number} ({b.type})" for b in result.byes]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
