"""The prize split in words: the fund's rules, its prizes and line by line who receives what and why.

The stored allocation holds reason codes with parameters (:data:`tiebreaks.prizes.REASONS`); this
module is the one place that turns them into whole translated sentences with named placeholders, and
minor units into money. The prize page (leagues/public/prizes.py), the API (``text`` of each line,
leagues/api/prizes.py) and the organiser's prize preview (leagues/manage/setup_views.py) all use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tiebreaks.bidi import isolate, isolate_range
from tiebreaks.explanations import fmt
from tiebreaks.money import money
from tiebreaks.names import criterion_name

from .models import Prize, PrizeFund
from .services.prizes import EventPrizes


def _names(names: Sequence[str]) -> str:
    """Names as a list a reader can parse: "A and B", or with semicolons when names hold commas."""
    names = [str(n) for n in names]
    if len(names) < 2:
        return "".join(names)
    separator = "; " if any("," in n for n in names) else ", "
    return _("%(names)s and %(last)s") % {"names": separator.join(names[:-1]), "last": names[-1]}


def _amounts(prizes: Sequence[Sequence[Any]], currency: str) -> str:
    """The pooled prizes as "£200 + £100" (each pair is (place or rank, amount))."""
    return " + ".join(money(amount, currency) for _number, amount in prizes)


def _criterion(code: str | None) -> str:
    return criterion_name(code).long if code else ""


def _prize_label(prize: Sequence[Any], currency: str) -> str:
    return _("place %(place)s (%(amount)s)") % {"place": prize[0], "amount": money(prize[1], currency)}


def _category_label(prize: Sequence[Any], currency: str) -> str:
    key, rank, amount = prize
    return _("%(category)s prize %(rank)s (%(amount)s)") % {
        "category": key,
        "rank": rank,
        "amount": money(amount, currency),
    }


def club_team_label(rank: int) -> str:
    """A best club team prize as readers see it: "Best club team", or "Best club team, rank 2"."""
    name = capfirst(str(Prize.Kind.CLUB_TEAM.label))
    if rank == 1:
        return name
    return _("%(category)s, rank %(rank)s") % {"category": name, "rank": rank}


def _club_players(team: Mapping[str, Any]) -> str:
    """The players a club team counts, with their points: "Ana 5 + Bo 4½ + Cai 3"."""
    return " + ".join(f"{name} {fmt(points)}" for _number, name, points in team["players"])


def _where(params: Mapping[str, Any]) -> str:
    """Which prize an item or an unpaid prize belongs to: a place, a category's rank or a club team rank."""
    if params.get("club_team") is not None:
        name = str(Prize.Kind.CLUB_TEAM.label)
        if params["club_team"] == 1:
            return _("the %(category)s category") % {"category": name}
        return _("the %(category)s category, rank %(rank)s") % {"category": name, "rank": params["club_team"]}
    if params.get("place") is not None:
        return _("place %(place)s") % {"place": params["place"]}
    if params.get("rank", 1) == 1:
        return _("the %(category)s category") % {"category": params["category"]}
    return _("the %(category)s category, rank %(rank)s") % {"category": params["category"], "rank": params["rank"]}


def line_sentence(code: str, params: Mapping[str, Any], currency: str, isolated: bool = False) -> str:
    """One explanation line of the prize split as a whole translated sentence; `isolated`: its names, ranges
    and amounts marked as units of their own direction (pages; see tiebreaks.bidi). A code without a
    sentence is shown as it is."""
    sentence = _SENTENCES.get(code)
    return sentence(_Line(params, currency, isolated)) if sentence else code


