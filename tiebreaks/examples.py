"""The guides' worked examples: small made-up events computed by the engine when a page renders
(never typed-in numbers), with every value explained."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from tiebreaks.engine import RULE_SETS, EngineError, Standings, check_criterion, compute_standings, parse_criterion
from tiebreaks.engine.model import Participant, RoundEntry, Tournament
from tiebreaks.money import money
from tiebreaks.prizes import PlacePrize, PrizeOptions, Standing, split_prizes

from .explanations import ExplainedCriterion, explain_trace, fmt
from .forms import RoundSpec, synthetic_tournament
from .names import criterion_name, rule_set_name


def decimal_text(value: Fraction | int | None) -> str:
    if value is None:
        return fmt(None)
    value = Fraction(value)
    return fmt(Decimal(value.numerator) / Decimal(value.denominator))


def explained_criterion(standings: Standings, number: int, code: str, names: dict[int, str]) -> ExplainedCriterion:
    return explain_trace(standings.explain(number)[code].to_dict(), name_of=names, isolated=True)


# ------------------------------------------------------------------------------ worked examples


def _specs(results: list[tuple[str, float | None]]) -> list[RoundSpec]:
    return [
        RoundSpec(kind, Fraction(score).limit_denominator(2) if score is not None else None) for kind, score in results
    ]


# Three players on 4 of 5 whose opponents' final scores differ in shape (spec T1): one had a
# collapsed opponent, one the strongest schedule, one the flattest.
THREE_PLAYERS: list[tuple[str, list[tuple[str, float | None]]]] = [
    ("Ana", [("loss", 4), ("win", 3), ("win", 3), ("win", 2), ("win", 1)]),
    ("Bo", [("win", 4), ("loss", 3), ("win", 2.5), ("win", 2), ("win", 2)]),
    ("Cai", [("win", 3), ("win", 3), ("loss", 3), ("win", 2.5), ("win", 1)]),
]
ORDERS = [["BH"], ["BH/C1"], ["BH/M1"]]


def three_winners() -> dict[str, Any]:
    players = [(name, _specs(rounds)) for name, rounds in THREE_PLAYERS]
    tournament = synthetic_tournament(players)
    focal = {i + 1: name for i, (name, _rounds) in enumerate(THREE_PLAYERS)}
    rows = []
    winners = []
    for order in ORDERS:
        standings = compute_standings(tournament, order)
        ranked = [row for row in standings.rows if row.start_number in focal]
        winners.append(
            {
                "order": [criterion_name(c) for c in order],
                "winner": ranked[0].name,
                "ranking": [row.name for row in ranked],
            }
        )
    values = compute_standings(tournament, ["BH", "BH/C1", "BH/M1"])
    for number, name in focal.items():
        row = values.row(number)
        opponents = [decimal_text(spec.opponent_score) for spec in players[number - 1][1]]
        rows.append(
            {
                "name": name,
                "points": decimal_text(row.points),
                "opponents": opponents,
                "values": [decimal_text(row.values[c]) for c in ("BH", "BH/C1", "BH/M1")],
            }
        )
    return {
        "rows": rows,
        "winners": winners,
        "columns": [criterion_name(c) for c in ("BH", "BH/C1", "BH/M1")],
        "distinct": len({w["winner"] for w in winners}),
    }


def _with_rating(
    result: tuple[str, float | None] | tuple[str, float | None, int],
) -> tuple[str, float | None, int | None]:
    """(kind, opponent's score, opponent's rating or None) from a result with or without a rating."""
    if len(result) == 3:
        return result
    return (result[0], result[1], None)


def single_player_example(
    results: Sequence[tuple[str, float | None] | tuple[str, float | None, int]],
    criteria: list[str],
    *,
    rating: int | None = None,
) -> dict[str, Any]:
    """One player's rounds with made-up opponents; values and explanations of ``criteria``."""
    specs = [
        RoundSpec(kind, Fraction(score).limit_denominator(2) if score is not None else None, opponent_rating=opp_rating)
        for kind, score, opp_rating in map(_with_rating, results)
    ]
    tournament = synthetic_tournament([(_("the player"), specs)], rating=rating)
    standings = compute_standings(tournament, criteria, explain=True)
    names = {
        p.start_number: _("opponent %(round)s") % {"round": p.name.rsplit("R", 1)[-1]}
        for p in tournament.participants
        if p.start_number != 1
    }
    names[1] = _("the player")
    row = standings.row(1)
    return {
        "rounds": [
            {
                "number": r,
                "kind": dict(_kind_labels()).get(s.kind, s.kind),
                "opponent": decimal_text(s.opponent_score) if s.has_opponent else "",
                "rating": s.opponent_rating or "",
            }
            for r, s in enumerate(specs, start=1)
        ],
        "points": decimal_text(row.points),
        "explained": [explained_criterion(standings, 1, code, names) for code in standings.criteria],
        "values": {code: decimal_text(v) for code, v in row.values.items()},
        "notes": standings.notes,
    }


