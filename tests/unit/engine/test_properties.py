"""Property tests on generated crosstables (consistent pairings, byes, forfeits, withdrawals)."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tiebreaks.engine import RULE_SETS, compute_standings
from tiebreaks.engine.fide_tables import DP_BY_PERCENT
from tiebreaks.engine.model import Participant, RoundEntry, Tournament
from tiebreaks.engine.rules import FIDE_2026, OpponentUnplayed, OwnUnplayed

from .strategies import round_robins, tournaments

ALL = (
    "DE BH BH/C1 BH/C2 BH/M1 BH/M2 SB SB/C1 PS PS/C1 WIN WON BPG BWG REP KS ARO ARO/C1 TPR PTP "
    "APRO APPO AOB STD FB FB/C1 BH/P SB/P AOB/F KS/L-1 RTNG"
).split()
SUMS = {
    "BH",
    "BH/C1",
    "BH/C2",
    "BH/M1",
    "BH/M2",
    "SB",
    "SB/C1",
    "PS",
    "PS/C1",
    "WIN",
    "WON",
    "BPG",
    "BWG",
    "REP",
    "KS",
    "STD",
    "FB",
    "FB/C1",
    "BH/P",
    "SB/P",
    "KS/L-1",
}


@given(tournaments())
@settings(max_examples=150, deadline=None)
def test_buchholz_cuts_only_remove(t: Tournament) -> None:
    standings = compute_standings(t, ["BH", "BH/C1", "BH/C2", "BH/M1"])
    for row in standings.rows:
        v = row.values
        assert v["BH"] >= v["BH/C1"] >= v["BH/C2"] >= 0  # type: ignore[operator]
        assert v["BH/M1"] <= v["BH/C1"]  # type: ignore[operator]


def _renumbered(t: Tournament, mapping: dict[int, int]) -> Tournament:
    participants = [
        Participant(
            start_number=mapping[p.start_number],
            name=p.name,
            rating=p.rating,
            rounds=tuple(RoundEntry(e.code, mapping[e.opponent] if e.opponent else None, e.colour) for e in p.rounds),
        )
        for p in reversed(t.participants)
    ]
    return Tournament(participants, t.total_rounds)


@given(tournaments(), st.randoms(use_true_random=False))
@settings(max_examples=100, deadline=None)
def test_renumbering_players_changes_no_value(t: Tournament, rnd) -> None:  # type: ignore[no-untyped-def]
    numbers = [p.start_number for p in t.participants]
    shuffled = [n * 7 + 3 for n in numbers]
    rnd.shuffle(shuffled)
    mapping = dict(zip(numbers, shuffled, strict=True))
    before = compute_standings(t, ALL)
    after = compute_standings(_renumbered(t, mapping), ALL)
    by_name = {row.name: row for row in after.rows}
    for row in before.rows:
        other = by_name[row.name]
        assert other.values == row.values
        assert other.points == row.points
        assert other.rank == row.rank


@contextmanager
def _variants() -> Iterator[list[str]]:
    variants = {
        "test-no-caps": dataclasses.replace(
            FIDE_2026, name="test-no-caps", dummy_bye_cap=False, dummy_forfeit_cap=False
        ),
        "test-plain-cuts": dataclasses.replace(FIDE_2026, name="test-plain-cuts", cut_vur_first=False),
        "test-zero": dataclasses.replace(
            FIDE_2026,
            name="test-zero",
            own_unplayed=OwnUnplayed.ZERO,
            opponent_unplayed=OpponentUnplayed.ALL_AS_DRAWS,
        ),
        "test-omit": dataclasses.replace(
            FIDE_2026, name="test-omit", own_unplayed=OwnUnplayed.OMIT, opponent_unplayed=OpponentUnplayed.RAW
        ),
    }
    RULE_SETS.update(variants)
    try:
        yield list(variants)
    finally:
        for name in variants:
            RULE_SETS.pop(name, None)


@given(tournaments(unplayed=False))
@settings(max_examples=100, deadline=None)
def test_without_unplayed_rounds_every_article_16_option_agrees(t: Tournament) -> None:
    reference = [row.values for row in compute_standings(t, ALL).rows]
    with _variants() as names:
        for name in names:
            assert [row.values for row in compute_standings(t, ALL, rules=name).rows] == reference, name


def _half_up(x: Fraction) -> int:
    return int((2 * x.numerator + x.denominator) // (2 * x.denominator))


@given(tournaments())
@settings(max_examples=80, deadline=None)
def test_every_trace_adds_up_to_its_value(t: Tournament) -> None:
    standings = compute_standings(t, ALL)
    for row in standings.rows:
        traces = standings.explain(row.start_number)
        assert traces["PTS"].value == row.points == sum(traces["PTS"].terms())
        for code, value in row.values.items():
            trace = traces[code]
            assert trace.value == value, code
            if value is None:
                assert trace.reason is not None, code
                continue
            if trace.total is not None:
                assert sum(trace.terms(), Fraction(0)) == trace.total, code
            if code in SUMS:
                assert trace.total == value, code
            elif code in ("ARO", "ARO/C1", "APRO", "APPO"):
                assert trace.total is not None and trace.divisor is not None, code
                assert _half_up(trace.total / trace.divisor) == value, code
            elif code in ("AOB", "AOB/F"):
                assert trace.total is not None and trace.divisor is not None, code
                assert Fraction(_half_up(trace.total * 100 / trace.divisor), 100) == value, code
            elif code == "TPR":
                d = trace.details
                assert value == d["aro"] + DP_BY_PERCENT[d["percentage"]]
                assert trace.total is not None and trace.divisor is not None, code
                assert d["aro"] == _half_up(trace.total / trace.divisor)


@given(tournaments())
@settings(max_examples=80, deadline=None)
def test_ranks_are_competition_numbers_and_ties_really_tie(t: Tournament) -> None:
    standings = compute_standings(t, ["BH/C1", "BH", "SB", "DE"])
    rows = standings.rows
    for position, row in enumerate(rows, start=1):
        if position == 1 or row.rank != rows[position - 2].rank:
            assert row.rank == position
    for a, b in itertools.pairwise(rows):
        sep = standings.separation(a.start_number, b.start_number)
        assert sep.separated == (a.rank != b.rank)


RR_ALL = [c for c in ALL if c.split("/")[0] not in ("BH", "FB", "AOB")]


@given(round_robins())
@settings(max_examples=80, deadline=None)
def test_round_robin_traces_add_up_and_renumbering_changes_nothing(t: Tournament) -> None:
    before = compute_standings(t, ALL, allow_buchholz_in_round_robin=True)
    for row in before.rows:
        traces = before.explain(row.start_number)
        for code, value in row.values.items():
            assert traces[code].value == value, code
            if code in SUMS and value is not None:
                assert sum(traces[code].terms(), Fraction(0)) == value, code
    numbers = [p.start_number for p in t.participants]
    mapping = dict(zip(numbers, reversed(numbers), strict=True))
    renumbered = _renumbered(t, mapping)
    renumbered.round_robin = True
    renumbered.rounds_computed = t.rounds_computed
    after = {r.name: r for r in compute_standings(renumbered, ALL, allow_buchholz_in_round_robin=True).rows}
    for row in before.rows:
        assert after[row.name].values == row.values
        assert after[row.name].rank == row.rank


@given(round_robins())
@settings(max_examples=30, deadline=None)
def test_round_robin_complete_single_cycle_gives_every_tied_player_the_same_buchholz(t: Tournament) -> None:
    """Note to Art. 8: in a complete single round robin BH = total points - own points."""
    complete = t.rounds_computed == t.total_rounds and t.total_rounds < len(t.participants) + 1
    standings = compute_standings(t, [*RR_ALL, "BH"], allow_buchholz_in_round_robin=True)
    if complete:
        total = sum((r.points for r in standings.rows), Fraction(0))
        for row in standings.rows:
            assert row.values["BH"] == total - row.points