@dataclass(frozen=True)
class _Line:
    """One stored line's parameters, and how its sentence writes names, ranges and amounts."""

    p: Mapping[str, Any]
    currency: str
    isolated: bool

    def unit(self, value: object) -> str:
        return isolate(value) if self.isolated else str(value)

    def span(self, first: object, last: object) -> tuple[object, object]:
        return isolate_range(first, last) if self.isolated else (first, last)

    def m(self, amount: int) -> str:
        """An amount in minor units as money."""
        return self.unit(money(amount, self.currency))

    def pooled(self) -> str:
        """The pooled prizes as one unit: "£200 + £100"."""
        return self.unit(_amounts(self.p["prizes"], self.currency))

    @cached_property
    def names(self) -> str:
        return _names([self.unit(name) for name in self.p.get("names", ())])

    @property
    def count(self) -> int:
        """How many players the line names (the plural of its sentence)."""
        return len(self.p.get("names", ()))


def _place_prize(line: _Line) -> str:
    p = line.p
    return _("Place %(place)s to %(name)s: %(amount)s.") % {
        "place": p["places"][0],
        "name": line.names,
        "amount": line.m(p["share"]),
    }


def _places_shared_pooled(line: _Line) -> str:
    first, last = line.span(*line.p["places"])
    return _("Places %(first)s–%(last)s shared by %(names)s: %(prizes)s pooled, %(share)s each.") % {
        "first": first,
        "last": last,
        "names": line.names,
        "prizes": line.pooled(),
        "share": line.m(line.p["share"]),
    }


def _category_prize(line: _Line) -> str:
    p = line.p
    if p["ranks"][0] == 1:
        return _("%(category)s prize to %(name)s: %(amount)s.") % {
            "category": p["category"],
            "name": line.names,
            "amount": line.m(p["share"]),
        }
    return _("%(category)s prize %(rank)s to %(name)s: %(amount)s.") % {
        "category": p["category"],
        "rank": p["ranks"][0],
        "name": line.names,
        "amount": line.m(p["share"]),
    }


def _category_shared_pooled(line: _Line) -> str:
    first, last = line.span(*line.p["ranks"])
    return _("%(category)s, ranks %(first)s–%(last)s, shared by %(names)s: %(prizes)s pooled, %(share)s each.") % {
        "category": line.p["category"],
        "first": first,
        "last": last,
        "names": line.names,
        "prizes": line.pooled(),
        "share": line.m(line.p["share"]),
    }


def _club_team_prize(line: _Line) -> str:
    p = line.p
    return _(
        "%(prize)s: %(club)s, whose best players scored %(total)s points together (%(players)s), receives %(amount)s."
    ) % {
        "prize": club_team_label(p["ranks"][0]),
        "club": p["name"],
        "total": fmt(p["total"]),
        "players": _club_players(p),
        "amount": line.m(p["share"]),
    }


def _club_team_shared(line: _Line) -> str:
    p = line.p
    return _(
        "%(prize)s: %(clubs)s, tied on %(total)s points of their best players (%(players)s), share %(prizes)s "
        "pooled, %(share)s each."
    ) % {
        "prize": club_team_label(p["ranks"][0]),
        "clubs": line.names,
        "total": fmt(p["total"]),
        "players": "; ".join(f"{team['name']}: {_club_players(team)}" for team in p["teams"]),
        "prizes": line.pooled(),
        "share": line.m(p["share"]),
    }


def _us32b3_pooled(line: _Line) -> str:
    p = line.p
    labels = [_prize_label(x, line.currency) for x in p["prizes"]]
    labels += [_category_label(x, line.currency) for x in p["category_prizes"]]
    return _(
        "Tied on points, %(names)s each bring at most one prize into a common pool (US Chess 32B3): "
        "%(prizes)s, together %(total)s, %(share)s each."
    ) % {"names": line.names, "prizes": " + ".join(labels), "total": line.m(p["total"]), "share": line.m(p["share"])}


def _us32b3_category_alone(line: _Line) -> str:
    p = line.p
    return ngettext(
        "%(names)s gets more from the %(category)s prize alone, which the others tied on points cannot win "
        "(US Chess 32B3): %(share)s instead of %(pooled_share)s from the pool.",
        "%(names)s get more by sharing only the %(category)s prize, which the others tied on points cannot "
        "win (US Chess 32B3): %(share)s each instead of %(pooled_share)s from the pool.",
        line.count,
    ) % {
        "names": line.names,
        "category": p["category"],
        "share": line.m(p["share"]),
        "pooled_share": line.m(p["pooled_share"]),
    }


