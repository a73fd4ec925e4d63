"""Explanations of team criteria: every value traced to the matches, boards and articles behind it,
with the team reason codes (stable values, one-line meaning, as in :mod:`.reasons`)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from . import reasons as R
from .crosstable import PLAYED
from .direct_encounter import explain_direct_encounter, mutual_scores
from .explain import Trace, TraceElement
from .registry import SCALAR_CRITERIA
from .team_criteria import BOARD_COUNTS, CHAINS, ESB, PLACE_CRITERIA, TeamCriterion
from .team_matches import TeamMatch

if TYPE_CHECKING:
    from .team_engine import Column, TeamEngine


# --- Team reason codes (same style as .reasons: stable values, one-line meaning) ------------------
# match points from the match result: more game points wins, equal (both above 0) is a draw
TEAM_MATCH_POINTS = "team_match_points"
TEAM_GAME_POINTS = "team_game_points"  # game points: the sum of the team's board points in the match
# a match in which no board was played over the board: a team forfeit, an unplayed round (Art. 16)
TEAM_MATCH_FORFEITED = "team_match_forfeited"
TEAM_BYE = "team_bye"  # the team had no opponent that round (PAB, bye or absence)
TEAM_SECONDARY_SCORE = "team_secondary_score"  # the score that does not decide the standings (13.1)
# ESB: opponent's total in one score x points scored against them in the other (13.2)
TEAM_ESB_ELEMENT = "team_esb_element"
TEAM_BOARD_POINTS = "team_board_points"  # game points the team scored on one board over the event (Art. 12)
TEAM_BOARD_COUNT = "team_board_count"  # BC: board number x game points on that board; lower is better (12.1)
# BC / TBR / BBE apply only among teams equal on match and game points (Art. 12): not applied here
TEAM_KNOCKOUT_NOT_APPLICABLE = "team_knockout_not_applicable"
# SSSC: Buchholz of the primary score divided by the divisor, added to the secondary score (13.4)
TEAM_SSSC_SCHEDULE_SHARE = "team_sssc_schedule_share"
# EDE: points scored against the other tied teams in the primary, then the secondary score (13.3)
TEAM_EDE_MUTUAL_SCORE = "team_ede_mutual_score"
# EDE chain: a tie of exactly two teams broken by board count / top board / bottom board (13.3.2)
TEAM_EDE_KNOCKOUT_STEP = "team_ede_knockout_step"
TEAM_BOARD_RESULT = "team_board_result"  # one board of one match (counting criteria with :GP)
# a team PAB with no match points given (TRF 362 P): a drawn match's MP, a win on every board
TEAM_PAB_DEFAULT = "team_pab_default"
TEAM_REASONS: frozenset[str] = frozenset(
    value for name, value in dict(globals()).items() if name.startswith("TEAM_") and isinstance(value, str)
)


# --- explanations ---------------------------------------------------------------------------------
def match_reason(m: TeamMatch) -> str:
    if m.opponent is None:
        return TEAM_BYE
    return TEAM_MATCH_POINTS if m.kind == PLAYED else TEAM_MATCH_FORFEITED


def explain_score(eng: TeamEngine, score: str, i: int, code: str, article: str = "11") -> Trace:
    event = eng.event
    elements = []
    for m in event.matches[i]:
        pts = m.match_points if score == "MP" else m.game_points
        reason = match_reason(m)
        if score == "GP" and reason == TEAM_MATCH_POINTS:
            reason = TEAM_GAME_POINTS
        elements.append(TraceElement(m.round, m.opponent, False, pts, pts, reason, article, points=pts))
    total = sum((e.contribution for e in elements), Fraction(0))
    return Trace(event.numbers[i], code, total, tuple(elements), total, details={"score": score})


def rename(trace: Trace, code: str) -> Trace:
    return replace(trace, criterion=code)


def explain_column(eng: TeamEngine, col: Column, i: int, value: Fraction | None) -> Trace:
    crit = col.crit
    name = crit.name
    event = eng.event
    number = event.numbers[i]
    if name == "MPTS":
        return explain_score(eng, "MP", i, crit.code)
    if name == "GPTS":
        return explain_score(eng, "GP", i, crit.code)
    if name == "MPVGP":
        return explain_score(eng, eng.secondary, i, crit.code, "13.1")
    if name in ESB:
        return _explain_esb(eng, crit, i)
    if name == "BC":
        return _explain_bc(eng, col, i, value)
    if name == "SSSC":
        return _explain_sssc(eng, crit, i)
    if name in PLACE_CRITERIA:
        return _explain_place(eng, col, i, value)
    if name in BOARD_COUNTS and eng.score_of(crit) == "GP":
        elements = tuple(
            TraceElement(rnd, b.opponent if b else None, False, b.points if b else None, v, TEAM_BOARD_RESULT, "7")
            for rnd, v, b in eng._board_flags(name, i)
        )
        total = sum((e.contribution for e in elements), Fraction(0))
        return Trace(number, crit.code, total, elements, total, details={"score": "GP", "per_board": True})
    if crit.base is None:
        raise RuntimeError("the criterion has a base criterion")
    ctx = eng.ctx[eng.score_of(crit)]
    trace = SCALAR_CRITERIA[name][1](ctx, crit.base, i)
    return replace(trace, criterion=crit.code, details={**trace.details, "score": eng.score_of(crit)})


def _explain_esb(eng: TeamEngine, crit: TeamCriterion, i: int) -> Trace:
    x_name, y_name = ESB[crit.name]
    xct = eng.ctx[x_name].ct
    value, rows = eng._esb(crit, i)
    elements = []
    for e, y_points, contribution, removed in rows:
        elements.append(
            TraceElement(
                round=e.round + 1,
                opponent=xct.start_numbers[e.opponent] if e.opponent >= 0 else None,
                dummy=e.dummy,
                value=xct.frac(e.value),
                contribution=contribution,
                reason=e.reason if e.dummy else TEAM_ESB_ELEMENT,
                article=e.article if e.dummy else "13.2",
                points=y_points,
                vur=e.vur,
                removed=removed,
            )
        )
    return Trace(
        eng.event.numbers[i],
        crit.code,
        value,
        tuple(elements),
        value,
        details={"opponent_score": x_name, "points_scored": y_name},
    )


def _explain_bc(eng: TeamEngine, col: Column, i: int, value: Fraction | None) -> Trace:
    bp = eng.board_points[i]
    elements = tuple(
        TraceElement(None, None, False, p, b * p, TEAM_BOARD_COUNT, "12.1", points=p) for b, p in enumerate(bp, start=1)
    )
    total = sum((e.contribution for e in elements), Fraction(0))
    details: dict[str, Any] = {"boards": [{"board": b, "game_points": p} for b, p in enumerate(bp, start=1)]}
    return Trace(eng.event.numbers[i], col.crit.code, value, elements, total, details=details)


def _explain_sssc(eng: TeamEngine, crit: TeamCriterion, i: int) -> Trace:
    values, bh, divisor = eng._sssc(crit)
    secondary = eng.totals[eng.secondary][i]
    elements = (
        TraceElement(None, None, False, secondary, secondary, TEAM_SECONDARY_SCORE, "13.4"),
        TraceElement(None, None, False, bh[i], bh[i] / divisor, TEAM_SSSC_SCHEDULE_SHARE, "13.4"),
    )
    total = secondary + bh[i] / divisor
    return Trace(
        eng.event.numbers[i],
        crit.code,
        values[i],
        elements,
        total,
        rounding="half_up_0.01",
        details={"divisor": divisor, "buchholz": bh[i], "primary": eng.primary, "secondary": eng.secondary},
    )


def _explain_place(eng: TeamEngine, col: Column, i: int, value: Fraction | None) -> Trace:
    crit = col.crit
    event = eng.event
    number = event.numbers[i]
    group = col.groups.get(i)
    place = int(value or 0)
    if not group or len(group) <= 1:
        return Trace(
            number, crit.code, Fraction(place), reason=R.DIRECT_ENCOUNTER_NOT_TIED, details={"group": [number]}
        )
    if crit.name == "DE":
        if crit.base is None:
            raise RuntimeError("the criterion has a base criterion")
        ctx = eng.ctx[eng.score_of(crit)]
        return rename(explain_direct_encounter(ctx, crit.base, i, group, place), crit.code)
    numbers = sorted(event.numbers[p] for p in group)
    if crit.name in ("TBR", "BBE"):
        applicable = eng.equal_mp_gp(group)
        bp = eng.board_points[i]
        elements = tuple(
            TraceElement(None, None, False, p, p, TEAM_BOARD_POINTS, "12.2" if crit.name == "TBR" else "12.3")
            for p in bp
        )
        return Trace(
            number,
            crit.code,
            Fraction(place),
            elements,
            None,
            reason=None
            if applicable and place
            else (TEAM_KNOCKOUT_NOT_APPLICABLE if not applicable else R.DIRECT_ENCOUNTER_SEPARATED_NONE),
            details={"group": numbers, "place": place, "key": list(eng._board_key(crit.name, i))},
        )
    # EDE and chains: mutual scores inside the group where the criterion began - the primary
    # score's games are the elements (they add up to the mutual primary score), the secondary
    # score's games are listed in the details
    if crit.base is None:
        raise RuntimeError("the criterion has a base criterion")
    details: dict[str, Any] = {"group": numbers, "place": place}
    traces = {score: explain_direct_encounter(eng.ctx[score], crit.base, i, group, place) for score in ("MP", "GP")}
    elements = tuple(replace(e, reason=TEAM_EDE_MUTUAL_SCORE, article="13.3.1") for e in traces[eng.primary].elements)
    total = sum((e.contribution for e in elements), Fraction(0))
    details[f"mutual_{eng.primary.lower()}"] = total
    details[f"mutual_{eng.secondary.lower()}"] = mutual_scores(eng.ctx[eng.secondary], crit.base, group)[i]
    details["secondary_games"] = [
        {"round": e.round, "opponent": e.opponent, "points": e.value, "counts": e.contribution}
        for e in traces[eng.secondary].elements
    ]
    if CHAINS[crit.name] and len(group) == 2:
        details["knockout"] = {
            "BC": eng.values(TeamCriterion("BC", "BC"))[i],
            "TBR": list(eng._board_key("TBR", i)),
            "BBE": list(eng._board_key("BBE", i)),
        }
        details["knockout_reason"] = TEAM_EDE_KNOCKOUT_STEP
    return Trace(
        number,
        crit.code,
        Fraction(place),
        elements,
        total,
        reason=None if place else R.DIRECT_ENCOUNTER_SEPARATED_NONE,
        details=details,
    )
