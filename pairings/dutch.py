"""FIDE Dutch (C.04.3, 2026) through gacrux, FIDE TEC's reference implementation (MIT, (c) FIDE).

gacrux reads tournaments as TRF files; this module writes the event's state in that shape (only
what the pairing needs: ratings, round blocks, the round's pre-entered byes, 152 initial colour,
162 scoring with the PAB value, 250 Baku virtual points, 260 forbidden pairs), hands the text to
gacrux's own reader in this process, and asks its Dutch engine for the round. gacrux's board
order is FIDE's (C.04.2). Nothing outside this module knows gacrux's shapes.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil

from tiebreaks.trf.codes import code_units, fmt_points, write_scoring

from .model import BakuAcceleration, PairingError, PairingState, RoundEntry

__all__ = ["baku_records", "gacrux_pairs", "gacrux_trf"]

#: a block with no game: the engine reads blank and "A" as absences, like "Z"
_ABSENT = frozenset(" A")


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
        "192 FIDE_DUTCH_2026",
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
    """C.04.7 Art. 1: GA = start numbers 1..2*ceil(N/4) (or the given last GA player); the first
    half (rounded up) of the rounds are accelerated; GA gets a win's worth of virtual points in the
    first half (rounded up) of those and a draw's worth in the rest (TRF-26 record 250)."""
    last_ga = baku.last_ga_player or 2 * ceil(len(state.players) / 4)
    accelerated = ceil(state.total_rounds / 2)
    full = ceil(accelerated / 2)
    spans = [(1, full, state.scoring.win), (full + 1, accelerated, state.scoring.draw)]
    return [
        f"250 {'':4} {fmt_points(value, 'virtual points')} {first:3d} {last:3d} {1:4d} {last_ga:4d}"
        for first, last, value in spans
        if first <= last
    ]


def gacrux_pairs(trf_text: str, round_number: int) -> list[tuple[int, int]]:
    """gacrux's Dutch pairing of ``round_number``: (white, black) in board order, black 0 = the PAB.

    Raises :class:`PairingError` when gacrux refuses the file or finds no legal pairing."""
    from gacrux.gacruxexeptions import GacruxError, GacruxNoLegalPairing
    from gacrux.pairingdutch import pairing_dutch
    from gacrux.trf2json import trf2json

    reader = trf2json()
    try:
        reader.parse_file(trf_text, 0)
    except GacruxError as error:
        raise PairingError(f"the pairing engine refused the event: {error}") from None
    status = reader.chessjson["status"]
    if status["code"] >= 400:
        raise PairingError("the pairing engine refused the event: " + "; ".join(map(str, status["error"])))
    tournament = reader.get_tournament(1)
    tournament.setdefault("maxMeets", 1)
    params = {"experimental": [], "verbose": 0, "top_color": tournament.get("topColor", "w")}
    try:
        engine = pairing_dutch(tournament, round_number, params)
        brackets = engine.compute_pairing(False, 0)
    except GacruxNoLegalPairing as error:
        raise PairingError(f"round {round_number} cannot be paired: {error}") from None
    except Exception as error:  # a defect of the engine: never a half round
        raise PairingError(f"the pairing engine failed on round {round_number}: {error!r}") from None
    pairs = sorted((pair for bracket in brackets for pair in bracket.get("pairs", [])), key=lambda p: p["board"])
    return [(int(pair["w"]), int(pair["b"])) for pair in pairs]
