"""Turn the engine's explanation traces into translated sentences.

The engine explains every tie-break value as data (``Trace.to_dict()``: elements with a reason code
from :mod:`tiebreaks.engine.reasons`, the Article, what a cut removed, the total and a divisor).
This module is the only place that turns those codes into words, whole sentences with named
placeholders, in the reader's language. It reads the JSON form (as stored in a standings snapshot),
so pages never run the engine to explain a value. For pages (``isolated=True``) every placeholder's
value is an isolate (:mod:`tiebreaks.bidi`): in Hebrew a Latin name or "−1" keeps its own direction.

>>> explained = explain_trace(trace_dict, name_of={3: "Berg, Magnus"})   # doctest: +SKIP
>>> explained.elements[0].text                                           # doctest: +SKIP
'Round 1: Berg, Magnus finished on 3.5 points.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from tiebreaks.engine import reasons as R

from .bidi import isolate, isolate_ltr
from .names import CriterionName, criterion_name

SUM_CRITERIA_WITH_POINTS = {"SB"}  # elements add value x points


def fmt(value: Any) -> str:
    """A number as readers expect it: no trailing zeros, at most two decimals, localised."""
    if value is None:
        return "–"
    number = Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if number == number.to_integral_value():
        return number_format(number, decimal_pos=0)
    if (number * 10) == (number * 10).to_integral_value():
        return number_format(number, decimal_pos=1)
    return number_format(number, decimal_pos=2)


def _units(params: Mapping[str, Any], isolated: bool) -> dict[str, Any]:
    """A sentence's placeholder values; on pages each one is an isolate (a name or number as one unit)."""
    return {key: isolate(value) for key, value in params.items()} if isolated else dict(params)


@dataclass
class ExplainedElement:
    round: int | None
    text: str
    value: str
    contribution: str
    kept: bool
    removed: str = ""
    adjustments: list[str] = field(default_factory=list)
    dummy: bool = False
    opponent: int | None = None
    product: str = ""  # SB: "value × points = contribution"


@dataclass
class ExplainedCriterion:
    code: str
    name: CriterionName
    value: str
    elements: list[ExplainedElement]
    arithmetic: str
    notes: list[str]
    raw_value: Any = None


# who a start number is: a mapping, a function, or nothing ("player 3")
NameOf = Mapping[int, str] | Callable[[int], str] | None


def _name(name_of: NameOf, number: int | None) -> str:
    if number is None:
        return ""
    if name_of is None:
        return _("player %(number)s") % {"number": number}
    if callable(name_of):
        return name_of(number)
    return name_of.get(number) or _("player %(number)s") % {"number": number}


def _removal_sentences() -> dict[str, str]:
    return {
        R.CUT_LOWEST: _("Removed by the cut: the least significant value (Article 14.1)."),
        R.CUT_VUR_FIRST: _(
            "Removed by the cut first: a voluntary unplayed round goes before any lower real opponent (Article 16.5)."
        ),
        R.MEDIAN_HIGHEST: _("Removed by the median: the most significant value (Article 14.1)."),
        R.CUT_FIRST_ROUNDS: _("Removed by the cut: the first running scores are dropped (Article 14.1.1)."),
        R.OPPONENT_VALUE_UNDEFINED: _("Skipped: the opponent has no value for this criterion."),
        # US Chess rule 34E1 (Modified Median) and 34E4 (Median, Harkness)
        R.MM_PLUS_LOWEST_DROPPED: _("Dropped: with a plus score the lowest opponent goes (US Chess rule 34E1)."),
        R.MM_MINUS_HIGHEST_DROPPED: _("Dropped: with a minus score the highest opponent goes (US Chess rule 34E1)."),
        R.MM_EVEN_LOWEST_DROPPED: _(
            "Dropped: with an even score the lowest and the highest opponent go; this is the lowest "
            "(US Chess rule 34E1)."
        ),
        R.MM_EVEN_HIGHEST_DROPPED: _(
            "Dropped: with an even score the lowest and the highest opponent go; this is the highest "
            "(US Chess rule 34E1)."
        ),
        R.MEDIAN_LOWEST_DROPPED: _("Dropped: the median leaves out the lowest opponent (US Chess rule 34E4)."),
        R.MEDIAN_HIGHEST_DROPPED: _("Dropped: the median leaves out the highest opponent (US Chess rule 34E4)."),
    }


