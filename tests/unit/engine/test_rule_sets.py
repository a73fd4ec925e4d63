"""Rule sets are data (spec §12): fide-2026, fide-2023, us-chess, chess-caddy.

Every expected number comes from the spec (§6.4, §12.2, §15 T4, T5, T7, T9) or from hand
arithmetic written next to it; none is copied from the engine's output. The US systems
themselves are tested in test_uschess.py.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from tests.golden._trf_min import parse_trf
from tests.paths import GOLDEN as GOLDEN_DIR
from tiebreaks.engine import (
    RULE_SETS,
    CriterionNotAllowed,
    EngineError,
    check_criterion,
    compute_standings,
    get_rule_set,
    parse_criterion,
    recommended_criteria,
)
from tiebreaks.engine.caddy import compare_rule_sets
from tiebreaks.engine.model import Tournament
from tiebreaks.engine.rules import FIDE_2026, OpponentUnplayed, OwnUnplayed

from .test_spec_cases import NAMES, T9_TRF, _t2, _t4, _t5, _t7

GOLDEN = sorted(GOLDEN_DIR.glob("*.json"))


def _value(build: Any, player: str, criterion: str, rules: str) -> F | None:
    b = build()
    standings = compute_standings(b.tournament(), [criterion], rules=rules)
    assert standings.rules == rules
    return standings.row(b.sn(player)).values[criterion]


# --- the rule sets and their names ------------------------------------------------------------
def test_every_named_rule_set_is_registered() -> None:
    assert {"fide-2026", "fide-2023", "us-chess", "us-chess-cum-full-point", "chess-caddy"} <= set(RULE_SETS)
    assert get_rule_set("uschess") is RULE_SETS["us-chess"]  # the spec's spelling
    assert get_rule_set("chesscaddy") is RULE_SETS["chess-caddy"]
    with pytest.raises(EngineError, match="unknown rule set 'fide-1999'"):
        get_rule_set("fide-1999")


def test_fide_2026_is_unchanged() -> None:
    fide = RULE_SETS["fide-2026"]
    assert fide is FIDE_2026
    assert (fide.own_unplayed, fide.opponent_unplayed) == (OwnUnplayed.DUMMY, OpponentUnplayed.ARTICLE_16_3)
    assert fide.dummy_forfeit_cap and fide.dummy_bye_cap and fide.cut_vur_first
    assert not fide.buchholz_in_round_robin
    assert fide.modifiers is None and fide.recommended is None
    assert {"STD", "TPN", "RTNG", "BH", "DE"} <= fide.criteria
    assert not {"MM", "SOLK", "CUM", "OPPCUM", "KASH", "MED", "BLK", "H2H"} & fide.criteria


@pytest.mark.parametrize(
    ("rules", "criteria"),
    [("fide-2026", "BH,SB"), ("fide-2023", "BH,SB"), ("us-chess", "MM,SOLK"), ("chess-caddy", "BH,SB,PS")],
)
def test_standings_name_their_rule_set(rules: str, criteria: str) -> None:
    standings = compute_standings(parse_trf(T9_TRF), criteria, rules=rules)
    assert standings.rules == rules
    assert standings.to_dict()["rules"] == rules


# --- spec §12.2: the same crosstable under every rule set ------------------------------------
# T4: 4½/5, half-point bye in round 3 after two wins, opponents 3½, 3, 2½, 2 (all games played)
@pytest.mark.parametrize(
    ("rules", "criterion", "expected"),
    [
        ("fide-2026", "BH", "13.5"),  # dummy min(4½, ½ x 5) = 2½: 11 + 2½
        ("fide-2026", "BH/C1", "11"),  # the VUR dummy 2½ is cut first (16.5)
        ("fide-2026", "BH/M1", "7.5"),  # 13½ - 2½ - 3½
        ("fide-2023", "BH", "15.5"),  # uncapped dummy 4½: 11 + 4½
        ("fide-2023", "BH/C1", "11"),  # the VUR 4½ is cut first
        ("fide-2023", "BH/M1", "7.5"),  # 15½ - 4½ - 3½
        ("us-chess", "SOLK", "11"),  # the bye is an opponent with 0
        ("us-chess", "MM", "11"),  # plus score: the lowest (the 0) dropped
        ("us-chess", "MED", "7.5"),  # 11 - 0 - 3½
        ("chess-caddy", "BH", "11"),  # the bye contributes nothing
    ],
)
def test_spec_12_2_bye_example_under_every_rule_set(rules: str, criterion: str, expected: str) -> None:
    assert _value(_t4, "P", criterion, rules) == F(expected)


# T5: 4/5, forfeit win in round 1 against X (1½), real opponents 3½, 3, 4, 2½
@pytest.mark.parametrize(
    ("rules", "criterion", "expected"),
    [
        ("fide-2026", "BH", "14.5"),  # dummy min(4, 1½)
        ("fide-2023", "BH", "17"),  # dummy 4
        ("us-chess", "SOLK", "13"),  # own unplayed round = 0
        ("chess-caddy", "BH", "13"),  # the forfeit is left out
    ],
)
def test_spec_12_2_forfeit_example_under_every_rule_set(rules: str, criterion: str, expected: str) -> None:
    assert _value(lambda: _t5(False), "P", criterion, rules) == F(expected)


def test_chess_caddy_offers_no_cuts_no_medians_and_nothing_but_bh_sb_ps() -> None:
    caddy = RULE_SETS["chess-caddy"]
    for code in ("BH/C1", "BH/M1", "SB/C1", "BH/P", "PS/C1"):
        with pytest.raises(CriterionNotAllowed, match="chess-caddy offers no"):
            check_criterion(caddy, parse_criterion(code))
    for code in ("DE", "MM", "ARO", "KS"):
        with pytest.raises(CriterionNotAllowed, match="not part of the rule set chess-caddy"):
            check_criterion(caddy, parse_criterion(code))
        with pytest.raises(CriterionNotAllowed):
            compute_standings(parse_trf(T9_TRF), [code], rules="chess-caddy")
    for code in ("BH", "SB", "PS"):
        check_criterion(caddy, parse_criterion(code))


@pytest.mark.parametrize("code", ["BH/C1", "SB/C1", "BH/M1", "PS/C1"])
def test_compute_standings_refuses_a_modifier_chess_caddy_does_not_offer(code: str) -> None:
    with pytest.raises(CriterionNotAllowed) as refused:
        compute_standings(parse_trf(T9_TRF), [code], rules="chess-caddy")
    message = str(refused.value)
    assert "\n" not in message and "chess-caddy" in message and code in message


def test_modifiers_stay_allowed_under_fide() -> None:
    for rules in ("fide-2026", "fide-2023"):
        standings = compute_standings(parse_trf(T9_TRF), ["BH/C1", "SB/C1"], rules=rules)
        assert standings.criteria == ["BH/C1", "SB/C1"]


def test_chess_caddy_on_t9_by_hand() -> None:
    # raw final scores 3.5, 4, 3, 1.5, 3, 0.5, 1; forfeits and byes contribute nothing
    standings = compute_standings(parse_trf(T9_TRF), ["BH", "SB", "PS"], rules="chess-caddy")
    bh = [standings.row(s).values["BH"] for s in range(1, 8)]
    # P1: 1.5 + 3 + 4 + 3 (FPB omitted); P2: 3 + 3.5 + 3 (HPB, forfeit win omitted);
    # P3: 0.5 + 3.5 + 3 + 4 + 1.5; P4: 3.5 + 0.5 + 3 + 3; P5: 4 + 0.5 + 3 + 1.5 + 3.5;
    # P6: 3 + 3 + 1.5; P7: nothing
    assert bh == [F(x) for x in ("11.5", "9.5", "12.5", "10", "12.5", "7.5", "0")]
    sb = [standings.row(s).values["SB"] for s in range(1, 8)]
    # P1: 1.5 + ½·3 + 3 = 6; P2: ½·3 + 3.5 + 3 = 8; P3: 0.5 + ½·3.5 + ½·3 + 1.5 = 5.25;
    # P4: ½·0.5; P5: ½·4 + 0.5 + ½·3 + 1.5 = 5.5; P6: ½·1.5; P7: 0
    assert sb == [F(x) for x in ("6", "8", "5.25", "0.25", "5.5", "0.75", "0")]
    # PS = the FIDE running-score sum (spec T9 column PS)
    assert [standings.row(s).values["PS"] for s in range(1, 8)] == [
        F(x) for x in ("10", "10.5", "9.5", "5.5", "10", "1.5", "5")
    ]


def test_moving_from_chess_caddy_shows_the_rounds_that_change() -> None:
    b = _t4()
    p = b.sn("P")
    changes = {(c.start_number, c.criterion): c for c in compare_rule_sets(b.tournament(), ["BH", "SB"])}
    bh = changes[(p, "BH")]
    assert (bh.before, bh.after) == (F(11), F("13.5"))
    # only round 3 changes: nothing in the app, a dummy capped at ½ x 5 under FIDE 2026
    assert [(r.round, r.before, r.after, r.before_reasons, r.after_reasons) for r in bh.rounds] == [
        (3, F(0), F("2.5"), ("caddy_unplayed_omitted",), ("dummy_cap_half_rounds",))
    ]
    sb = changes[(p, "SB")]  # 3½ + 3 + 2½ + 2 = 11 -> + 2½ x ½ = 12.25 (T4)
    assert (sb.before, sb.after) == (F(11), F("12.25"))
    assert sb.before is not None and sb.after is not None
    assert sum(r.after - r.before for r in sb.rounds) == sb.after - sb.before
    with pytest.raises(CriterionNotAllowed):
        compare_rule_sets(b.tournament(), ["BH/C1"])


# --- fide-2023: the 2026 caps switched off ----------------------------------------------------
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
def test_uncapped_dummies_give_the_2023_values(build, player, criterion, expected) -> None:  # type: ignore[no-untyped-def]
    assert _value(build, player, criterion, "fide-2023") == F(expected)


def test_t4_2023_dummy_is_the_own_score() -> None:
    b = _t4()
    trace = compute_standings(b.tournament(), ["BH"], rules="fide-2023").explain(b.sn("P"))["BH"]
    dummy = next(e for e in trace.elements if e.round == 3)
    assert (dummy.value, dummy.reason) == (F("4.5"), "dummy_own_score")


def test_t9_under_the_2023_rules() -> None:
    standings = compute_standings(parse_trf(T9_TRF), ["BH", "BH/C1", "SB"], rules="fide-2023")
    got = {c: [standings.row(s).values[c] for s in range(1, 8)] for c in ("BH", "BH/C1", "SB")}
    assert got["BH"] == [F(x) for x in ("15", "17.5", "13", "12", "13", "8.5", "5")]
    assert got["BH/C1"] == [F(x) for x in ("13.5", "13.5", "12", "11", "12", "8", "4")]
    assert got["SB"] == [F(x) for x in ("9.5", "14", "5.75", "2", "6", "0.75", "1")]


def test_t9_from_2026_to_2023_changes_exactly_players_1_and_2() -> None:
    changes = compare_rule_sets(parse_trf(T9_TRF), "BH,BH/C1,SB", before="fide-2026", after="fide-2023")
    assert sorted((c.start_number, c.criterion) for c in changes) == [
        (1, "BH"), (1, "BH/C1"), (1, "SB"), (2, "BH"), (2, "BH/C1"), (2, "SB"),
    ]  # fmt: skip
    bh = {c.start_number: c for c in changes if c.criterion == "BH"}
    # P1: round 4 full-point bye, dummy min(3.5, 2.5) = 2.5 -> 3.5 (+1): BH 14 -> 15
    assert [(r.round, r.before, r.after) for r in bh[1].rounds] == [(4, F("2.5"), F("3.5"))]
    # P2: round 2 HPB dummy 2.5 -> 4 (+1.5), round 5 forfeit-win dummy min(4, adj P6 1) -> 4 (+3)
    assert [(r.round, r.before, r.after) for r in bh[2].rounds] == [(2, F("2.5"), F(4)), (5, F(1), F(4))]
    assert (bh[2].before, bh[2].after) == (F(13), F("17.5"))


def test_buchholz_in_a_round_robin_is_a_2026_ban() -> None:
    # spec §7 / T2: the note to Art. 8 forbidding BH in round robins is new in 2026; under the
    # 2023 rules the (pointless) values are computed: total points 10 minus the own score
    b = _t2()
    standings = compute_standings(b.tournament(), ["BH"], rules="fide-2023")
    assert [standings.row(b.sn(n)).values["BH"] for n in NAMES] == [F(x) for x in ("7", "7", "7.5", "8.5", "10")]
    assert not standings.notes
    with pytest.raises(CriterionNotAllowed, match="round robin"):
        compute_standings(b.tournament(), ["BH"], rules="fide-2026")


@pytest.mark.parametrize("code", ["STD", "TPN", "RTNG", "TPN/R", "RTNG/R"])
def test_2026_criteria_are_a_clear_error_under_fide_2023(code: str) -> None:
    with pytest.raises(CriterionNotAllowed, match=r"not part of the rule set fide-2023") as info:
        compute_standings(parse_trf(T9_TRF), [code], rules="fide-2023")
    assert "\n" not in str(info.value)


def test_us_names_are_not_fide_criteria() -> None:
    for rules in ("fide-2026", "fide-2023", "chess-caddy"):
        with pytest.raises(CriterionNotAllowed, match="MM"):
            compute_standings(parse_trf(T9_TRF), ["MM"], rules=rules)
    with pytest.raises(CriterionNotAllowed, match="BH"):
        compute_standings(parse_trf(T9_TRF), ["BH"], rules="us-chess")


# --- fide-2023 on the golden files -------------------------------------------------------------
_GAME = set("10=WLDX?")
_VUR_BYES = set("HZ -")  # requested byes and absences (16.1.1) written without an opponent
_POINTS = {"1": F(1), "W": F(1), "=": F(1, 2), "D": F(1, 2), "X": F(1, 2), "?": F(1, 2), "+": F(1), "U": F(1)}
_POINTS |= {"F": F(1), "H": F(1, 2)}


def _excess(t: Tournament) -> dict[int, tuple[F, F]]:
    """Independent oracle (spec §6.3-6.4): per player, how much BH and SB grow when the 2026
    dummy caps are removed: sum of (own score - capped dummy) [x points for SB]."""
    k = t.total_rounds
    rounds = {p.start_number: p.rounds[:k] for p in t.participants}

    def pts(e: Any) -> F:
        return _POINTS.get(e.code, F(0))

    def is_vur(e: Any) -> bool:
        return (e.opponent is None and e.code in _VUR_BYES) or (e.opponent is not None and e.code == "-")

    score = {sn: sum((pts(e) for e in rs), F(0)) for sn, rs in rounds.items()}
    adjusted = {}
    for sn, rs in rounds.items():
        adj = score[sn]
        for r, e in enumerate(rs):
            if e.opponent is None and e.code in _VUR_BYES and all(is_vur(x) for x in rs[r + 1 :]):
                adj += F(1, 2) - pts(e)  # 16.2.5: counts as a draw
        adjusted[sn] = adj
    out = {}
    for sn, rs in rounds.items():
        bh = sb = F(0)
        for e in rs:
            if e.opponent is not None and e.code in _GAME:
                continue
            cap = adjusted[e.opponent] if e.opponent is not None else F(k, 2)
            extra = score[sn] - min(score[sn], cap)
            bh += extra
            sb += extra * pts(e)
        out[sn] = (bh, sb)
    return out


_SAME_UNDER_BOTH: tuple[str, ...] = ("DE", "PS", "PS/C1", "WIN", "WON", "BPG", "BWG", "REP", "KS")
_SAME_UNDER_BOTH += ("ARO", "ARO/C1", "TPR", "PTP", "APRO", "APPO")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_files_under_fide_2023(path: Path) -> None:
    data = json.loads(path.read_text())
    round_robin = data["mode"] == "round_robin"
    tournament = parse_trf(data["trf"], round_robin=round_robin)
    criteria = [c for c in data["criteria"] if c not in ("PTS", "STD")]
    standings = compute_standings(
        tournament,
        criteria,
        rules="fide-2023",
        unrated_rating=data["checker"]["unrated_rating"],
        allow_buchholz_in_round_robin=True,
    )
    excess = _excess(tournament)
    mismatches = []
    for sn_text, expected in data["expected"].items():
        sn = int(sn_text)
        row = standings.row(sn)
        unplayed = any(e.code not in _GAME or e.opponent is None for e in tournament.participants[sn - 1].rounds)
        bh_extra, sb_extra = excess[sn] if not round_robin else (F(0), F(0))
        for code in criteria:
            want = expected[code]
            got = row.values[code]
            if code in _SAME_UNDER_BOTH or (code != "AOB" and not unplayed):
                pass  # no dummy involved: the 2026 golden value stands
            elif code == "BH":
                want = F(str(want)) + bh_extra
            elif code == "SB":
                want = F(str(want)) + sb_extra
            elif code in ("BH/C1", "BH/C2", "BH/M1", "BH/M2", "SB/C1") and not (bh_extra or sb_extra):
                pass  # every dummy below its 2026 cap: same elements, same cuts
            else:
                continue  # AOB, FB and cuts of capped players: not pinned down by the spec
            if want is None or got is None:
                ok = want is got
            elif code == "AOB":
                ok = round(got * 100) == round(F(str(want)) * 100)
            else:
                ok = got == F(str(want))
            if not ok:
                mismatches.append((sn, code, want, got))
    assert not mismatches, mismatches[:10]


def test_the_golden_folder_is_there() -> None:
    assert len(GOLDEN) >= 40, f"golden files not found in {GOLDEN_DIR}"


def test_some_golden_player_gains_under_fide_2023() -> None:
    # the comparison above is not vacuous: caps bind for several players of the golden files
    gains = 0
    for path in GOLDEN:
        data = json.loads(path.read_text())
        if data["mode"] == "swiss":
            gains += sum(1 for bh, _ in _excess(parse_trf(data["trf"])).values() if bh)
    assert gains >= 20


# --- recommended orders ------------------------------------------------------------------------
def test_recommended_order_per_rule_set() -> None:
    assert recommended_criteria("swiss", rules="us-chess") == ["PTS", "MM", "SOLK", "CUM", "OPPCUM"]
    assert recommended_criteria("swiss", rounds=9, rules="us-chess") == ["PTS", "MM", "SOLK", "CUM", "OPPCUM"]
    assert recommended_criteria("swiss", rounds=9, rules="fide-2023") == ["PTS", "BH/C1", "BH/C2", "SB"]
    assert recommended_criteria("swiss", rounds=4, rules="chess-caddy") == ["PTS", "PS", "BH"]
    assert recommended_criteria("swiss", rounds=6, rules="chess-caddy") == ["PTS", "BH", "SB"]  # no cuts
    assert recommended_criteria("swiss") == ["PTS", "BH/C1", "BH", "SB"]
    with pytest.raises(EngineError, match="us-chess publishes no default order"):
        recommended_criteria("round_robin", rules="us-chess")


# --- adding a rule set needs data and, for a new criterion, one function ---------------------
def test_a_new_rule_set_adds_its_own_criterion_as_data_plus_one_function() -> None:
    from tiebreaks.engine import criteria as criteria_module
    from tiebreaks.engine import registry
    from tiebreaks.engine.context import Computed, Context
    from tiebreaks.engine.criteria import Criterion
    from tiebreaks.engine.explain import Trace

    def compute_losses(ctx: Context, crit: Criterion) -> Computed:
        ct = ctx.ct
        return Computed([sum(1 for p in pts if p == ct.L) for pts in ct.pts], 1)

    def explain_losses(ctx: Context, crit: Criterion, i: int) -> Trace:
        value = F(compute_losses(ctx, crit).nums[i] or 0)
        return Trace(ctx.ct.start_numbers[i], crit.code, value, total=value)

    # a new criterion: its name in the catalogue, its functions in the registry
    criteria_module._CATALOGUE["TESTLOSSES"] = (frozenset(), False, "")
    registry.SCALAR_CRITERIA["TESTLOSSES"] = (compute_losses, explain_losses)
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
        criteria_module._CATALOGUE.pop("TESTLOSSES")
