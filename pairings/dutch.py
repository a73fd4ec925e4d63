"""FIDE Dutch (C.04.3, 2026) through gacrux, FIDE TEC's reference implementation (MIT, (c) FIDE).

gacrux pairs a tournament held in its own in-memory form, the dict its TRF reader makes of a file.
:func:`gacrux_tournament` builds that dict straight from the event's state (only what the pairing
needs: ratings, round blocks, the round's pre-entered byes, the initial colour, the scoring with the
PAB value, Baku virtual points, forbidden pairs) and :func:`dutch_pairs` asks gacrux's Dutch engine
for the round; gacrux's board order is FIDE's (C.04.2).

The long way stays as the tests' oracle: :func:`gacrux_trf` writes the state as TRF (record 152
initial colour, 162 scoring with the PAB value, 250 Baku virtual points, 260 forbidden pairs) and
:func:`gacrux_pairs` hands the text to gacrux's own reader, which is quadratic in the games of the
event, before the same engine. Both give the same round. Nothing outside this module knows
gacrux's shapes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from functools import cache
from math import ceil
from typing import Any

from tiebreaks.trf.codes import code_units, fmt_points, write_scoring

from .model import BakuAcceleration, PairingError, PairingState, RoundEntry

__all__ = ["baku_records", "dutch_pairs", "gacrux_pairs", "gacrux_read", "gacrux_tournament", "gacrux_trf"]

#: a block with no game: the engine reads blank and "A" as absences, like "Z"
_ABSENT = frozenset(" A")
#: the system both ways name (record 192); the Baku acceleration goes as virtual points (250)
_SYSTEM = "FIDE_DUTCH_2026"
#: a round block as the reader sees it: opponent (0: none), colour ("w", "b", "-"), result code
_Block = tuple[int, str, str]


def gacrux_trf(state: PairingState) -> str:
    """The state as the TRF gacrux reads (the round to pair carries only the pre-entered byes)."""
    scoring = state.scoring
    units, denominator = code_units(scoring)  # points as integers: one sum per player, no Fractions
    absent = {number: "Z" for number in state.withdrawn}
    absent.update({bye.start_number: str(bye.type) for bye in state.requested_byes})
    lines = [
        "012 chess-league pairing",
        f"142 {state.total_rounds}",
        f"152 {state.initial_colour.upper()}",
        write_scoring("162", scoring),
        f"192 {_SYSTEM}",
    ]
    written: dict[RoundEntry, str] = {}  # a game's block repeats for every round it is met in: made once
    missing = "  0000 - Z"
    for player in state.players:
        number = player.start_number
        blocks = []
        for entry in player.rounds:
            block = written.get(entry)
            if block is None:
                block = _block(entry, number)
                if entry.opponent is None or entry.colour is not None:  # else it depends on the player
                    written[entry] = block
            blocks.append(block)
        blocks.extend([missing] * (state.round - 1 - len(player.rounds)))
        if number in absent:
            blocks.append(f"  0000 - {absent[number]}")
        # the points column is the sum of every block written, as the reader checks
        total = sum(units[block[-1]] for block in blocks)
        lines.append(
            f"001 {number:4d} {'':38} {player.rating or 0:4d} {'':26} "
            f"{fmt_points(Fraction(total, denominator), 'points')} {'':4}" + "".join(blocks)
        )
    if state.acceleration is not None:
        lines.extend(baku_records(state, state.acceleration))
    lines.extend(f"260 {state.round:3d} {state.round:3d} {a:4d} {b:4d}" for a, b in state.forbidden_pairs)
    return "\n".join(lines) + "\n"


def _block(entry: RoundEntry, number: int) -> str:
    code, opponent, colour = entry.code, entry.opponent, entry.colour
    if opponent is None:
        return f"  0000 - {'Z' if code in _ABSENT else code}"
    if colour is None:  # a forfeit with unknown colours: one consistent choice for both records
        colour = "w" if number < opponent else "b"
    return f"  {opponent:4d} {colour} {code}"


def baku_records(state: PairingState, baku: BakuAcceleration) -> list[str]:
    """The Baku acceleration as TRF-26 250 records (see :func:`_baku_spans`)."""
    return [
        f"250 {'':4} {fmt_points(value, 'virtual points')} {first:3d} {last:3d} {1:4d} {last_ga:4d}"
        for first, last, value, last_ga in _baku_spans(state, baku)
    ]


def _baku_spans(state: PairingState, baku: BakuAcceleration) -> list[tuple[int, int, Fraction, int]]:
    """C.04.7 Art. 1: GA = start numbers 1..2*ceil(N/4) (or the given last GA player); the first
    half (rounded up) of the rounds are accelerated; GA gets a win's worth of virtual points in the
    first half (rounded up) of those and a draw's worth in the rest: (first round, last round,
    virtual points, last GA player)."""
    last_ga = baku.last_ga_player or 2 * ceil(len(state.players) / 4)
    accelerated = ceil(state.total_rounds / 2)
    full = ceil(accelerated / 2)
    spans = [(1, full, state.scoring.win), (full + 1, accelerated, state.scoring.draw)]
    return [(first, last, value, last_ga) for first, last, value in spans if first <= last]


def gacrux_tournament(state: PairingState) -> dict[str, Any]:
    """The state as gacrux's tournament: what gacrux's TRF reader makes of :func:`gacrux_trf`'s text
    (every key its Dutch engine reads), built without the text, in time linear in the games."""
    results = _reader_results()
    absent = {number: "Z" for number in state.withdrawn}
    absent.update({bye.start_number: str(bye.type) for bye in state.requested_byes})
    games: list[dict[str, Any]] = []
    by_white: dict[tuple[int, int], dict[str, Any]] = {}  # the reader's one game per round and white player
    current_round = 0  # the last round with a game played between two players (as the reader counts it)
    competitors: list[dict[str, Any]] = []
    for player in state.players:
        number = player.start_number
        blocks = [_block_of(entry, number) for entry in player.rounds]
        blocks.extend([(0, "-", "Z")] * (state.round - 1 - len(player.rounds)))
        if number in absent:
            blocks.append((0, "-", absent[number]))
        for rnd, (opponent, colour, code) in enumerate(blocks, start=1):
            kind = results.get(code, results[" "])
            white, black = (opponent, number) if colour == "b" else (number, opponent)
            side = "black" if colour == "b" else "white"
            if kind["played"] and white and black:
                current_round = max(current_round, rnd)
            game = by_white.get((rnd, white))
            if game is None:  # the first record of a game makes it, with its own side's result
                game = {
                    "round": rnd,
                    "white": {"cid": white},
                    "black": {"cid": black} if black else None,
                    "played": kind["played"],
                    "rated": kind["rated"],
                }
                game[side]["result"] = kind["result"]
                by_white[rnd, white] = game
                games.append(game)
            elif game[side] is not None and "result" not in game[side]:  # the other record adds its result
                game[side]["result"] = kind["result"]
        rating = player.rating or 0
        competitors.append(
            {
                "cid": number,
                "present": True,
                "rank": 0,
                "rating": {"list": "TRF", "rating": rating} if rating > 0 else None,
            }
        )
    competitors.sort(key=lambda c: c["cid"])
    tournament: dict[str, Any] = {
        "tournamentNo": 1,
        "tournamentType": "Tournament",
        "tournamentInfo": {"fullName": "chess-league pairing", "typeOfTournament": _SYSTEM},
        "ratingList": "TRF",
        "numRounds": state.total_rounds,
        "currentRound": current_round,
        "teamTournament": False,
        "rankOrder": ["PTS"],
        "competitors": competitors,
        "teamSize": 0,
        "scoreSystem": {"game": _score_system(state), "match": {}},
        "gameList": games,
        "matchList": [],
        "timeControl": {"description": "", "encoded": ""},
        "topColor": state.initial_colour.lower(),
        "topColorExplicit": True,
        "format": "swiss",
        "pairingSystem": ["dutch"],
        "maxMeets": 1,
    }
    if state.acceleration is not None:
        tournament["accelerated"] = {
            "name": "Acc",
            "values": [
                {
                    "matchPoints": Decimal("0.0"),
                    "gamePoints": _decimal(value, "virtual points"),
                    "firstRound": first,
                    "lastRound": last,
                    "firstCompetitor": 1,
                    "lastCompetitor": last_ga,
                }
                for first, last, value, last_ga in _baku_spans(state, state.acceleration)
            ],
        }
    if state.forbidden_pairs:
        tournament["prohibited"] = [
            {"firstRound": state.round, "lastRound": state.round, "competitors": [a, b]}
            for a, b in state.forbidden_pairs
        ]
    return tournament


def _block_of(entry: RoundEntry, number: int) -> _Block:
    """A played round as the reader reads its block (see :func:`_block`)."""
    code, opponent, colour = entry.code, entry.opponent, entry.colour
    if opponent is None:
        return 0, "-", "Z" if code in _ABSENT else code.upper()
    if colour is None:  # a forfeit with unknown colours: one consistent choice for both records
        colour = "w" if number < opponent else "b"
    return opponent, colour, code.upper()


@cache
def _reader_results() -> dict[str, dict[str, Any]]:
    """gacrux's reading of a TRF result code: its result letter, played, rated."""
    from gacrux.trf2json import trf2json

    return dict(trf2json().results)