def removal_sentence(reason: str | None) -> str:
    """Why a cut or median removed an element, with the Article."""
    if not reason:
        return ""
    return _removal_sentences().get(reason, _("Removed (%(reason)s).") % {"reason": reason})


def adjustment_sentence(adjustment: Mapping[str, Any], isolated: bool = False) -> str:
    params = _units(
        {
            "round": adjustment["round"],
            "awarded": fmt(adjustment["awarded"]),
            "counted": fmt(adjustment["counted"]),
            "article": adjustment["article"],
        },
        isolated,
    )
    return _adjustment_text(adjustment["reason"], params) or _requested_bye_text(params)


def _adjustment_text(reason: str, params: Mapping[str, Any]) -> str | None:
    if reason == R.UNPLAYED_COUNTS_AS_DRAW:
        return _("Their unplayed round %(round)s counts as a draw: %(counted)s instead of %(awarded)s.") % params
    if reason != R.REQUESTED_BYE_COUNTS_AS_DRAW:
        return None
    return _requested_bye_text(params)


def _requested_bye_text(params: Mapping[str, Any]) -> str:
    return (
        _(
            "Their requested bye in round %(round)s is followed only by unplayed rounds, so it counts as a draw "
            "for their opponents: %(counted)s instead of %(awarded)s (Article %(article)s)."
        )
        % params
    )


def element_sentence(
    element: Mapping[str, Any],
    code: str,
    details: Mapping[str, Any],
    name_of: NameOf = None,
    isolated: bool = False,
) -> str:
    """One sentence saying what this round is worth and where the number came from."""
    text = _element_text(element, code, details, name_of, isolated)
    if text is not None:
        return text
    if Decimal(str(element.get("contribution") or 0)) == 0:
        return _("Round %(round)s does not count for this criterion.") % _units({"round": element["round"]}, isolated)
    return _("Round %(round)s: %(contribution)s (%(reason)s).") % _units(
        {"round": element["round"], "contribution": fmt(element.get("contribution")), "reason": element["reason"]},
        isolated,
    )


def _adjusted_from(element: Mapping[str, Any]) -> str:
    """The opponent's final score before the adjustments that raised it to the element's value."""
    counted = sum(Decimal(str(a["counted"])) - Decimal(str(a["awarded"])) for a in element.get("adjustments", []))
    return fmt(Decimal(str(element.get("value") or 0)) - counted)


