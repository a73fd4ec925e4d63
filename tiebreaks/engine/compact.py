"""Explanations in a compact form that is cheap to build and to store, and reads back exactly as
:meth:`Trace.to_dict` (issue #37).

One participant's traces are one JSON object: ``{"~": 1, "sn": start number, "s": shared columns,
"t": {code: trace}}``. The columns every criterion of the Buchholz / Sonneborn-Berger families shows
(opponents, their adjusted scores, dummies, reasons, Articles, points per round) are stored once per
participant in ``s`` and referred to as ``"@name"``; a trace stores only what is its own (the cuts,
contributions, totals). Every number is exact: a column of numbers is ``[den, n1, n2, ...]`` (each value
``n / den``, ``None`` undefined), a single number ``[num, den]``. The criteria read most (PTS, BH, FB,
SB, PS and the counts) are built straight from the engine's scaled integers, without a Fraction; the
others are converted from their :class:`Trace`.

A trace: ``k`` elements; columns ``r`` round, ``o`` opponent, ``dm`` dummy, ``ev`` value, ``pt``
points, ``c`` contribution, ``rs`` reason, ``a`` article, ``vur``, each a list, a reference or one
value for every element; ``x`` {position: cut reason}, ``adj`` {position: the opponent's adjusted
rounds}; ``v`` value, ``T`` total, ``n`` divisor, ``R`` rounding, ``w`` reason; details in ``det``
(as JSON) and ``dq`` (exact numbers).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from operator import mul
from typing import Any

from . import reasons as R
from .context import Context
from .counts import _REASONS, _round_flags
from .criteria import Criterion
from .explain import Trace, _plain
from .rules import OpponentUnplayed
from .unplayed import adjustments_of, cut_elements

FORMAT = 1
_COUNTS = frozenset({"WIN", "WON", "BPG", "BWG", "REP", "STD"})
#: the criteria whose trace of a participant reads nothing but the event's settings and the rounds of the participant
#: and of the opponents they met or are paired with (SB in its FIDE form too): TraceInputs
_OWN_AND_OPPONENTS = frozenset({"BH", "FB", "PS", *_COUNTS})

Compact = dict[str, Any]


def is_compact(stored: Any) -> bool:
    """Whether a stored participant's traces are in this form (older snapshots hold the dicts)."""
    return isinstance(stored, dict) and stored.get("~") == FORMAT


# ------------------------------------------------------------------------------------- building