def _kind_labels() -> list[tuple[str, str]]:
    from .forms import KIND_CHOICES

    return [(k, str(v)) for k, v in KIND_CHOICES if k]


# five-player round robin (spec T2): schedule by round, results from the first player's view
ROUND_ROBIN_NAMES = ["Ana", "Bo", "Cai", "Dev", "Eli"]
ROUND_ROBIN_GAMES = [
    (1, 1, 2, "="),
    (1, 3, 4, "1"),
    (2, 1, 3, "1"),
    (2, 4, 5, "1"),
    (3, 4, 1, "="),
    (3, 5, 2, "0"),
    (4, 1, 5, "1"),
    (4, 3, 2, "="),
    (5, 2, 4, "1"),
    (5, 5, 3, "0"),
]
_OTHER = {"1": "0", "0": "1", "=": "="}


def round_robin_tournament() -> Tournament:
    blocks: dict[int, dict[int, RoundEntry]] = {n: {} for n in range(1, 6)}
    for rnd, white, black, result in ROUND_ROBIN_GAMES:
        blocks[white][rnd] = RoundEntry(code=result, opponent=black, colour="w")
        blocks[black][rnd] = RoundEntry(code=_OTHER[result], opponent=white, colour="b")
    participants = [
        Participant(
            start_number=n,
            name=name,
            rating=None,
            rounds=tuple(blocks[n].get(r, RoundEntry(code="Z")) for r in range(1, 6)),
        )
        for n, name in enumerate(ROUND_ROBIN_NAMES, start=1)
    ]
    return Tournament(participants=participants, total_rounds=5, round_robin=True, name="RR")


def round_robin_example(criteria: list[str] | None = None) -> dict[str, Any]:
    tournament = round_robin_tournament()
    standings = compute_standings(tournament, criteria or ["SB", "DE", "KS"], explain=True)
    names = {n: name for n, name in enumerate(ROUND_ROBIN_NAMES, start=1)}
    results: dict[tuple[int, int], str] = {}
    for _rnd, white, black, result in ROUND_ROBIN_GAMES:
        symbol = {"1": "1", "0": "0", "=": "½"}
        results[(white, black)] = symbol[result]
        results[(black, white)] = symbol[_OTHER[result]]
    grid = [
        {
            "name": names[n],
            "cells": [None if m == n else results.get((n, m), "") for m in names],
            "points": decimal_text(standings.row(n).points),
        }
        for n in names
    ]
    table = [
        {
            "rank": row.rank,
            "name": row.name,
            "points": decimal_text(row.points),
            "values": [decimal_text(row.values[c]) for c in standings.criteria],
        }
        for row in standings.rows
    ]
    return {
        "grid": grid,
        "names": list(names.values()),
        "table": table,
        "columns": [criterion_name(c) for c in standings.criteria],
        "explained": [(names[n], explained_criterion(standings, n, "SB", names)) for n in (1, 2)],
        "koya": [
            (names[n], explained_criterion(standings, n, "KS", names)) for n in (1,) if "KS" in standings.criteria
        ],
        "de": [(names[n], explained_criterion(standings, n, "DE", names)) for n in (1, 2)],
        "bh": {
            names[n]: decimal_text(
                compute_standings(tournament, ["BH"], allow_buchholz_in_round_robin=True).row(n).values["BH"]
            )
            for n in (1, 2)
        },
    }