#: the sentence of each reason code whose sentence needs nothing but the element's numbers and names
#: (translated when used)
_ROUND_SENTENCES = {
    R.ACTUAL_SCORE: gettext_noop("Round %(round)s: %(opponent)s, final score %(value)s."),
    R.ADJUSTED_SCORE: gettext_noop(
        "Round %(round)s: %(opponent)s, final score %(score)s, counts with %(value)s: their adjusted score "
        "(Article 16.3)."
    ),
    R.FORE_LAST_ROUND_DRAW: gettext_noop(
        "Round %(round)s: %(opponent)s counts with %(value)s, their score with every final-round game taken "
        "as a draw (Article 8.3)."
    ),
    R.FORFEIT_COUNTED_AS_GAME: gettext_noop(
        "Round %(round)s: the forfeit counts as a game against %(opponent)s, final score %(value)s (Article "
        "%(article)s)."
    ),
    R.DUMMY_OWN_SCORE: gettext_noop(
        "Round %(round)s was not played: a dummy opponent stands in with the player's own score, %(value)s "
        "(Article %(article)s)."
    ),
    R.DUMMY_CAP_HALF_ROUNDS: gettext_noop(
        "Round %(round)s was not played: a dummy opponent stands in with the player's own score, %(own)s, "
        "capped at half a point per round: %(value)s (Article 16.4.2)."
    ),
    R.DUMMY_CAP_OPPONENT_ADJUSTED: gettext_noop(
        "Round %(round)s was a forfeit: a dummy opponent stands in with the player's own score, %(own)s, "
        "capped at the adjusted score of %(opponent)s, who was scheduled: %(value)s (Article 16.4.1)."
    ),
    R.DUMMY_ZERO: gettext_noop("Round %(round)s was not played: it counts as an opponent with a score of 0."),
    R.UNPLAYED_COUNTS_AS_DRAW: gettext_noop("Round %(round)s: the unplayed round counts as a draw."),
    R.FREE_ROUND: gettext_noop("Round %(round)s was a free round: it is not counted at all (Article 15.2)."),
    R.UNPLAYED_EXCLUDED: gettext_noop("Round %(round)s was not played over the board: it is left out."),
    R.POINTS_SCORED: gettext_noop("Round %(round)s: scored %(points)s."),
    R.RUNNING_SCORE: gettext_noop("After round %(round)s the running score was %(value)s."),
    R.OPPONENT_QUALIFIES: gettext_noop(
        "Round %(round)s: %(opponent)s, final score %(value)s, reaches the limit of %(limit)s, so the "
        "%(points)s scored against them counts."
    ),
    R.OPPONENT_BELOW_LIMIT: gettext_noop(
        "Round %(round)s: %(opponent)s, final score %(value)s, is below the limit of %(limit)s: not counted."
    ),
    R.OPPONENT_RATING: gettext_noop("Round %(round)s: %(opponent)s is rated %(value)s."),
    R.OPPONENT_RATING_IN_ROUND: gettext_noop(
        "Round %(round)s: %(opponent)s was rated %(value)s in that round (a newer rating list)."
    ),
    R.OPPONENT_VALUE: gettext_noop("Round %(round)s: %(opponent)s has %(value)s."),
    R.OPPONENT_VALUE_UNDEFINED: gettext_noop("Round %(round)s: %(opponent)s has no value for this criterion."),
    R.OWN_RATING: gettext_noop("The player's own rating: %(value)s."),
    R.PAIRING_NUMBER: gettext_noop("The player's pairing number: %(value)s."),
    R.DIRECT_ENCOUNTER_MUTUAL_SCORE: gettext_noop(
        "Round %(round)s: scored %(value)s against %(opponent)s, who is tied too."
    ),
}


def _element_text(
    element: Mapping[str, Any],
    code: str,
    details: Mapping[str, Any],
    name_of: NameOf = None,
    isolated: bool = False,
) -> str | None:
    reason = element["reason"]
    params = _units(_element_params(element, details, name_of), isolated)
    sentence = _ROUND_SENTENCES.get(reason)
    if sentence is not None:
        return _(sentence) % params
    if reason == R.LOT_DRAWN:
        return _(
            "Lot %(value)s in the drawing of lots with the published seed %(seed)s: players are ordered by the "
            "SHA-256 hash of the seed, a hyphen and their pairing number (this player's: %(hash)s), lowest first."
        ) % {**params, **_units({"seed": details.get("seed"), "hash": details.get("hash", "")[:16] + "…"}, isolated)}
    decision = _decision_sentence(reason, params, element, details, isolated)
    if decision:
        return decision
    us = _us_sentence(reason, params)
    if us:
        return us
    team = _team_sentence(reason, params, element)
    if team:
        return team
    return _count_sentence(reason, params, element)


def _element_params(element: Mapping[str, Any], details: Mapping[str, Any], name_of: NameOf) -> dict[str, Any]:
    """The placeholders an element's sentence may use, formatted for readers."""
    return {
        "round": element["round"],
        "opponent": _name(name_of, element.get("opponent")),
        "value": fmt(element.get("value")),
        "points": fmt(element.get("points")),
        "contribution": fmt(element.get("contribution")),
        "article": element.get("article") or "",
        "own": fmt(details.get("own_score")),
        "cap": fmt(details.get("dummy_bye_cap")),
        "limit": fmt(details.get("limit")),
        "score": _adjusted_from(element),  # the opponent's final score before adjustments
        # US Chess 34E5: the head-to-head values
        "win": "+1",
        "draw": "0",
        "loss": "−1",
    }