def _better_prize_taken(line: _Line) -> str:
    p = line.p
    values = {"names": line.names, "taken": line.m(p["taken_share"]), "declined": line.m(p["declined_share"])}
    if p["taken"][0] == "category":
        return ngettext(
            "One money prize per player: %(names)s takes the %(category)s prize (%(taken)s) instead of the "
            "place money (%(declined)s), which passes to the next player.",
            "One money prize per player: %(names)s take the %(category)s prize (%(taken)s each) instead of the "
            "place money (%(declined)s each), which passes to the next player.",
            line.count,
        ) % {**values, "category": p["taken"][1]}
    return ngettext(
        "One money prize per player: %(names)s keeps the place money (%(taken)s) rather than the %(category)s "
        "prize (%(declined)s), which passes to the next eligible player.",
        "One money prize per player: %(names)s keep the place money (%(taken)s each) rather than the "
        "%(category)s prize (%(declined)s each), which passes to the next eligible player.",
        line.count,
    ) % {**values, "category": p["declined"][1]}


def _money_by_tiebreak(line: _Line) -> str:
    p = line.p
    if not p.get("criterion"):
        return _("No pooling: %(name)s is paid ahead of %(other)s, tied on points; nothing separates them.") % {
            "name": p["name"],
            "other": p["other_name"],
        }
    return _(
        "No pooling: %(name)s is paid ahead of %(other)s, tied on points, by %(criterion)s: %(value)s against "
        "%(other_value)s."
    ) % {
        "name": p["name"],
        "other": p["other_name"],
        "criterion": _criterion(p["criterion"]),
        "value": fmt(p["value"]),
        "other_value": fmt(p["other_value"]),
    }


def _remainder_unpaid(line: _Line) -> str:
    return _("The shares are rounded down: %(amount)s remains with the organiser.") % {
        "amount": line.m(line.p["amount"])
    }


def _remainder_by_tiebreak(line: _Line) -> str:
    return _("The remaining %(amount)s is paid out one smallest unit at a time in tiebreak order: to %(names)s.") % {
        "amount": line.m(line.p["amount"]),
        "names": line.names,
    }


def _item(line: _Line) -> str:
    p = line.p
    return _("%(item)s for %(where)s to %(name)s.") % {"item": p["item"], "where": _where(p), "name": p["name"]}


def _item_by_tiebreak(line: _Line) -> str:
    p = line.p
    return _(
        "%(item)s for %(where)s to %(name)s, ahead of %(other)s on %(criterion)s: %(value)s against %(other_value)s."
    ) % {
        "item": p["item"],
        "where": _where(p),
        "name": p["name"],
        "other": p["other_name"],
        "criterion": _criterion(p["criterion"]),
        "value": fmt(p["value"]),
        "other_value": fmt(p["other_value"]),
    }


def _item_by_lot(line: _Line) -> str:
    p = line.p
    return _(
        "%(item)s for %(where)s to %(name)s by the drawing of lots among %(names)s, still tied after every tiebreak."
    ) % {"item": p["item"], "where": _where(p), "name": line.unit(p["name"]), "names": line.names}


def _item_needs_lot(line: _Line) -> str:
    return _("%(item)s for %(where)s: %(names)s are still tied after every tiebreak, so a drawing of lots decides.") % {
        "item": line.p["item"],
        "where": _where(line.p),
        "names": line.names,
    }


def _item_shared(line: _Line) -> str:
    return _("%(item)s for %(where)s shared by %(names)s, still tied after every tiebreak, as the event rules say.") % {
        "item": line.p["item"],
        "where": _where(line.p),
        "names": line.names,
    }


def _no_eligible_winner(line: _Line) -> str:
    p = line.p
    if p.get("amount"):
        return _("Nobody can receive the prize for %(where)s; its %(amount)s is not paid.") % {
            "where": _where(p),
            "amount": line.m(p["amount"]),
        }
    return _("Nobody can receive the %(item)s for %(where)s.") % {"item": p.get("item") or "", "where": _where(p)}