def counts_example() -> dict[str, Any]:
    players = [
        ("Dana", _specs([("win", 2), ("win", 3), ("win", 3), ("loss", 4), ("win", 2)])),
        ("Emre", _specs([("loss", 4), ("win", 2), ("win", 3), ("win", 3), ("win", 2)])),
        ("Frida", _specs([("forfeit_win", 1), ("win", 3), ("hpb", None), ("win", 3), ("draw", 3)])),
    ]
    tournament = synthetic_tournament(players)
    criteria = ["PS", "WIN", "WON", "BPG", "BWG", "REP", "STD"]
    standings = compute_standings(tournament, criteria, explain=True)
    names = {1: "Dana", 2: "Emre", 3: "Frida"}
    rows = [
        {
            "name": names[n],
            "points": decimal_text(standings.row(n).points),
            "values": [decimal_text(standings.row(n).values[c]) for c in criteria],
        }
        for n in names
    ]
    return {
        "rows": rows,
        "columns": [criterion_name(c) for c in criteria],
        "results": [(name, [dict(_kind_labels())[s.kind] for s in specs]) for name, specs in players],
        "explained": [(names[n], explained_criterion(standings, n, "PS", names)) for n in (1, 2)],
    }


def unplayed_examples() -> dict[str, Any]:
    bye = single_player_example(
        [("win", 3.5), ("win", 3), ("hpb", None), ("win", 2.5), ("win", 2)], ["BH", "BH/C1", "BH/M1", "SB"]
    )
    forfeit = single_player_example(
        [("forfeit_win", 1.5), ("win", 3.5), ("win", 3), ("loss", 4), ("win", 2.5)], ["BH", "BH/C1"]
    )
    return {"bye": bye, "forfeit": forfeit}


def rating_example() -> dict[str, Any]:
    return single_player_example(
        [("win", 2, 1800), ("draw", 3, 2000), ("win", 2.5, 1900), ("loss", 4, 2150), ("win", 3, 1950)],
        ["ARO", "ARO/C1", "TPR"],
        rating=1900,
    )


def rating_unrated_example() -> dict[str, Any]:
    specs = [RoundSpec("win", Fraction(2), None), RoundSpec("draw", Fraction(3), 2000)]
    tournament = synthetic_tournament([(_("the player"), specs)], rating=1900, filler_rating=None)
    standings = compute_standings(tournament, ["ARO"], explain=True)
    from .explanations import standings_note

    return {
        "notes": [standings_note(n.to_dict(), isolated=True) for n in standings.notes],
        "value": decimal_text(standings.row(1).values["ARO"]),
    }


#: what the comparison shows under each rule set the engine offers (FIDE names, then US Chess names)
RULE_SET_CANDIDATES = ["BH", "BH/C1", "BH/M1", "SOLK", "MM", "MED"]
#: the values explained round by round under each family of rules
RULE_SET_EXPLAINED = {"fide-2026": ["BH/C1"], "us-chess": ["MM", "MED"]}


def _offered(rule_set_name_: str, codes: list[str]) -> list[str]:
    rule_set = RULE_SETS[rule_set_name_]
    offered = []
    for code in codes:
        try:
            check_criterion(rule_set, parse_criterion(code))
        except EngineError:
            continue
        offered.append(code)
    return offered