def _count_sentence(reason: str, params: Mapping[str, Any], element: Mapping[str, Any]) -> str | None:
    """The rounds a count criterion (WIN, WON, BPG, BWG, GE, STD; Article 7) counts or leaves out."""
    counted = Decimal(str(element.get("contribution") or 0)) != 0
    if reason == R.NOT_ELECTED:
        return (
            _("Round %(round)s: a requested bye, an absence or a forfeit loss: not a round elected to play.") % params
        )
    if reason == R.CADDY_UNPLAYED_OMITTED:
        return _("Round %(round)s was forfeited or a bye: under the Chess Caddy rules it adds nothing.") % params
    if not counted:
        return _("Round %(round)s does not count for this criterion.") % params
    if reason == R.PLAYED_WITH_BLACK and str(element.get("article") or "").startswith("34"):
        return _("Round %(round)s: a game played with Black (US Chess rule %(article)s).") % params
    count_sentences = {
        R.WIN_ROUND: _("Round %(round)s: the win points were obtained (Article 7.1)."),
        R.WON_OVER_THE_BOARD: _("Round %(round)s: a game won over the board (Article 7.2)."),
        R.PLAYED_WITH_BLACK: _("Round %(round)s: a game played with Black (Article 7.3)."),
        R.WON_WITH_BLACK: _("Round %(round)s: a game won with Black (Article 7.4)."),
        R.ELECTED_TO_PLAY: _("Round %(round)s: a round the player elected to play (Article 7.6)."),
        R.STANDARD_POINTS: _("Round %(round)s: %(contribution)s standard points (Article 7.7)."),
    }
    if reason in count_sentences:
        return count_sentences[reason] % params
    return None


def _decision_sentence(
    reason: str, params: Mapping[str, Any], element: Mapping[str, Any], details: Mapping[str, Any], isolated: bool
) -> str | None:
    """A manual order of players still tied (MAN) and a play-off's games (PO)."""
    if reason == R.MANUAL_PLACE:
        decision = {
            **params,
            **_units(
                {"reason": details.get("reason", ""), "on": details.get("on", ""), "who": details.get("who", "")},
                isolated,
            ),
        }
        if details.get("by") == "organiser":
            return (
                _(
                    "Place %(value)s among the players still tied after the whole tie-break list, by the "
                    "organiser's decision: %(reason)s, on %(on)s by %(who)s."
                )
                % decision
            )
        return (
            _(
                "Place %(value)s among the players still tied after the whole tie-break list, by the chief "
                "arbiter's decision: %(reason)s, on %(on)s by %(who)s."
            )
            % decision
        )
    if reason == R.EXTERNAL_VALUE:
        decision = {
            **params,
            **_units(
                {"reason": details.get("reason", ""), "on": details.get("on", ""), "who": details.get("who", "")},
                isolated,
            ),
        }
        if details.get("by") == "organiser":
            return (
                _(
                    "A value set from outside the computation, %(value)s, by the organiser's decision: %(reason)s, "
                    "on %(on)s by %(who)s."
                )
                % decision
            )
        return (
            _(
                "A value set from outside the computation, %(value)s, by the chief arbiter's decision: %(reason)s, "
                "on %(on)s by %(who)s."
            )
            % decision
        )
    if reason == R.MANUAL_ABOVE:
        return _("Placed above %(opponent)s by this decision.") % params
    points = element.get("points")
    if reason == R.PLAYOFF_ARMAGEDDON_DRAW:
        if points:
            return _("Armageddon game %(round)s: drew with Black against %(opponent)s, which wins.") % params
        return _("Armageddon game %(round)s: drew with White against %(opponent)s, which loses.") % params
    if reason == R.PLAYOFF_GAME:
        if points == 1:
            return _("Play-off game %(round)s: beat %(opponent)s.") % params
        if points == 0:
            return _("Play-off game %(round)s: lost to %(opponent)s.") % params
        return _("Play-off game %(round)s: drew with %(opponent)s.") % params
    return None


