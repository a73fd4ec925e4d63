"""The Random Tournament Generator (FIDE's checklist for tournament programs asks for one).

A Swiss tournament paired round by round by our FIDE Dutch engine, with the byes, forfeits and
unusual results of real events at the rates asked for, ranked by a tie-break list and written as
TRF-2026: our checker (``python -m pairings check``) and FIDE's tools read it. The same seed gives
the same file.

Each round: some players ask for a half-point bye (H) or announce an absence (Z) before the pairing;
the engine pairs the others (a pairing-allocated bye, U, when their number is odd); each game then
gets a result drawn from the Elo expectation of its two ratings, or a forfeit (one side or both).
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta

from tiebreaks.engine.errors import EngineError
from tiebreaks.engine.model import Participant, RoundEntry, Scoring, Tournament
from tiebreaks.engine.ranking import compute_standings
from tiebreaks.engine.rules import recommended_criteria
from tiebreaks.trf.write import write_trf

from .dutch import baku_records
from .engine import pair_round
from .model import BakuAcceleration, ByeType, PairingError, PairingState, Player, RequestedBye, RoundPairing, System

__all__ = ["TournamentPlan", "generate"]

_SURNAMES = (
    "Aas", "Bakke", "Çelik", "Dahl", "Økland", "Papadopoulos", "Γεωργίου", "Yılmaz", "Kovačević",
    "Lévy", "Nuñez Ibáñez", "Schäfer", "Haugen", "Öztürk", "Müller-Lüdenscheidt", "Karlsen", "Berg",
)  # fmt: skip
_GIVEN = ("Kari", "Ola", "Eleni", "Mehmet", "Ayşe", "Nikos", "Ingrid", "José", "Zoë", "Liv", "Dimitra", "Emre")
_FEDERATIONS = ("NOR", "GRE", "TUR", "ISR", "FRA", "GER", "ESP", "CRO")
_TITLES = ("", "", "", "", "", "", "FM", "IM", "GM", "CM", "WFM", "WIM")
_TITLE_ORDER = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
#: a requested bye's TRF code, and the bye in the pairing
_REQUESTED = {ByeType.HALF: "H", ByeType.ZERO: "Z", ByeType.FULL: "F"}


@dataclass(frozen=True)
class TournamentPlan:
    """What to generate. Rates are per player and round (byes) or per board (forfeits), 0..1."""

    players: int
    rounds: int
    seed: int = 1
    baku: bool = False
    zpb: float = 0.0  # an absence announced before the round (zero-point bye)
    hpb: float = 0.0  # a half-point bye asked for before the round
    forfeits: float = 0.0  # a board decided by forfeit (a tenth of them double forfeits)
    criteria: tuple[str, ...] = ()  # the tie-break list (PTS implied); empty: FIDE's recommended list

    def __post_init__(self) -> None:
        if self.players < 2:
            raise PairingError("a tournament needs at least 2 players")
        if not 1 <= self.rounds < self.players:
            raise PairingError(f"{self.players} players can play 1 to {self.players - 1} rounds of a Swiss")
        for name in ("zpb", "hpb", "forfeits"):
            if not 0 <= getattr(self, name) <= 1:
                raise PairingError(f"--{name} is a rate between 0 and 1")


def generate(plan: TournamentPlan, pair: Callable[[PairingState], RoundPairing] | None = None) -> str:
    """The tournament as TRF-2026 text, every round paired by the engine (FIDE Dutch; or by `pair`, whose system the
    file then does not name), ranked by the tie-break list."""
    rng = random.Random(plan.seed)
    people = sorted((_person(rng, index) for index in range(plan.players)), key=_initial_ranking)
    participants = [replace(p, start_number=number) for number, p in enumerate(people, start=1)]
    rounds: dict[int, list[RoundEntry]] = {p.start_number: [] for p in participants}
    initial_colour = rng.choice("wb")
    for number in range(1, plan.rounds + 1):
        requested = _requested_byes(rng, plan, rounds, number)
        players = tuple(Player(p.start_number, p.rating, tuple(rounds[p.start_number]), p.name) for p in participants)
        state = PairingState(
            players=players,
            round=number,
            total_rounds=plan.rounds,
            requested_byes=tuple(RequestedBye(n, kind) for n, kind in sorted(requested.items())),
            initial_colour=initial_colour,
            acceleration=BakuAcceleration() if plan.baku else None,
        )
        pairing = pair(state) if pair else pair_round(state, System.DUTCH)
        ratings = {p.start_number: p.rating for p in participants}
        for board in pairing.boards:
            white, black = _result(rng, plan, ratings[board.white], ratings[board.black])
            rounds[board.white].append(RoundEntry(white, board.black, "w"))
            rounds[board.black].append(RoundEntry(black, board.white, "b"))
        for bye in pairing.byes:
            rounds[bye.start_number].append(RoundEntry("U" if bye.type is ByeType.PAB else _REQUESTED[bye.type]))
    start = date(2026, 3, 1) + timedelta(days=plan.seed % 300)
    tournament = Tournament(
        participants=[replace(p, rounds=tuple(rounds[p.start_number])) for p in participants],
        total_rounds=plan.rounds,
        scoring=Scoring(),
        name=f"Random tournament {plan.seed}",
        start_date=start.isoformat(),
        end_date=(start + timedelta(days=plan.rounds - 1)).isoformat(),
        event_type="" if pair else "FIDE_DUTCH_2026" + ("_BAKU" if plan.baku else ""),
        # the colour drawn for round 1 (152), and the acceleration's virtual points as TRF-26 250 records too,
        # for readers that do not decode 192
        extra_records=(
            f"152 {initial_colour.upper()}",
            *(baku_records(state, BakuAcceleration()) if plan.baku else ()),
        ),
    )
    criteria = list(plan.criteria) or recommended_criteria("swiss", plan.rounds)[1:]
    tournament = replace(tournament, tiebreaks=["PTS", *criteria])
    try:
        ranks = compute_standings(tournament, criteria).ranks()
    except EngineError as error:
        raise PairingError(str(error)) from None
    tournament.participants = [replace(p, rank=ranks[p.start_number]) for p in tournament.participants]
    return write_trf(tournament)


def _person(rng: random.Random, index: int) -> Participant:
    rated = rng.random() > 0.08
    sex = rng.choice("mmmf")
    title = rng.choice(_TITLES) if rated else ""
    if sex == "m":
        title = title.removeprefix("W")  # a woman's title only for a woman
    return Participant(
        start_number=0,
        name=f"{rng.choice(_SURNAMES)}, {rng.choice(_GIVEN)}",
        rating=round(rng.triangular(1000, 2750, 1700)) if rated else None,
        sex=sex,
        title=title,
        federation=rng.choice(_FEDERATIONS),
        fide_id=str(1_000_000 + index * 7 + rng.randrange(7)) if rated else "",
        birth=str(rng.randrange(1950, 2015)),
    )


def _initial_ranking(p: Participant) -> tuple[int, int, str]:
    """FIDE's initial ranking (C.04.2): rating, then title, then name alphabetically (accents aside, as the
    site ranks its entries: Öztürk before Schäfer); unrated players last."""
    title = _TITLE_ORDER.index(p.title) if p.title in _TITLE_ORDER else 9
    return (-(p.rating or 0), title, _alphabetical(p.name))


def _alphabetical(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _requested_byes(
    rng: random.Random, plan: TournamentPlan, rounds: dict[int, list[RoundEntry]], number: int
) -> dict[int, ByeType]:
    """Byes asked for before round ``number`` (none in the last round, as most events rule)."""
    byes: dict[int, ByeType] = {}
    if number == plan.rounds:
        return byes
    for player, entries in rounds.items():
        draw = rng.random()
        if draw < plan.hpb and sum(e.code == "H" for e in entries) < 2:
            byes[player] = ByeType.HALF
        elif draw < plan.hpb + plan.zpb:
            byes[player] = ByeType.ZERO
    return byes


def _result(rng: random.Random, plan: TournamentPlan, white: int | None, black: int | None) -> tuple[str, str]:
    """Both sides' TRF codes for one board."""
    if rng.random() < plan.forfeits:
        kind = rng.random()
        return ("-", "-") if kind < 0.1 else ("+", "-") if kind < 0.55 else ("-", "+")
    expected = 1 / (1 + 10 ** (((black or 1500) - (white or 1500)) / 400))
    draw = 0.3 * (1 - abs(2 * expected - 1))
    outcome = rng.random()
    if outcome < draw:
        return "=", "="
    return ("1", "0") if outcome < draw + (1 - draw) * expected else ("0", "1")