def rule_sets_example() -> dict[str, Any]:
    """The bye example (spec T4) under every rule set the engine offers, computed at render time.

    The opponents' scores come from games only (no byes of theirs), so that every rule set counts
    each opponent with the score shown; the rule sets differ only in the player's own bye."""
    results = [("win", 3.5), ("win", 3), ("hpb", None), ("win", 2.5), ("win", 2)]
    specs = _specs(results)
    tournament = synthetic_tournament([(_("the player"), specs)], played_fillers=True)
    names = {
        p.start_number: _("opponent %(round)s") % {"round": p.name.rsplit("R", 1)[-1]}
        for p in tournament.participants
        if p.start_number != 1
    }
    names[1] = _("the player")
    out = []
    explained = []
    values: dict[str, dict[str, str]] = {}
    for name in sorted(RULE_SETS):
        criteria = _offered(name, RULE_SET_CANDIDATES)
        if not criteria:
            continue
        standings = compute_standings(tournament, criteria, rules=name, explain=True)
        row = standings.row(1)
        values[name] = {c: decimal_text(row.values[c]) for c in criteria}
        out.append(
            {
                "name": rule_set_name(name),
                "code": name,
                "values": [(criterion_name(c), values[name][c]) for c in criteria],
            }
        )
        for code in [c for c in RULE_SET_EXPLAINED.get(name, []) if c in criteria]:
            explained.append((rule_set_name(name), explained_criterion(standings, 1, code, names)))
    base = single_player_example(results, ["BH"])
    return {
        "rule_sets": out,
        "rounds": base["rounds"],
        "points": base["points"],
        "by_rule_set": explained,
        "fide_bh": values.get("fide-2026", {}).get("BH", fmt(None)),
        "us_solkoff": values.get("us-chess", {}).get("SOLK", fmt(None)),
        "us_mm": values.get("us-chess", {}).get("MM", fmt(None)),
        "us_median": values.get("us-chess", {}).get("MED", fmt(None)),
    }


def prize_example() -> dict[str, Any]:
    standings = [
        Standing("a", "Ana", Fraction(4), (("BH/C1", Fraction(12)),)),
        Standing("b", "Bo", Fraction(4), (("BH/C1", Fraction(23, 2)),)),
        Standing("c", "Cai", Fraction(3), (("BH/C1", Fraction(11)),)),
    ]
    prizes = [PlacePrize(1, 20000, _("trophy")), PlacePrize(2, 10000), PlacePrize(3, 5000)]
    out = []
    for method, label in (("pool", _("Pooled (the usual convention)")), ("none", _("Tiebreak decides the money"))):
        result = split_prizes(standings, prizes, PrizeOptions(method=method, currency="EUR"))
        out.append(
            {
                "label": label,
                "awards": [
                    {
                        "name": s.name,
                        "money": money(result.money_of(s.participant_id), "EUR"),
                        "items": ", ".join(result.items_of(s.participant_id)),
                    }
                    for s in standings
                ],
            }
        )
    return {
        "methods": out,
        "prizes": [(p.place, money(p.amount, "EUR"), p.item or "") for p in prizes],
        "standings": [(s.name, decimal_text(s.points), decimal_text(s.tiebreak_values[0][1])) for s in standings],
    }


EXAMPLES = {
    "buchholz": lambda: {"three": three_winners(), "unplayed": unplayed_examples()},
    "sonneborn-berger": lambda: {"rr": round_robin_example()},
    "direct-encounter": lambda: {"rr": round_robin_example(["DE", "SB"])},
    "counts": lambda: {"counts": counts_example()},
    "rating": lambda: {"rating": rating_example(), "unrated": rating_unrated_example()},
    "unplayed-rounds": lambda: {"unplayed": unplayed_examples()},
    "fide-vs-us-chess": lambda: {"rules": rule_sets_example()},
    "prizes": lambda: {"prize": prize_example()},
}