def _us_sentence(reason: str, params: Mapping[str, Any]) -> str:
    """US Chess rule 34 (rule sets us-chess and us-chess-cum-full-point)."""
    if reason == R.US_ADJUSTED_SCORE:
        return (
            _(
                "Round %(round)s: %(opponent)s, final score %(score)s, counts with %(value)s: every unplayed "
                "round of theirs counts as a draw (US Chess rule %(article)s)."
            )
            % params
        )
    sentences = {
        R.CUM_UNPLAYED_WIN_SUBTRACTED: _(
            "Round %(round)s was an unplayed win or a one-point bye: its %(points)s is taken off again "
            "(US Chess rule 34E3)."
        ),
        R.CUM_HALF_POINT_BYE_SUBTRACTED: _(
            "Round %(round)s was a half-point bye or another unplayed draw: its %(points)s is taken off again "
            "(US Chess rule 34E3)."
        ),
        R.OPPONENT_CUMULATIVE: _(
            "Round %(round)s: %(opponent)s has a Cumulative tie-break of %(value)s (US Chess rule 34E9)."
        ),
        R.KASHDAN_WIN: _("Round %(round)s: a game won at the board scores %(value)s (US Chess rule 34E7)."),
        R.KASHDAN_DRAW: _("Round %(round)s: a game drawn at the board scores %(value)s (US Chess rule 34E7)."),
        R.KASHDAN_LOSS: _("Round %(round)s: a game lost at the board scores %(value)s (US Chess rule 34E7)."),
        R.HEAD_TO_HEAD_RESULT: _(
            "Round %(round)s: a game against %(opponent)s, who has the same score, counts %(value)s: %(win)s for a "
            "win, %(draw)s for a draw, %(loss)s for a loss (US Chess rule 34E5)."
        ),
    }
    if reason not in sentences:
        return ""
    return sentences[reason] % params


def _team_sentence(reason: str, params: Mapping[str, Any], element: Mapping[str, Any]) -> str:
    """Team events (Articles 11-13): the reason codes of the team engine (tiebreaks.engine.team)."""
    sentences = {
        "team_match_points": _("Round %(round)s: against %(opponent)s, match points %(value)s."),
        "team_game_points": _("Round %(round)s: against %(opponent)s, game points %(value)s."),
        "team_match_forfeited": _(
            "Round %(round)s: the match against %(opponent)s was not played over the board; it counts %(value)s "
            "(Article 16)."
        ),
        "team_bye": _("Round %(round)s: no opponent; it counts %(value)s."),
        "team_pab_default": _(
            "Round %(round)s: a pairing-allocated bye, counted as a drawn match and a win on every board."
        ),
        "team_secondary_score": _("The secondary score: %(value)s (Article 13.1)."),
        "team_esb_element": _(
            "Round %(round)s: %(opponent)s, total %(value)s, times %(points)s scored against them: "
            "%(contribution)s (Article 13.2)."
        ),
        "team_board_points": _("Game points on this board over the event: %(value)s."),
        "team_board_count": _("Board points %(points)s weighted by the board number: %(contribution)s (Article 12.1)."),
        "team_sssc_schedule_share": _(
            "The Buchholz of the primary score, %(value)s, divided by the divisor: %(contribution)s (Article 13.4)."
        ),
        "team_ede_mutual_score": _("Round %(round)s: scored %(value)s against %(opponent)s, who is tied too."),
        "team_ede_knockout_step": _("A knock-out step between the last two tied teams (Article 13.3.2)."),
        "team_board_result": _("Round %(round)s: one board against %(opponent)s counts %(contribution)s."),
        "team_knockout_not_applicable": _(
            "Board criteria apply only among teams equal on match and game points (Article 12)."
        ),
    }
    if reason not in sentences:
        return ""
    return sentences[reason] % params


def trace_note(reason: str | None, details: Mapping[str, Any], name_of: NameOf = None) -> str:
    """A sentence for a reason that concerns the whole value (undefined, direct encounter...)."""
    if not reason:
        return ""
    return str(_trace_notes().get(reason, reason))