def _decimal(value: Fraction, what: str) -> Decimal:
    """A number as the reader reads it from the text (one decimal)."""
    return Decimal(fmt_points(value, what).strip())


def _score_system(state: PairingState) -> dict[str, Any]:
    """gacrux's game score system from the event's scoring, resolved by gacrux as its reader
    resolves record 162 (its A is our absence, its X our unknown result)."""
    from gacrux.scoresystem import scoresystem

    scoring = state.scoring
    declared = {"W": scoring.win, "D": scoring.draw, "L": scoring.loss, "Z": scoring.absence}
    if scoring.pab is not None:
        declared["P"] = scoring.pab
    if scoring.unknown is not None:
        declared["A"] = scoring.unknown
    scores = scoresystem()
    scores.add_scoresystem("game", {key: _decimal(value, "score") for key, value in declared.items()})
    resolved: dict[str, Any] = scores.update_gamescore({"status": {"error": []}}, None, [], True)
    return resolved


def dutch_pairs(state: PairingState, *, keep: list[object] | None = None) -> list[tuple[int, int]]:
    """gacrux's Dutch pairing of ``state.round`` from the state in gacrux's own form: (white, black)
    in board order, black 0 = the PAB.

    ``keep``: a list that is given gacrux's work (about a million objects at 1,000 players) instead of
    their being freed one by one here, for a forked child that exits right after the answer (its exit
    hands the memory back at once, about 4 % of the pairing's CPU saved); None frees them.

    Raises :class:`PairingError` when gacrux finds no legal pairing or fails."""
    with _collector_paused():
        return _engine_pairs(gacrux_tournament(state), state.round, keep)


