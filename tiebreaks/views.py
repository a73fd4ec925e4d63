"""Tiebreak guides and the calculator.

These are the only pages that run the engine on a request, and only on small made-up data: the
guides' worked examples (:mod:`.examples`) are computed when the page renders, and the calculator
ranks the crosstable it builds from the visitor's rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tiebreaks.engine import compute_standings

from .examples import EXAMPLES, decimal_text, explained_criterion, three_winners
from .explanations import ExplainedCriterion
from .forms import CalculatorForm, parse_round_count, synthetic_tournament
from .names import criterion_name, every_criterion_name, rule_set_name


def _names() -> dict[str, Any]:
    return {"pts": criterion_name("PTS"), "names": every_criterion_name()}


GUIDES: dict[str, Any] = {
    "buchholz": gettext_lazy("Buchholz and its cuts"),
    "sonneborn-berger": gettext_lazy("Sonneborn-Berger and Koya"),
    "direct-encounter": gettext_lazy("Direct encounter"),
    "counts": gettext_lazy("Counting criteria: wins, games, progressive score"),
    "rating": gettext_lazy("Rating-based criteria"),
    "unplayed-rounds": gettext_lazy("Unplayed rounds: byes, forfeits and the dummy opponent"),
    "fide-vs-us-chess": gettext_lazy("FIDE and US Chess compared"),
    "prizes": gettext_lazy("Prize money: pool it, break ties for the trophy"),
}

CALCULATOR_CRITERIA = ["BH", "BH/C1", "BH/C2", "BH/M1", "SB", "SB/C1", "PS", "WIN", "WON", "REP"]


# ----------------------------------------------------------------------------------------- views


def guides(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tiebreaks/guides.html",
        {
            "guides": list(GUIDES.items()),
            "three": three_winners(),
            **_names(),
        },
    )


def guide(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in GUIDES:
        raise Http404
    context = {"slug": slug, "title": GUIDES[slug], "guides": list(GUIDES.items()), **_names(), **EXAMPLES[slug]()}
    return render(request, f"tiebreaks/guide_{slug.replace('-', '_')}.html", context)


@dataclass
class CalculatorResult:
    points: str
    values: list[tuple[Any, str]]
    explained: list[ExplainedCriterion]


def calculator(request: HttpRequest) -> HttpResponse:
    # "Set" (resize) re-renders the rows and keeps what was typed; "Calculate" validates
    resizing = "resize" in request.GET
    submitted = not resizing and any(key.startswith("kind_") for key in request.GET)
    round_count = parse_round_count(request.GET.get("rounds"))
    if submitted:
        form = CalculatorForm(request.GET, round_count=round_count)
    else:
        form = CalculatorForm(round_count=round_count, initial=request.GET.dict())
    result = None
    if submitted and form.is_valid():
        specs = form.cleaned_data["specs"]
        tournament = synthetic_tournament([(_("you"), specs)], name="calculator")
        standings = compute_standings(tournament, CALCULATOR_CRITERIA, explain=True)
        names = {
            p.start_number: _("your opponent in round %(round)s") % {"round": p.name.rsplit("R", 1)[-1]}
            for p in tournament.participants
            if p.start_number != 1
        }
        names[1] = _("you")
        row = standings.row(1)
        result = CalculatorResult(
            points=decimal_text(row.points),
            values=[(criterion_name(code), decimal_text(row.values[code])) for code in standings.criteria],
            explained=[explained_criterion(standings, 1, code, names) for code in standings.criteria],
        )
    return render(
        request,
        "tiebreaks/calculator.html",
        {
            "form": form,
            "result": result,
            "round_count": round_count,
            "rules_name": rule_set_name("fide-2026"),
            "round_choices": range(1, 16),
            "live": submitted,
            **_names(),
        },
    )