def _trace_notes() -> dict[str, str]:
    return {
        R.UNDEFINED_UNRATED_PLAYERS: _(
            "Not computed: unrated players take part and no rating was announced for them (Article 10)."
        ),
        R.UNDEFINED_NO_GAMES: _("Not defined: no game was played over the board."),
        R.LOTS_NOT_DRAWN: _("The lots are not drawn yet: the organiser's tie-break list gives them no seed."),
        R.NO_MANUAL_ORDER: _("No decision places this player: it orders only players still tied after the whole list."),
        R.NO_PLAYOFF: _("This player played no play-off."),
        R.UNDEFINED_NOTHING_LEFT: _("Not defined: the cut removed every element."),
        R.DIRECT_ENCOUNTER_NOT_TIED: _(
            "Direct encounter is used only among players still tied at that point; this player was not (Article 6)."
        ),
        R.DIRECT_ENCOUNTER_SEPARATED_NONE: _(
            "Direct encounter did not separate this player from the others still tied."
        ),
        R.DIRECT_ENCOUNTER_NOT_ALL_MET: _(
            "Not all of the tied players met, so a place is given only where no missing game could change it "
            "(Article 6.3)."
        ),
        "team_knockout_not_applicable": _(
            "Board criteria apply only among teams equal on match and game points (Article 12)."
        ),
    }


def score_class_note(details: Mapping[str, Any], isolated: bool = False) -> str:
    """US Chess 34E1: whether the player's score is plus, even or minus decides what is dropped."""
    reason = details.get("score_class")
    drops = int(details.get("drops_per_side") or 1)
    params = _units(
        {"own": fmt(details.get("own_score")), "maximum": fmt(details.get("maximum")), "count": drops}, isolated
    )
    if reason == R.US_PLUS_SCORE:
        return (
            ngettext(
                "%(own)s of a possible %(maximum)s is a plus score (above half), so the lowest opponent is dropped "
                "(US Chess rule 34E1).",
                "%(own)s of a possible %(maximum)s is a plus score (above half), so the %(count)s lowest opponents "
                "are dropped (US Chess rule 34E1).",
                drops,
            )
            % params
        )
    if reason == R.US_MINUS_SCORE:
        return (
            ngettext(
                "%(own)s of a possible %(maximum)s is a minus score (below half), so the highest opponent is dropped "
                "(US Chess rule 34E1).",
                "%(own)s of a possible %(maximum)s is a minus score (below half), so the %(count)s highest opponents "
                "are dropped (US Chess rule 34E1).",
                drops,
            )
            % params
        )
    if reason == R.US_EVEN_SCORE:
        return (
            ngettext(
                "%(own)s of a possible %(maximum)s is an even score (exactly half), so the lowest and the highest "
                "opponent are dropped (US Chess rule 34E1).",
                "%(own)s of a possible %(maximum)s is an even score (exactly half), so the %(count)s lowest and the "
                "%(count)s highest opponents are dropped (US Chess rule 34E1).",
                drops,
            )
            % params
        )
    return ""


