"""Differential test: our engine against PyPI ``tiebreak-core`` 1.2.0 (MIT, test-only dependency).

Three hundred seeded random Swiss tournaments (4-26 players, 3-9 rounds) with pairing-allocated
byes, half- and zero-point byes, forfeits (one-sided and double), withdrawals, unrated players
(with an announced rating for them), late entries and rematches are ranked by both
implementations on the 24 scalar criteria of the golden files (all but PTS, which is compared
as points, and DE) and on the final order for ``PTS, DE, BH/C1, BH, SB``.

Every value must agree, except in the areas where the two are known to read C.07 differently
(shared/golden/fide2026/README.md, "Known divergences", and a few more found here). Each such
area is a clause of ``divergence()`` naming the spec section that decides it; our engine follows
the spec there (and FIDE's checker, which the golden files pin down). A disagreement outside
them fails the test with its seed.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tiebreaks.engine import compute_standings
from tiebreaks.engine.model import Participant, RoundEntry, Tournament

pytest.importorskip("tiebreak_core")

from tests.bench.tiebreak_core_adapter import CRITERION_IDS, rank_with_tiebreak_core

SEEDS = range(300)
UNRATED_RATING = 1500
CRITERIA = [
    "BH", "BH/C1", "BH/C2", "BH/M1", "BH/M2", "SB", "SB/C1", "PS", "PS/C1", "WIN", "WON", "BPG",
    "BWG", "REP", "KS", "ARO", "ARO/C1", "TPR", "PTP", "APRO", "APPO", "AOB", "STD", "FB",
]  # fmt: skip
ORDER_CRITERIA = ["PTS", "DE", "BH/C1", "BH", "SB"]
RATING_CRITERIA = {"ARO", "ARO/C1", "TPR", "PTP", "APRO", "APPO"}
FORFEITS = "+-"


# --- random Swiss tournaments -------------------------------------------------------------------


def random_swiss(seed: int) -> Tournament:
    """A valid Swiss: every round, each present player is paired, has a bye, or is absent."""
    rng = random.Random(seed)
    n = rng.randint(4, 26)
    rounds = rng.randint(3, 9)
    ratings = sorted((rng.randint(1200, 2500) for _ in range(n)), reverse=True)
    unrated = {p for p in range(1, n + 1) if rng.random() < 0.08}
    withdraw = {p: rng.randint(2, rounds) for p in range(1, n + 1) if rng.random() < 0.1}
    late = {p: rng.randint(2, 3) for p in range(1, n + 1) if rng.random() < 0.05 and p not in withdraw}
    p_hpb, p_zpb, p_forfeit = rng.choice([(0, 0, 0), (0.04, 0.02, 0.03), (0.1, 0.05, 0.08)])
    table: dict[int, list[RoundEntry]] = {p: [] for p in range(1, n + 1)}
    score = {p: Fraction(0) for p in range(1, n + 1)}
    met: set[frozenset[int]] = set()
    had_pab: set[int] = set()

    def rating(p: int) -> int:
        return UNRATED_RATING if p in unrated else ratings[p - 1]

    for rnd in range(1, rounds + 1):
        present = []
        for p in range(1, n + 1):
            if rnd >= withdraw.get(p, rounds + 1) or rnd < late.get(p, 0):
                table[p].append(RoundEntry("Z"))
            elif rng.random() < p_hpb:
                table[p].append(RoundEntry("H"))
                score[p] += Fraction(1, 2)
            elif rng.random() < p_zpb:
                table[p].append(RoundEntry("Z"))
            else:
                present.append(p)
        present.sort(key=lambda p: (-score[p], p))
        if len(present) % 2:
            candidates = [p for p in reversed(present) if p not in had_pab] or list(reversed(present))
            pab = candidates[0]
            present.remove(pab)
            had_pab.add(pab)
            table[pab].append(RoundEntry("U"))
            score[pab] += 1
        while present:
            a = present.pop(0)
            b = next((q for q in present if frozenset((a, q)) not in met), present[0])
            present.remove(b)
            met.add(frozenset((a, b)))
            white, black = (a, b) if rng.random() < 0.5 else (b, a)
            if rng.random() < p_forfeit:
                codes = rng.choice([("+", "-"), ("-", "+"), ("-", "-")])
            else:
                expected = 1 / (1 + 10 ** ((rating(black) - rating(white)) / 400))
                x = rng.random()
                codes = ("1", "0") if x < expected - 0.15 else ("=", "=") if x < expected + 0.15 else ("0", "1")
            for player, opponent, colour, code in (
                (white, black, "w", codes[0]),
                (black, white, "b", codes[1]),
            ):
                table[player].append(RoundEntry(code, opponent, colour))
                score[player] += {"1": Fraction(1), "+": Fraction(1), "=": Fraction(1, 2)}.get(code, Fraction(0))
    participants = [
        Participant(p, f"Player {p}", None if p in unrated else ratings[p - 1], tuple(table[p]))
        for p in range(1, n + 1)
    ]
    return Tournament(participants=participants, total_rounds=rounds)


# --- documented divergences ----------------------------------------------------------------------


def codes(t: Tournament, p: int) -> str:
    return "".join(e.code for e in t.participants[p - 1].rounds)


def otb_opponents(t: Tournament, p: int) -> list[int]:
    return [e.opponent for e in t.participants[p - 1].rounds if e.code in "1=0WDL" and e.opponent]


def double_forfeits(t: Tournament, p: int) -> int:
    rounds = t.participants[p - 1].rounds
    return sum(
        1
        for r, e in enumerate(rounds)
        if e.code == "-" and e.opponent and t.participants[e.opponent - 1].rounds[r].code == "-"
    )


#: removals of each cut / median modifier (least, most)
REMOVALS = {"BH/C1": 1, "BH/C2": 2, "BH/M1": 2, "BH/M2": 4, "ARO/C1": 1}


def ptp_float_error(t: Tournament, p: int, ours: int | None, unrated_rating: int) -> bool:
    """True when ``ours`` is the exact PTP (spec §4.16) and tiebreak-core's floating-point sum of
    the same table entries falls just short of the target at that rating."""
    from tiebreak_core.fide2024 import _pd_for_rating

    if ours is None:
        return False
    player = t.participants[p - 1]
    ratings = {q.start_number: q.rating or unrated_rating for q in t.participants}
    games = [(e.code, ratings[e.opponent]) for e in player.rounds if e.code in "1=0WDL" and e.opponent]
    target = sum(Fraction({"1": 2, "W": 2, "=": 1, "D": 1}.get(code, 0), 2) for code, _ in games)

    def exact(rating: int) -> Fraction:
        return sum((Fraction(str(_pd_for_rating(rating, r))) for _, r in games), Fraction(0))

    floating = sum(_pd_for_rating(ours, r) for _, r in games)
    return exact(ours) >= target > exact(ours - 1) and floating < float(target)


def divergence(t: Tournament, criterion: str, p: int, ours, theirs, context: dict) -> str | None:
    """The documented reason two values may differ, or None (then it is a bug somewhere)."""
    own = codes(t, p)
    if criterion == "KS" and any(c in FORFEITS for c in own):
        return "KS counts forfeit results against the scheduled opponent (tiebreak-rules §4.15)"
    if criterion == "FB" and any(c in FORFEITS for c in own):
        return "FB forfeit dummies are capped by the opponent's FB-adjusted score (tiebreak-rules §4.13, §6.4)"
    if criterion == "FB" and any(
        t.participants[q - 1].rounds[t.total_rounds - 1].code in FORFEITS
        for q in (e.opponent for e in t.participants[p - 1].rounds if e.opponent)
    ):
        return "FB: a final-round forfeit counts as a draw in the opponent's FB score (tiebreak-rules §4.13)"
    if criterion in REMOVALS and len(t.participants[p - 1].rounds) <= REMOVALS[criterion]:
        return "more removals than elements leave nothing, value 0 (tiebreak-rules §5.1)"
    if criterion == "PTP" and ptp_float_error(t, p, ours, context["unrated_rating"]):
        return "PTP is exact; tiebreak-core's floating-point sum falls short (tiebreak-rules §4.16)"
    if criterion == "APPO" and any(q in context["ptp_float"] for q in otb_opponents(t, p)):
        return "APPO averages PTP values, one of them with tiebreak-core's float error (§4.16)"
    if criterion in RATING_CRITERIA | {"AOB"} and ours is None and theirs == 0 and not otb_opponents(t, p):
        return "undefined without an over-the-board game (tiebreak-rules §4.12, §4.16)"
    if criterion == "ARO/C1" and ours is None and len(otb_opponents(t, p)) == 1:
        return "ARO/C1 is undefined when the cut leaves nothing (tiebreak-rules §4.16)"
    if criterion == "STD" and ours - theirs == Fraction(1, 2) * double_forfeits(t, p) != 0:
        return "STD: a double forfeit scores ½ against the scheduled opponent (tiebreak-rules §4.9, T11)"
    return None


# --- the test ----------------------------------------------------------------------------------


def close(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(float(a) - float(b)) < 0.006


@pytest.mark.parametrize("seed", SEEDS)
def test_engine_agrees_with_tiebreak_core(seed):
    t = random_swiss(seed)
    ours = compute_standings(t, ["PTS", *CRITERIA], unrated_rating=UNRATED_RATING).to_dict()
    theirs = rank_with_tiebreak_core(t, CRITERIA, unrated_rating=UNRATED_RATING)
    our_rows = {row["start_number"]: row for row in ours["rows"]}
    context = {
        "unrated_rating": UNRATED_RATING,
        "ptp_float": {
            p.player_id
            for p in theirs.players
            if not close(our_rows[p.player_id]["values"]["PTP"], p.values["ptp"])
            and ptp_float_error(t, p.player_id, our_rows[p.player_id]["values"]["PTP"], UNRATED_RATING)
        },
    }
    unexplained = []
    for player in theirs.players:
        row = our_rows[player.player_id]
        assert row["points"] == player.points, f"seed {seed}: points of player {player.player_id}"
        for criterion in CRITERIA:
            mine, other = row["values"][criterion], player.values[CRITERION_IDS[criterion]]
            if close(mine, other):
                continue
            if divergence(t, criterion, player.player_id, mine, other, context) is None:
                unexplained.append((player.player_id, criterion, mine, other, codes(t, player.player_id)))
    assert not unexplained, f"seed {seed}: undocumented disagreements {unexplained[:5]}"

    our_rows_ordered = compute_standings(t, ORDER_CRITERIA).to_dict()["rows"]
    their_order = [p.player_id for p in rank_with_tiebreak_core(t, ORDER_CRITERIA).players]
    # Equal rank numbers = still tied after every criterion; tiebreak-core breaks such final ties
    # by player id, so compare the tie groups and the order between them.
    groups: dict[int, list[int]] = {}
    for row in our_rows_ordered:
        groups.setdefault(row["rank"], []).append(row["start_number"])
    position = {pid: i for i, pid in enumerate(their_order)}
    for rank, group in groups.items():
        slots = sorted(position[p] for p in group)
        if slots == list(range(rank - 1, rank - 1 + len(group))):
            continue
        # Documented: tiebreak-core treats a pairing decided by forfeit as a meeting for DE
        # (mutual score 0 each); by tiebreak-rules §4.2 (rules 1 and 3) a forfeit is not a
        # game for DE in a Swiss, so the pair has not met and 6.3 applies (FIDE's checker agrees).
        points = {r["start_number"]: r["points"] for r in our_rows_ordered}
        tied = [p for p in points if points[p] == points[group[0]]]
        assert any(e.code in FORFEITS and e.opponent in tied for p in tied for e in t.participants[p - 1].rounds), (
            f"seed {seed}: final order differs for the players tied at rank {rank}: {group}"
        )


def test_the_generator_makes_the_situations_we_need():
    seen = "".join(codes(t, p.start_number) for t in map(random_swiss, SEEDS) for p in t.participants)
    for code in "10=+-UHZ":
        assert code in seen