def gacrux_pairs(trf_text: str, round_number: int) -> list[tuple[int, int]]:
    """gacrux's Dutch pairing of ``round_number`` from TRF text, through gacrux's own reader: (white,
    black) in board order, black 0 = the PAB (the tests' oracle for :func:`dutch_pairs`).

    Raises :class:`PairingError` when gacrux refuses the file or finds no legal pairing."""
    return _engine_pairs(gacrux_read(trf_text), round_number)


def gacrux_read(trf_text: str) -> dict[str, Any]:
    """The tournament as gacrux's own TRF reader makes it; :class:`PairingError` when gacrux refuses the file."""
    from gacrux.gacruxexeptions import GacruxError
    from gacrux.trf2json import trf2json

    reader = trf2json()
    try:
        reader.parse_file(trf_text, 0)
    except GacruxError as error:
        raise PairingError(f"the pairing engine refused the event: {error}") from None
    status = reader.chessjson["status"]
    if status["code"] >= 400:
        raise PairingError("the pairing engine refused the event: " + "; ".join(map(str, status["error"])))
    tournament: dict[str, Any] = reader.get_tournament(1)
    return tournament


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while gacrux pairs, as it was afterwards (the oracle's long
    way, :func:`gacrux_pairs`, keeps it on: the benchmark's old path). gacrux builds a
    dict for every two players (half a million at 1,000 players) and keeps them all until the round is
    paired: the collector, started by every 700 new objects, would walk them again and again to find
    nothing (5 to 7 % of the pairing's CPU at 1,000 players). Reference counting still frees what gacrux
    lets go of; peak memory is unchanged (``tests/bench/bench_pairings.py``)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _engine_pairs(
    tournament: dict[str, Any], round_number: int, keep: list[object] | None = None
) -> list[tuple[int, int]]:
    from gacrux.gacruxexeptions import GacruxNoLegalPairing
    from gacrux.pairingdutch import pairing_dutch

    tournament.setdefault("maxMeets", 1)
    params = {"experimental": [], "verbose": 0, "top_color": tournament.get("topColor", "w")}
    try:
        engine = pairing_dutch(tournament, round_number, params)
        if keep is not None:
            keep.append(engine)  # the tournament, the crosstable and the brackets hang from it
        brackets = engine.compute_pairing(False, 0)
    except GacruxNoLegalPairing as error:
        raise PairingError(f"round {round_number} cannot be paired: {error}") from None
    except Exception as error:  # a defect of the engine: never a half round
        raise PairingError(f"the pairing engine failed on round {round_number}: {error!r}") from None
    pairs = sorted((pair for bracket in brackets for pair in bracket.get("pairs", [])), key=lambda p: p["board"])
    return [(int(pair["w"]), int(pair["b"])) for pair in pairs]