def _arithmetic(trace: Mapping[str, Any], code: str, isolated: bool = False) -> str:
    """The sum behind the value; on pages the calculation reads left to right as one unit."""
    calculation = isolate_ltr if isolated else str
    elements = trace.get("elements") or []
    kept = [e for e in elements if not e.get("removed")]
    value = trace.get("value")
    if value is None or not elements:
        return ""
    name = code.split("/", 1)[0]
    if name in SUM_CRITERIA_WITH_POINTS:
        terms = [f"{fmt(e['value'])} × {fmt(e['points'])}" for e in kept]
    else:
        terms = [fmt(e["contribution"]) for e in kept]
    total = fmt(trace.get("total"))
    left = " + ".join(terms) if terms else "0"
    divisor = trace.get("divisor")
    rounding = trace.get("rounding")
    details = trace.get("details") or {}
    if rounding == "aro_plus_dp":
        return _(
            "Average opponents' rating %(aro)s, plus %(dp)s for a score of %(percentage)s%% over the board: %(value)s."
        ) % {
            **_units({"aro": fmt(details.get("aro")), "dp": fmt(details.get("dp")), "value": fmt(value)}, isolated),
            "percentage": details.get("percentage"),  # with its sign where the language writes it (tr %50)
        }
    if rounding == "lowest_rating_reaching_points":
        return _(
            "%(value)s is the lowest rating whose expected score against these opponents reaches the "
            "%(points)s points scored over the board."
        ) % _units({"value": fmt(value), "points": fmt(details.get("points"))}, isolated)
    if divisor:
        division = {"calculation": calculation(f"({left}) ÷ {divisor} = {fmt(value)}")}
        if rounding == "half_up_0.01":
            return _("%(calculation)s, rounded to two decimals.") % division
        return _("%(calculation)s, rounded to a whole number.") % division
    if name in ("DE", "MAN") or len(terms) < 2:
        return ""  # one term: "Adds ..." already says it
    return calculation(f"{left} = {total}")


def explain_trace(trace: Mapping[str, Any], name_of: NameOf = None, isolated: bool = False) -> ExplainedCriterion:
    """Everything a reader needs to check one value: each element, what was cut, the arithmetic
    (`isolated`: for a page, names and numbers as isolates, shown with tiebreaks.bidi.as_html)."""
    code = trace["criterion"]
    details = trace.get("details") or {}
    name = criterion_name(code)
    elements = []
    for element in trace.get("elements") or []:
        text = element_sentence(element, code, details, name_of, isolated)
        if element.get("vur") and element.get("dummy"):
            text = " ".join([text, _("This is a voluntary unplayed round (Article 16.1.2).")])
        elements.append(
            ExplainedElement(
                round=element.get("round"),
                text=text,
                value=fmt(element.get("value")),
                contribution=fmt(element.get("contribution")),
                kept=not element.get("removed"),
                removed=removal_sentence(element.get("removed")),
                adjustments=[  # one that counts what was awarded changes nothing: "0.5 instead of 0.5"
                    adjustment_sentence(a, isolated)
                    for a in element.get("adjustments") or []
                    if a["awarded"] != a["counted"]
                ],
                dummy=bool(element.get("dummy")),
                opponent=element.get("opponent"),
                product=(
                    f"{fmt(element.get('value'))} × {fmt(element.get('points'))} = {fmt(element.get('contribution'))}"
                    if code.split("/", 1)[0] in SUM_CRITERIA_WITH_POINTS
                    else ""
                ),
            )
        )
    notes = []
    us_rule = name.rule or next(
        (str(e.get("article")) for e in trace.get("elements") or [] if str(e.get("article") or "").startswith("34E")),
        "",
    )
    if us_rule:
        # a US Chess value cites rule 34, never a FIDE Article (SB under us-chess cites 34E8)
        name = replace(name, article="", rule=us_rule)
        notes.append(_("Computed under US Chess rule %(rule)s.") % _units({"rule": us_rule}, isolated))
    score_class = score_class_note(details, isolated)
    if score_class:
        notes.append(score_class)
    note = trace_note(trace.get("reason"), details, name_of)
    if note:
        notes.append(note)
    if code.split("/", 1)[0] == "KS" and "limit" in details:
        notes.append(
            ngettext(
                "Opponents count when their final score is at least %(limit)s (half of %(games)s game).",
                "Opponents count when their final score is at least %(limit)s (half of %(games)s games).",
                details.get("max_games") or 0,
            )
            % _units({"limit": fmt(details["limit"]), "games": details.get("max_games")}, isolated)
        )
    if code.split("/", 1)[0] == "PO" and details.get("place") and trace.get("value") is not None:
        notes.append(
            _(
                "Place %(place)s was decided by a play-off, before the tie-breaks (its games are not rounds of the "
                "event: they count for no points and no tie-break). Play-off score: %(value)s."
            )
            % _units({"place": details["place"], "value": fmt(trace.get("value"))}, isolated)
        )
    if code.split("/", 1)[0] == "DE" and details.get("group") and len(details["group"]) > 1:
        unit = isolate if isolated else str
        players = ", ".join(unit(_name(name_of, n)) for n in details["group"])
        notes.append(
            _("Still tied at this point: %(players)s. Points against them: %(score)s; place in the group: %(place)s.")
            % {
                "players": players,
                **_units({"score": fmt(details.get("mutual_score")), "place": details.get("place")}, isolated),
            }
        )
        if details.get("all_met") is False:
            notes.append(
                _("Not all of them met, so a place is given only where no missing game could change it (Article 6.3).")
            )
    removed = [e for e in elements if not e.kept]
    if removed:
        notes.append(
            ngettext(
                "%(count)s element is removed by the modifier.",
                "%(count)s elements are removed by the modifier.",
                len(removed),
            )
            % _units({"count": len(removed)}, isolated)
        )
    return ExplainedCriterion(
        code=code,
        name=name,
        value=fmt(trace.get("value")),
        elements=elements,
        arithmetic=_arithmetic(trace, code, isolated),
        notes=notes,
        raw_value=trace.get("value"),
    )