def _numbers(values: Sequence[Fraction | int | None]) -> list[int | None] | None:
    """A column of exact numbers as ``[den, n...]``; None when every value is undefined."""
    if all(v is None for v in values):
        return None
    den = 1
    for v in values:
        if isinstance(v, Fraction):
            den = lcm(den, v.denominator)
    out: list[int | None] = [den]
    for v in values:
        if v is None:
            out.append(None)
        elif isinstance(v, Fraction):
            out.append(v.numerator * (den // v.denominator))
        else:
            out.append(int(v) * den)
    return out


def _number(value: Fraction | int | None) -> list[int] | None:
    if value is None:
        return None
    if isinstance(value, Fraction):
        return [value.numerator, value.denominator]
    return [int(value), 1]


def _column(values: Sequence[Any]) -> Any:
    """One value for every element when they are all equal (a text never starting with "@"), else the list."""
    if values:
        first = values[0]
        # all equal and of one type (True is not 1), counted and typed in C rather than compared one by one
        if values.count(first) == len(values) and len(set(map(type, values))) == 1:
            if not (isinstance(first, str) and first.startswith("@")):
                return first
    return list(values)


def _with_details(out: Compact, details: dict[str, Any]) -> Compact:
    plain = {k: _plain(v) for k, v in details.items() if not isinstance(v, Fraction)}
    exact = {k: [v.numerator, v.denominator] for k, v in details.items() if isinstance(v, Fraction)}
    if plain:
        out["det"] = plain
    if exact:
        out["dq"] = exact
    return out


def compact_trace(trace: Trace) -> Compact:
    """Any trace in the compact form (the criteria without a builder of their own)."""
    els = trace.elements
    out: Compact = {"k": len(els), "v": _number(trace.value), "T": _number(trace.total)}
    if els:
        out["r"] = _column([e.round for e in els])
        out["o"] = _column([e.opponent for e in els])
        out["dm"] = _column([e.dummy for e in els])
        out["ev"] = _numbers([e.value for e in els])
        out["pt"] = _numbers([e.points for e in els])
        out["c"] = _numbers([e.contribution for e in els])
        out["rs"] = _column([e.reason for e in els])
        out["a"] = _column([e.article for e in els])
        out["vur"] = _column([e.vur for e in els])
        removed = {str(j): e.removed for j, e in enumerate(els) if e.removed is not None}
        if removed:
            out["x"] = removed
        adjustments = {str(j): [a.to_dict() for a in e.adjustments] for j, e in enumerate(els) if e.adjustments}
        if adjustments:
            out["adj"] = adjustments
    if trace.divisor is not None:
        out["n"] = trace.divisor
    if trace.rounding is not None:
        out["R"] = trace.rounding
    if trace.reason is not None:
        out["w"] = trace.reason
    return _with_details(out, trace.details)


@dataclass(frozen=True)
class TraceInputs:
    """What participants' compact traces are built from, to tell whose are the same as in standings computed before:
    the settings every trace reads (`common`) and, by start number, the participant's own rounds with those of each
    opponent they met or are paired with (`of`). One result changes the inputs of its two players and of their
    opponents; an open's other participants keep theirs, and their traces."""

    common: tuple[Any, ...]
    of: dict[str, tuple[Any, ...]]

    def unchanged(self, before: TraceInputs | None) -> set[str]:
        """The start numbers whose traces are those built from `before` (none when the settings differ)."""
        if before is None or before.common != self.common:
            return set()
        known = before.of
        return {number for number, inputs in self.of.items() if known.get(number) == inputs}


class ParticipantBuilder:
    """Builds participants' compact traces from one computed standings' context."""

    def __init__(self, ctx: Context, criteria: Sequence[Criterion], fallback: Callable[[Criterion, int], Trace]):
        self.ctx = ctx
        self.criteria = criteria
        self.fallback = fallback
        self.sb_fide = ctx.rules.opponent_unplayed is not OpponentUnplayed.ALL_AS_DRAWS

    def inputs(self) -> TraceInputs | None:
        """Every participant's TraceInputs; None when a criterion reads more (ratings, ranks, a whole score group),
        and a participant with a value set from outside is left out (built each time)."""
        if not all(c.name in _OWN_AND_OPPONENTS or (c.name == "SB" and self.sb_fide) for c in self.criteria):
            return None
        ct = self.ctx.ct
        sn = ct.start_numbers
        last = ct.paired_last if ct.k else [-1] * ct.n_players
        own = [
            (number, kinds, [sn[o] if o >= 0 else 0 for o in opps], pts, black, halves, sn[at] if at >= 0 else 0)
            for number, kinds, opps, pts, black, halves, at in zip(
                sn, ct.kinds, ct.opps, ct.pts, ct.black, ct.halves, last, strict=True
            )
        ]
        tournament = self.ctx.tournament
        external = {v.start_number for v in tournament.external_values}
        of: dict[str, tuple[Any, ...]] = {}
        for i, number in enumerate(sn):
            if number not in external:
                met = {o for o in ct.opps[i] if o >= 0}
                if last[i] >= 0:
                    met.add(last[i])
                of[str(number)] = (own[i], *(own[o] for o in sorted(met)))
        scoring = (ct.unit, ct.W, ct.D, ct.L, ct.A, ct.P, ct.X)
        common = (tuple(self.criteria), self.ctx.rules, ct.k, scoring, ct.round_robin, tournament.total_rounds)
        return TraceInputs(common + tuple(tournament.external_values), of)

    def build(self, i: int) -> Compact:
        ctx = self.ctx
        ct = ctx.ct
        sn = ct.start_numbers
        unit = ct.unit
        opps = ct.opps[i]
        shared: Compact = {
            "r": list(range(1, len(opps) + 1)),
            "o": [sn[o] if o >= 0 else None for o in opps],
            "pt": [unit, *ct.pts[i]],
        }
        score = [ct.score[i], unit]
        traces: Compact = {
            "PTS": {
                "k": len(opps),
                "v": score,
                "T": score,
                "dm": False,
                "ev": None,
                "c": "@pt",
                "rs": R.POINTS_SCORED,
                "a": "4.2",
                "vur": False,
            }
        }
        external = {v.criterion.upper() for v in ctx.tournament.external_values if v.start_number == sn[i]}
        for crit in self.criteria:
            name = crit.name
            if crit.code in external:  # a value set from outside, with its reason
                trace = compact_trace(self.fallback(crit, i))
            elif name == "BH" or name == "FB":
                trace = self._buchholz(crit, i, shared)
            elif name == "SB" and self.sb_fide:
                trace = self._sonneborn(crit, i, shared)
            elif name == "PS":
                trace = self._progressive(crit, i)
            elif name in _COUNTS:
                trace = self._count(crit, i)
            else:
                trace = compact_trace(self.fallback(crit, i))
            traces[crit.code] = trace
        return {"~": FORMAT, "sn": sn[i], "s": shared, "t": traces}

    def _elements(self, base: Context, forfeits_as_games: bool, i: int, shared: Compact) -> str:
        """Participant ``i``'s Article 16 elements as shared columns (once per participant); their prefix."""
        tag = ("f" if base is not self.ctx else "b") + ("p" if forfeits_as_games else "")
        if tag + "r" in shared:
            return tag
        a16 = base.a16
        els = a16.elements(forfeits_as_games)[i]
        unit = base.ct.unit
        sn = base.ct.start_numbers
        if els:
            rounds, values, points, opps, dummies, vurs, reasons, articles = zip(*els, strict=True)
        else:
            rounds = values = points = opps = dummies = vurs = reasons = articles = ()
        shared[tag + "r"] = [r + 1 for r in rounds]
        shared[tag + "o"] = [sn[o] if o >= 0 else None for o in opps]
        shared[tag + "dm"] = _column(dummies)
        shared[tag + "ev"] = [unit, *values]
        shared[tag + "pt"] = [unit, *points]
        shared[tag + "rs"] = _column(reasons)
        shared[tag + "a"] = _column(articles)
        shared[tag + "vur"] = _column(vurs)
        late = a16.adjusted_rounds
        adjusted = {
            str(j): [a.to_dict() for a in adjustments_of(a16, o)] for j, o in enumerate(opps) if o >= 0 and late[o]
        }
        if adjusted:
            shared[tag + "adj"] = adjusted
        return tag

    def _details(self, base: Context, i: int, tag: str, shared: Compact) -> None:
        """A Buchholz trace's details, once per participant and scores (BH, its cuts, /P share them)."""
        if tag + "dq" in shared:
            return
        a16 = base.a16
        unit = base.ct.unit
        shared[tag + "det"] = {"adjusted_rounds": [a.to_dict() for a in adjustments_of(a16, i)]}
        shared[tag + "dq"] = {
            "own_score": [base.ct.score[i], unit],
            "adjusted_score": [a16.adjusted[i], unit],
            "dummy_bye_cap": [a16.cap_bye, unit],
        }

    def _buchholz(self, crit: Criterion, i: int, shared: Compact) -> Compact:
        ctx = self.ctx
        base = ctx.fore if crit.name == "FB" else ctx
        a16 = base.a16
        ct = base.ct
        unit = ct.unit
        tag = self._elements(base, crit.forfeits_as_games, i, shared)
        els = a16.elements(crit.forfeits_as_games)[i]
        values = shared[tag + "ev"][1:]
        removals = (
            cut_elements(
                [(v, 0) for v in values],
                values,
                [e.vur for e in els],
                low=crit.cut + crit.median,
                high=crit.median,
                vur_first=base.rules.cut_vur_first,
            )
            if crit.cut or crit.median
            else []
        )
        out: Compact = {"k": len(values), "e": tag, "c": f"@{tag}ev"}
        total = sum(values)
        if removals:
            out["x"] = {str(r.position): r.reason for r in removals}
            total -= sum(values[r.position] for r in removals)
        out["v"] = out["T"] = [total, unit]
        if crit.name == "FB":
            fore_round = ct.k - 1
            if any(e.round == fore_round and e.opponent >= 0 and not e.dummy for e in els):
                out["rs"] = [
                    R.FORE_LAST_ROUND_DRAW if e.round == fore_round and e.opponent >= 0 and not e.dummy else e.reason
                    for e in els
                ]
        self._details(base, i, tag, shared)
        out["dq"] = f"@{tag}dq"
        if crit.name == "FB":
            out["det"] = {**shared[tag + "det"], "fore_final_round": ct.k if base is not ctx else None}
        else:
            out["det"] = f"@{tag}det"
        return out

    def _sonneborn(self, crit: Criterion, i: int, shared: Compact) -> Compact:
        ctx = self.ctx
        ct = ctx.ct
        u2 = ct.unit * ct.unit
        tag = self._elements(ctx, crit.forfeits_as_games, i, shared)
        values = shared[tag + "ev"][1:]
        contributions = list(map(mul, values, shared[tag + "pt"][1:]))
        removals = (
            cut_elements(
                list(zip(values, contributions, strict=True)),
                contributions,
                [e.vur for e in ctx.a16.elements(crit.forfeits_as_games)[i]],
                low=crit.cut + crit.median,
                high=crit.median,
                vur_first=ctx.rules.cut_vur_first,
            )
            if crit.cut or crit.median
            else []
        )
        out: Compact = {"k": len(values), "e": tag, "c": [u2, *contributions]}
        total = sum(contributions)
        if removals:
            out["x"] = {str(r.position): r.reason for r in removals}
            total -= sum(contributions[r.position] for r in removals)
        out["v"] = out["T"] = [total, u2]
        out["dq"] = {"own_score": [ct.score[i], ct.unit]}
        return out

    def _progressive(self, crit: Criterion, i: int) -> Compact:
        ct = self.ctx.ct
        running = 0
        column = [ct.unit]
        for p in ct.pts[i]:
            running += p
            column.append(running)
        k = len(column) - 1
        total = sum(column[1 + min(crit.cut, k) :])
        out: Compact = {
            "k": k,
            "v": [total, ct.unit],
            "T": [total, ct.unit],
            "dm": False,
            "ev": column,
            "c": column,
            "rs": R.RUNNING_SCORE,
            "a": "7.5",
            "vur": False,
        }
        if crit.cut and k:
            out["x"] = {str(r): R.CUT_FIRST_ROUNDS for r in range(min(crit.cut, k))}
        return out

    def _count(self, crit: Criterion, i: int) -> Compact:
        ct = self.ctx.ct
        reason, article = _REASONS[crit.name]
        den = 2 if crit.name == "STD" else 1
        flags = _round_flags(ct, crit.name, i)
        total = [sum(flags), den]
        reasons: Any = reason
        if crit.name == "REP":
            reasons = _column([reason if f else R.NOT_ELECTED for f in flags])
        return {
            "k": len(flags),
            "v": total,
            "T": total,
            "dm": False,
            "ev": None,
            "c": [den, *flags],
            "rs": reasons,
            "a": article,
            "vur": False,
        }


# ------------------------------------------------------------------------------------- reading


def _value(num: int | None, den: int) -> float | int | None:
    """:func:`explain.number` of ``num / den``: an int when whole, else a float of at most 4 decimals."""
    if num is None:
        return None
    if num % den == 0:
        return num // den
    return round(num / den, 4)


def _scalar(pair: list[int] | None) -> float | int | None:
    return None if pair is None else _value(pair[0], pair[1])


def expand(stored: Compact) -> dict[str, dict[str, Any]]:
    """One participant's traces exactly as :meth:`Trace.to_dict` gives them, by criterion code."""
    shared: Compact = stored["s"]
    sn = stored["sn"]
    out: dict[str, dict[str, Any]] = {}
    for code, trace in stored["t"].items():
        prefix = trace.get("e", "")

        def column(key: str, trace: Compact = trace, prefix: str = prefix) -> Any:
            """The trace's own column, a reference ("@name") to a shared one, or by default its prefix's."""
            value = trace[key] if key in trace else shared.get(prefix + key)
            if isinstance(value, str) and value.startswith("@"):
                return shared[value[1:]]
            return value

        k = trace["k"]

        def values(key: str, numeric: bool, k: int = k, column: Callable[[str], Any] = column) -> list[Any]:
            found = column(key)
            if numeric:
                if found is None:
                    return [None] * k
                den = found[0]
                return [_value(n, den) for n in found[1:]]
            if isinstance(found, list):
                return found
            return [found] * k

        elements: list[dict[str, Any]] = []
        terms: list[Any] = []
        if k:
            removed = trace.get("x") or {}
            adjustments = column("adj") or {}
            columns = zip(
                values("r", False),
                values("o", False),
                values("dm", False),
                values("ev", True),
                values("pt", True),
                values("c", True),
                values("rs", False),
                values("a", False),
                values("vur", False),
                strict=True,
            )
            for j, (rnd, opponent, dummy, value, points, contribution, reason, article, vur) in enumerate(columns):
                cut = removed.get(str(j))
                elements.append(
                    {
                        "adjustments": adjustments.get(str(j), []),
                        "round": rnd,
                        "opponent": opponent,
                        "dummy": dummy,
                        "value": value,
                        "points": points,
                        "contribution": contribution,
                        "reason": reason,
                        "article": article,
                        "vur": vur,
                        "removed": cut,
                    }
                )
                if cut is None:
                    terms.append(contribution)
        details = dict(column("det") or {}) if "det" in trace else {}
        for key, pair in (column("dq") or {} if "dq" in trace else {}).items():
            details[key] = _scalar(pair)
        out[code] = {
            "start_number": sn,
            "criterion": code,
            "value": _scalar(trace["v"]),
            "elements": elements,
            "terms": terms,
            "total": _scalar(trace["T"]),
            "divisor": trace.get("n"),
            "rounding": trace.get("R"),
            "reason": trace.get("w"),
            "details": details,
        }
    return out
