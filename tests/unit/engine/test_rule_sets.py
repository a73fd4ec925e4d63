"""Rule sets are data: an older FIDE edition is a RuleSet value, not a branch in the criteria.

fide-2023 (1 Sep 2023 - 28 Feb 2026) is not registered yet; this test builds it from the
fide-2026 data with the 2026 dummy caps switched off and checks the spec's 2023 numbers
(T4, T5, T7, T9), which shows the criteria need no change to support it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from fractions import Fraction as F

import pytest

from tests.golden._trf_min import parse_trf
from tiebreaks.engine import RULE_SETS, compute_standings
from tiebreaks.engine.rules import FIDE_2026

from .test_spec_cases import T9_TRF, _t4, _t5, _t7

FIDE_2023_LIKE = dataclasses.replace(
    FIDE_2026,
    name="test-fide-2023",
    edition="FIDE C.07 of 1 Sep 2023 (test copy)",
    dummy_forfeit_cap=False,
    dummy_bye_cap=False,
    criteria=FIDE_2026.criteria - {"STD", "TPN", "RTNG"},
)


@pytest.fixture
def fide_2023() -> Iterator[str]:
    RULE_SETS[FIDE_2023_LIKE.name] = FIDE_2023_LIKE
    try:
        yield FIDE_2023_LIKE.name
    finally:
        RULE_SETS.pop(FIDE_2023_LIKE.name)


@pytest.mark.parametrize(
    ("build", "player", "criterion", "expected"),
    [
        (_t4, "P", "BH", "15.5"),
        (_t4, "P", "BH/C1", "11"),
        (lambda: _t5(False), "P", "BH", "17"),
        (lambda: _t5(False), "P", "BH/C1", "14.5"),
        (lambda: _t5(False), "P", "SB", "13"),
        (_t7, "Laxman", "BH", "57"),
        (_t7, "Laxman", "BH/C1", "50"),
        (_t7, "Laxman", "SB", "37.25"),
    ],
)
def test_uncapped_dummies_give_the_2023_values(fide_2023: str, build, player, criterion, expected) -> None:  # type: ignore[no-untyped-def]
    b = build()
    standings = compute_standings(b.tournament(), [criterion], rules=fide_2023)
    assert standings.row(b.sn(player)).values[criterion] == F(expected)
    assert standings.rules == fide_2023


def test_t9_under_the_2023_rules(fide_2023: str) -> None:
    standings = compute_standings(parse_trf(T9_TRF), ["BH", "BH/C1", "SB"], rules=fide_2023)
    got = {c: [standings.row(s).values[c] for s in range(1, 8)] for c in ("BH", "BH/C1", "SB")}
    assert got["BH"] == [F(x) for x in ("15", "17.5", "13", "12", "13", "8.5", "5")]
    assert got["BH/C1"] == [F(x) for x in ("13.5", "13.5", "12", "11", "12", "8", "4")]
    assert got["SB"] == [F(x) for x in ("9.5", "14", "5.75", "2", "6", "0.75", "1")]


def test_a_criterion_missing_from_the_rule_set_is_not_allowed(fide_2023: str) -> None:
    from tiebreaks.engine import CriterionNotAllowed

    with pytest.raises(CriterionNotAllowed, match="STD"):
        compute_standings(parse_trf(T9_TRF), ["STD"], rules=fide_2023)


def test_a_new_rule_set_adds_its_own_criterion_as_data_plus_one_function() -> None:
    from tiebreaks.engine import CriterionNotAllowed, registry
    from tiebreaks.engine import criteria as criteria_module
    from tiebreaks.engine.context import Computed, Context
    from tiebreaks.engine.criteria import Criterion
    from tiebreaks.engine.explain import Trace

    def compute_losses(ctx: Context, crit: Criterion) -> Computed:
        ct = ctx.ct
        return Computed([sum(1 for p in pts if p == ct.L) for pts in ct.pts], 1)

    def explain_losses(ctx: Context, crit: Criterion, i: int) -> Trace:
        value = F(compute_losses(ctx, crit).nums[i] or 0)
        return Trace(ctx.ct.start_numbers[i], crit.code, value, total=value)

    registry.register_criterion("TESTLOSSES", compute_losses, explain_losses, higher_is_better=False, integer=True)
    RULE_SETS["test-club"] = dataclasses.replace(FIDE_2026, name="test-club", criteria=frozenset({"TESTLOSSES"}))
    try:
        standings = compute_standings(parse_trf(T9_TRF), ["TESTLOSSES"], rules="test-club")
        # rounds with the loss points: P1 one loss; P2 none; P6 two losses, a ZPB and a forfeit loss
        assert [standings.row(s).values["TESTLOSSES"] for s in (1, 2, 6)] == [F(1), F(0), F(4)]
        assert standings.to_dict()["rows"][0]["values"]["TESTLOSSES"] in (0, 1)
        with pytest.raises(CriterionNotAllowed):  # FIDE criteria are not part of that rule set
            compute_standings(parse_trf(T9_TRF), ["BH"], rules="test-club")
        with pytest.raises(CriterionNotAllowed):  # and the new one is not part of fide-2026
            compute_standings(parse_trf(T9_TRF), ["TESTLOSSES"])
    finally:
        RULE_SETS.pop("test-club")
        registry.SCALAR_CRITERIA.pop("TESTLOSSES")
        registry.INTEGER_CRITERIA.discard("TESTLOSSES")
        criteria_module._CATALOGUE.pop("TESTLOSSES")