def standings_note(note: Mapping[str, Any], isolated: bool = False) -> str:
    """A sentence for a note on the whole standings (criterion skipped, override...)."""
    code = note.get("code")
    criterion = note.get("criterion") or ""
    params = _units({"criterion": criterion_name(criterion).long if criterion else "", "code": criterion}, isolated)
    sentences = _standings_notes()
    if code in sentences:
        return sentences[code] % params
    return str(code)


def _standings_notes() -> dict[str, str]:
    return {
        R.CRITERION_SKIPPED_UNRATED: _(
            "%(criterion)s is not used: unrated players take part and no rating was announced for them (Article 10)."
        ),
        R.ROUND_ROBIN_BUCHHOLZ_OVERRIDE: _(
            "%(criterion)s is used in a round robin by an explicit decision, although FIDE advises against it "
            "(note to Article 8)."
        ),
        R.KOYA_LIMIT_UNSIGNED: _("The Koya limit of %(code)s was read as half points."),
        R.PTS_IGNORED: _("Points are always the first criterion; the extra mention was ignored."),
    }


def reason_sentence(code: str) -> str | None:
    """The sentence a reader sees for any reason code of the engine, filled with sample numbers, or
    None when this module has no sentence for it (tests iterate over every code the engine defines)."""
    element = {
        "round": 3,
        "opponent": 7,
        "value": 2.5,
        "points": 1,
        "contribution": 1,
        "article": "34E1",
        "reason": code,
        "adjustments": [],
    }
    details = {"own_score": 3, "dummy_bye_cap": 2.5, "limit": 2, "maximum": 5, "drops_per_side": 1}
    adjustment = {"round": 3, "awarded": 0, "counted": 0.5, "article": "16.3"}
    candidates = [
        _element_text(element, "BH", details, None),
        _removal_sentences().get(code),
        _adjustment_text(code, adjustment),
        _trace_notes().get(code),
        score_class_note({**details, "score_class": code}),
    ]
    if code in _standings_notes():
        candidates.append(_standings_notes()[code] % {"criterion": _("Buchholz"), "code": "KS/L2"})
    for text in candidates:
        if text:
            return str(text)
    return None


def separation_sentence(
    a_name: str, b_name: str, code: str | None, value_a: Any, value_b: Any, isolated: bool = False
) -> str:
    """Why A is above B (or that nothing separates them)."""
    params = _units({"a": a_name, "b": b_name, "value_a": fmt(value_a), "value_b": fmt(value_b)}, isolated)
    if code is None:
        return _("Nothing separates %(a)s and %(b)s: they share the place.") % params
    if code == "PTS":
        return _("Their points differ: %(a)s has %(value_a)s, %(b)s has %(value_b)s.") % params
    return _("%(criterion)s separates them: %(a)s has %(value_a)s, %(b)s has %(value_b)s.") % {
        **params,
        "criterion": criterion_name(code).long,
    }