#: the sentence of each reason code of the prize split (tiebreaks.prizes.REASONS)
_SENTENCES: dict[str, Callable[[_Line], str]] = {
    "place_prize": _place_prize,
    "places_shared_pooled": _places_shared_pooled,
    "category_prize": _category_prize,
    "category_shared_pooled": _category_shared_pooled,
    "club_team_prize": _club_team_prize,
    "club_team_shared": _club_team_shared,
    "us32b3_pooled": _us32b3_pooled,
    "us32b3_category_alone": _us32b3_category_alone,
    "better_prize_taken": _better_prize_taken,
    "money_by_tiebreak": _money_by_tiebreak,
    "remainder_unpaid": _remainder_unpaid,
    "remainder_by_tiebreak": _remainder_by_tiebreak,
    "place_item": _item,
    "category_item": _item,
    "item_by_tiebreak": _item_by_tiebreak,
    "item_by_lot": _item_by_lot,
    "item_needs_lot": _item_needs_lot,
    "item_shared": _item_shared,
    "no_eligible_winner": _no_eligible_winner,
}


def lines_with_text(prizes: EventPrizes, isolated: bool = False) -> list[dict[str, Any]]:
    """The stored lines, each with its sentence (shared by the page, isolated, and the API)."""
    if prizes.allocation is None:
        return []
    currency = prizes.allocation.currency
    return [
        {
            "code": line["code"],
            "params": line["params"],
            "text": line_sentence(line["code"], line["params"], currency, isolated),
        }
        for line in prizes.allocation.lines
    ]


def method_sentences(fund: PrizeFund) -> list[str]:
    """The fund's rules in words, shown above the split (spec §14: show the rounding rule)."""
    out = [
        {
            PrizeFund.Method.POOL: _(
                "Players tied on points share equally the money of the places they occupy; tiebreaks decide only "
                "indivisible prizes."
            ),
            PrizeFund.Method.US_32B3: _(
                "US Chess 32B3: each player tied on points brings at most one prize into a common pool, shared "
                "equally, unless some of them get more by sharing a prize the others cannot win."
            ),
            PrizeFund.Method.NONE: _("No pooling: the tiebreak order decides the money as well as the items."),
        }[PrizeFund.Method(fund.method)]
    ]
    if fund.one_prize_per_player:
        out.append(_("Each player receives at most one money prize, the most valuable one; items do not count."))
    if fund.places_first:
        out.append(_("Place prizes come first; category prizes go only to players who won no place money."))
    if fund.item_tie == PrizeFund.ItemTie.SHARED:
        out.append(
            _(
                "Trophies and other items go by the published tiebreak order; players still tied after every "
                "tiebreak share them."
            )
        )
    else:
        out.append(
            _(
                "Trophies and other items go by the published tiebreak order; if players are still tied after "
                "every tiebreak, a drawing of lots decides."
            )
        )
    if fund.remainder == PrizeFund.Remainder.BY_TIEBREAK:
        out.append(
            _("Shares are rounded down to the smallest unit; the remainder is paid one unit each in tiebreak order.")
        )
    else:
        out.append(_("Shares are rounded down to the smallest unit; the remainder stays with the organiser."))
    return out


def prize_rows(prizes: EventPrizes) -> list[dict[str, Any]]:
    if prizes.fund is None:
        raise RuntimeError("the rows of a published fund")
    currency = prizes.fund.currency
    rows = []
    for prize in prizes.prizes:
        if prize.kind == Prize.Kind.PLACE:
            label = _("Place %(place)s") % {"place": prize.place}
        elif prize.kind == Prize.Kind.CLUB_TEAM:
            label = club_team_label(prize.rank)
        else:
            label = _("%(category)s, rank %(rank)s") % {"category": prize.category, "rank": prize.rank}
        rows.append(
            {"label": label, "amount": money(prize.amount, currency) if prize.amount else "", "item": prize.item}
        )
    return rows
