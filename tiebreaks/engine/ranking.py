"""Ranking (C.07 Articles 2-5) and the :class:`Standings` result.

Participants are ranked by points, then each criterion is applied to every subgroup still tied
(4.2): scalar criteria split a group by value (undefined last); direct encounter is evaluated
inside the group (Article 6). Ranks use competition numbering (1, 2, 2, 4): equal rank means
still tied after every criterion; within such a tie rows are listed by start number.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Sequence, Set
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from math import gcd
from typing import Any, cast

from . import reasons as R
from .compact import ParticipantBuilder, TraceInputs
from .context import Computed, Context
from .criteria import BUCHHOLZ_FAMILY, RATING_CRITERIA, Criterion, parse_criterion
from .direct_encounter import explain_direct_encounter, order_group, places
from .errors import CriterionNotAllowed
from .explain import Trace, TraceElement
from .model import ExternalValue, Tournament
from .registry import INTEGER_CRITERIA, SCALAR_CRITERIA
from .rules import RuleSet, check_criterion, get_rule_set
from .separation import first_difference

DECISIONS = frozenset({"PO", "MAN"})


@dataclass(frozen=True)
class Note:
    """A structured remark on the whole standings (reason code + data, no prose)."""

    code: str
    criterion: str | None = None
    article: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "criterion": self.criterion,
            "article": self.article,
            "details": dict(self.details),
        }


@dataclass(frozen=True)
class Row:
    rank: int
    start_number: int
    name: str
    points: Fraction
    values: dict[str, Fraction | None]


@dataclass(frozen=True)
class Separation:
    """What separated two participants: the first criterion where they split, and both values."""

    criterion: str | None  # None: nothing separated them
    value_a: Fraction | None
    value_b: Fraction | None

    @property
    def separated(self) -> bool:
        return self.criterion is not None


def _json_number(value: Fraction | None, integer: bool) -> float | int | None:
    """FIDE's printing: at most two decimals (half up); whole-number criteria as integers."""
    if value is None:
        return None
    if integer and value.denominator == 1:
        return int(value)
    hundredths = (value.numerator * 200 + value.denominator) // (2 * value.denominator)
    return hundredths / 100


def _json_column(nums: list[int | None], den: int, integer: bool) -> list[float | int | None]:
    """:func:`_json_number` of every ``num / den`` of a column, from the scaled integers.

    Same values as converting each ``Fraction(num, den)``: half-up hundredths are
    ``floor((200 num + den) / (2 den))`` whether or not the fraction is reduced, and a whole
    value is ``num // den``. Each distinct numerator is converted once.
    """
    cache: dict[int | None, float | int | None] = {None: None}
    out: list[float | int | None] = []
    append = out.append
    twice = 2 * den
    for num in nums:
        try:
            append(cache[num])
        except KeyError:
            if integer and num % den == 0:  # type: ignore[operator]
                value: float | int = num // den  # type: ignore[operator]
            else:
                value = (num * 200 + den) // twice / 100  # type: ignore[operator]
            cache[num] = value
            append(value)
    return out


def _json_texts(nums: list[int | None], den: int, integer: bool, prefix: str) -> list[str]:
    """``prefix`` + the JSON text of :func:`_json_column`'s value, for every ``num / den``
    (``repr`` is what the json module prints for an int or a float)."""
    cache: dict[int | None, str] = {None: prefix + "null"}
    out: list[str] = []
    append = out.append
    twice = 2 * den
    for num in nums:
        try:
            append(cache[num])
        except KeyError:
            if integer and num % den == 0:  # type: ignore[operator]
                value: float | int = num // den  # type: ignore[operator]
            else:
                value = (num * 200 + den) // twice / 100  # type: ignore[operator]
            text = cache[num] = prefix + repr(value)
            append(text)
    return out


class Standings:
    def __init__(
        self,
        *,
        rules: str,
        criteria: list[Criterion],
        rows: list[Row] | None = None,
        notes: list[Note],
        ctx: Context,
        de_groups: dict[str, dict[int, list[int]]],
        de_values: dict[str, dict[int, int]],
        columns: list[tuple[str, Computed]] | None = None,
        points: Computed | None = None,
        order: list[tuple[int, int]] | None = None,
    ) -> None:
        """``rows`` directly, or the raw table they are built from on first use: ``columns``
        (code, values of every participant index), ``points`` and ``order`` (rank, index)."""
        self.rules = rules
        self._criteria = criteria
        self.criteria = [c.code for c in criteria]
        self._rows = rows
        self._columns = columns
        self._points = points
        self._order = order
        self.notes = notes
        self._ctx = ctx
        self._de_groups = de_groups
        self._de_values = de_values
        self._by_sn_cache: dict[int, Row] | None = None
        self._explained: dict[int, dict[str, Trace]] = {}
        self.explain_requested = False

    @property
    def rows(self) -> list[Row]:
        """The ranked rows (exact values), built on first use."""
        if self._rows is None:
            if self._columns is None or self._points is None or self._order is None:
                raise RuntimeError("the ranking is computed before its rows are read")
            ct = self._ctx.ct
            columns = [(code, column.fractions()) for code, column in self._columns]
            points = self._points.fractions()
            rows: list[Row] = []
            for position, i in self._order:
                values = {code: column[i] for code, column in columns}
                rows.append(Row(position, ct.start_numbers[i], ct.names[i], points[i], values))  # type: ignore[arg-type]
            self._rows = rows
        return self._rows

    def ranks(self) -> dict[int, int | None]:
        """Each participant's rank by start number (the rows' ranks, without building the rows' exact values)."""
        if self._rows is None and self._order is not None:
            numbers = self._ctx.ct.start_numbers
            return {numbers[i]: rank for rank, i in self._order}
        return {row.start_number: row.rank for row in self.rows}

    @property
    def _by_sn(self) -> dict[int, Row]:
        if self._by_sn_cache is None:
            self._by_sn_cache = {row.start_number: row for row in self.rows}
        return self._by_sn_cache

    def row(self, start_number: int) -> Row:
        return self._by_sn[start_number]

    # --------------------------------------------------------------------------------
    def explain(self, start_number: int) -> dict[str, Trace]:
        """The trace of every criterion (and PTS) for one participant."""
        cached = self._explained.get(start_number)
        if cached is not None:
            return cached
        ctx = self._ctx
        ct = ctx.ct
        i = ct.index[start_number]
        out: dict[str, Trace] = {"PTS": self._explain_points(i)}
        for crit in self._criteria:
            out[crit.code] = self._explain_criterion(crit, i)
        self._explained[start_number] = out
        return out

    def _explain_criterion(self, crit: Criterion, i: int) -> Trace:
        """The trace of one criterion for the participant of index ``i``."""
        ctx = self._ctx
        external = _external_of(ctx, crit).get(ctx.ct.start_numbers[i])
        if external is not None:
            element = TraceElement(None, None, False, external.value, external.value, R.EXTERNAL_VALUE, crit.article)
            details = {
                "reason": external.reason,
                "by": external.decided_by,
                "on": external.decided_on,
                "who": external.recorded_by,
            }
            sn = ctx.ct.start_numbers[i]
            return Trace(sn, crit.code, external.value, (element,), external.value, details=details)
        if crit.name == "DE":
            group = self._de_groups.get(crit.code, {}).get(i)
            return explain_direct_encounter(ctx, crit, i, group, self._de_values.get(crit.code, {}).get(i, 0))
        return SCALAR_CRITERIA[crit.name][1](ctx, crit, i)

    def _explain_points(self, i: int) -> Trace:
        ct = self._ctx.ct
        elements = tuple(
            TraceElement(
                r + 1,
                ct.start_numbers[o] if o >= 0 else None,
                False,
                None,
                ct.frac(p),
                R.POINTS_SCORED,
                "4.2",
                points=ct.frac(p),
            )
            for r, (o, p) in enumerate(zip(ct.opps[i], ct.pts[i], strict=True))
        )
        total = ct.frac(ct.score[i])
        return Trace(ct.start_numbers[i], "PTS", total, elements, total)

    def separation(self, a: int, b: int) -> Separation:
        """The first criterion that separated participants ``a`` and ``b`` (start numbers)."""
        ra, rb = self._by_sn[a], self._by_sn[b]
        found = first_difference(
            [("PTS", ra.points), *((c, ra.values[c]) for c in self.criteria)],
            [("PTS", rb.points), *((c, rb.values[c]) for c in self.criteria)],
        )
        return Separation(*found) if found else Separation(None, None, None)

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        if self._rows is None:
            rows = self._rows_dict()
        else:
            names = {c.code: c.name for c in self._criteria}
            rows = [
                {
                    "rank": row.rank,
                    "start_number": row.start_number,
                    "name": row.name,
                    "points": _json_number(row.points, False),
                    "values": {
                        code: _json_number(v, names[code] in INTEGER_CRITERIA) for code, v in row.values.items()
                    },
                }
                for row in self._rows
            ]
        if self.points_listed:
            for row in rows:
                row["values"] = {"PTS": row["points"], **row["values"]}
        out: dict[str, Any] = {
            "rules": self.rules,
            "criteria": self._shown_criteria(),
            "rows": rows,
            "notes": [n.to_dict() for n in self.notes],
        }
        if explain:
            out["explanations"] = dict(self.explanations())
        return out

    def explanations(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """Each row's traces as ``to_dict(explain=True)`` lists them, one row at a time (a caller may stop early)."""
        for row in self.rows:
            yield str(row.start_number), {code: t.to_dict() for code, t in self.explain(row.start_number).items()}

    def compact_explanations(self, unchanged: Set[str] = frozenset()) -> Iterator[tuple[str, dict[str, Any] | None]]:
        """Each row's traces in the compact form (:mod:`.compact`), one row at a time (a caller may stop
        early); :func:`.compact.expand` reads one back exactly as :meth:`explanations` gives it. The start numbers
        in `unchanged` (TraceInputs.unchanged) are given None: their traces are the caller's from before."""
        builder = ParticipantBuilder(self._ctx, self._criteria, self._explain_criterion)
        ct = self._ctx.ct
        if self._order is not None:
            indices = [i for _, i in self._order]
        else:
            indices = [ct.index[row.start_number] for row in self.rows]
        for i in indices:
            number = str(ct.start_numbers[i])
            yield number, None if number in unchanged else builder.build(i)

    def trace_inputs(self) -> TraceInputs | None:
        """What each participant's compact traces are built from (:class:`.compact.TraceInputs`); None when the
        criteria read more than a participant's and their opponents' rounds."""
        return ParticipantBuilder(self._ctx, self._criteria, self._explain_criterion).inputs()

    points_listed = False  # set by compute_standings when the caller's list starts with PTS

    def _shown_criteria(self) -> list[str]:
        return ["PTS", *self.criteria] if self.points_listed else list(self.criteria)

    def to_json(self) -> str:
        """``json.dumps(self.to_dict(), ensure_ascii=False)``, byte for byte, written directly:
        each column's values are printed once per distinct value and every row is one join.
        (The CLI's ``standings --json``; the general encoder is used when a code repeats. The
        json package itself is only imported when something needs it, e.g. notes.)"""
        if self._rows is not None or len(set(self.criteria)) != len(self.criteria):
            import json

            return json.dumps(self.to_dict(), ensure_ascii=False)
        try:  # what json.dumps(..., ensure_ascii=False) uses for strings
            from _json import encode_basestring
        except ImportError:  # pragma: no cover - CPython always has the accelerator
            from json.encoder import encode_basestring

        def text(value: Any) -> str:
            if value is None:
                return "null"
            if type(value) is int or type(value) is float:
                return repr(value)
            if type(value) is str:
                return encode_basestring(value)
            if type(value) is list and all(type(v) is str for v in value):
                return "[" + ", ".join([encode_basestring(v) for v in value]) + "]"
            import json

            return json.dumps(value, ensure_ascii=False)

        def name_text(name: Any) -> str:
            return encode_basestring(name) if type(name) is str else text(name)

        if self._columns is None or self._points is None or self._order is None:
            raise RuntimeError("the ranking is computed before its rows are read")
        ct = self._ctx.ct
        names = {c.code: c.name for c in self._criteria}
        columns = [
            _json_texts(column.nums, column.den, names[code] in INTEGER_CRITERIA, encode_basestring(code) + ": ")
            for code, column in self._columns
        ]
        points = _json_texts(self._points.nums, self._points.den, False, "")
        values = [", ".join(row) for row in zip(*columns, strict=True)] if columns else [""] * ct.n_players
        if self.points_listed:
            values = [f'"PTS": {points[i]}' + (", " + v if v else "") for i, v in enumerate(values)]
        start_numbers = ct.start_numbers
        player_names = ct.names
        rows = ", ".join(
            [
                f'{{"rank": {text(position)}, "start_number": {text(start_numbers[i])}, '
                f'"name": {name_text(player_names[i])}, '
                f'"points": {points[i]}, "values": {{{values[i]}}}}}'
                for position, i in self._order
            ]
        )
        return (
            f'{{"rules": {text(self.rules)}, "criteria": {text(self._shown_criteria())}, "rows": [{rows}], '
            f'"notes": {text([n.to_dict() for n in self.notes])}}}'
        )

    def _rows_dict(self) -> list[dict[str, Any]]:
        """The JSON rows straight from the scaled integers (no Fraction per value): each
        column is converted once, then every row takes its slice."""
        if self._columns is None or self._points is None or self._order is None:
            raise RuntimeError("the ranking is computed before its rows are read")
        ct = self._ctx.ct
        names = {c.code: c.name for c in self._criteria}
        codes = [code for code, _ in self._columns]
        columns = [
            _json_column(column.nums, column.den, names[code] in INTEGER_CRITERIA) for code, column in self._columns
        ]
        points = _json_column(self._points.nums, self._points.den, False)
        per_player: list[tuple[Any, ...]] = list(zip(*columns, strict=True)) if columns else [()] * ct.n_players
        start_numbers = ct.start_numbers
        player_names = ct.names
        return [
            {
                "rank": position,
                "start_number": start_numbers[i],
                "name": player_names[i],
                "points": points[i],
                "values": dict(zip(codes, per_player[i], strict=True)),
            }
            for position, i in self._order
        ]


def _normalise(criteria: Iterable[str | Criterion] | str, notes: list[Note]) -> list[Criterion]:
    if isinstance(criteria, str):  # "BH/C1,BH,SB" as in TRF record 202/212
        criteria = [c for c in criteria.replace(";", ",").split(",") if c.strip()]
    out: list[Criterion] = []
    for position, item in enumerate(criteria):
        crit = item if isinstance(item, Criterion) else parse_criterion(item)
        if crit.name == "PTS":
            if position != 0:
                notes.append(Note(R.PTS_IGNORED, "PTS", "4.2", {"position": position + 1}))
            continue
        if crit.limit_unsigned:
            notes.append(Note(R.KOYA_LIMIT_UNSIGNED, crit.code, "9.2"))
        out.append(crit)
    return out


def _external_of(ctx: Context, crit: Criterion) -> dict[int, ExternalValue]:
    """The values of ``crit`` set from outside, by start number."""
    return {v.start_number: v for v in ctx.tournament.external_values if v.criterion.upper() == crit.code}


def _with_external_values(ctx: Context, crit: Criterion, result: Computed) -> Computed:
    """``result`` with the values set from outside in place of the computed ones (over a common denominator)."""
    external = _external_of(ctx, crit)
    if not external:
        return result
    den = result.den
    for given in external.values():
        den = den * given.value.denominator // gcd(den, given.value.denominator)
    factor = den // result.den
    nums = [None if n is None else n * factor for n in result.nums]
    for i, sn in enumerate(ctx.ct.start_numbers):
        if sn in external:
            nums[i] = int(external[sn].value * den)
    return Computed(nums, den)


def _unrated(ctx: Context) -> list[int]:
    """Start numbers of the participants without a rating (in some round, when ratings per round are read)."""
    ct = ctx.ct
    return [
        sn
        for sn, first, by_round in zip(ct.start_numbers, ct.ratings, ct.round_ratings, strict=True)
        if first is None or (ctx.ratings_per_round and not all(by_round))
    ]


def compute_standings(
    tournament: Tournament,
    criteria: Sequence[str | Criterion] | str,
    *,
    rules: str = "fide-2026",
    unrated_rating: int | None = None,
    ratings_per_round: bool = False,
    allow_buchholz_in_round_robin: bool = False,
    explain: bool = False,
) -> Standings:
    """Rank ``tournament`` by points and the tie-break ``criteria`` (MTB26 codes) under ``rules``.

    Raises :class:`UnknownCriterion` for an unknown code and :class:`CriterionNotAllowed` for a
    criterion the rules forbid (e.g. BH/AOB/FB with pre-determined pairings unless
    ``allow_buchholz_in_round_robin``; the override is recorded in ``notes``).

    Rating-based criteria read every participant's first rating (``Participant.rating``), as C.07 (2026)
    says unless the regulations say otherwise; with ``ratings_per_round`` they read each opponent's rating
    in the round they met (``Participant.round_ratings``).
    """
    # The computation allocates many small lists and tuples and frees nothing until it ends:
    # pausing the cyclic garbage collector meanwhile saves a fifth of the time and keeps it
    # linear in players x rounds. It is restored however we leave.
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        return _compute_standings(
            tournament,
            criteria,
            rules=rules,
            unrated_rating=unrated_rating,
            ratings_per_round=ratings_per_round,
            allow_buchholz_in_round_robin=allow_buchholz_in_round_robin,
            explain=explain,
        )
    finally:
        if collecting:
            gc.enable()


def _compute_standings(
    tournament: Tournament,
    criteria: Sequence[str | Criterion] | str,
    *,
    rules: str,
    unrated_rating: int | None,
    ratings_per_round: bool,
    allow_buchholz_in_round_robin: bool,
    explain: bool,
) -> Standings:
    rule_set = get_rule_set(rules)
    notes: list[Note] = []
    crits = _tiebreak_list(criteria, tournament, rule_set, allow_buchholz_in_round_robin, notes)
    ctx = Context(tournament, rule_set, unrated_rating=unrated_rating, ratings_per_round=ratings_per_round)
    ct = ctx.ct
    n = ct.n_players
    computed = _computed_values(ctx, crits, notes)

    # ---- ranking: successive refinement of tied groups (4.2) ----------------------------
    score = ct.score
    groups = score_groups(sorted(range(n), key=lambda i: (-score[i], ct.start_numbers[i])), score)
    de_groups: dict[str, dict[int, list[int]]] = {}
    de_values: dict[str, dict[int, int]] = {}
    for crit in crits:
        if crit.name == "DE":
            dg = de_groups.setdefault(crit.code, {})
            dv = de_values.setdefault(crit.code, {})
        if len(groups) == n:  # nobody is tied any more: nothing left to split
            continue
        if crit.name == "DE":
            groups = _split_by_direct_encounter(ctx, crit, groups, dg, dv)
        else:
            groups = _split_by_value(groups, computed[crit.code].nums, bool(crit.higher_is_better))

    columns: list[tuple[str, Computed]] = []
    for crit in crits:
        if crit.name == "DE":
            dv = de_values[crit.code]
            columns.append((crit.code, Computed([dv.get(i, 0) for i in range(n)], 1)))
        else:
            columns.append((crit.code, computed[crit.code]))
    order_out = competition_order(groups, ct.start_numbers.__getitem__)
    standings = Standings(
        rules=rule_set.name,
        criteria=crits,
        notes=notes,
        ctx=ctx,
        de_groups=de_groups,
        de_values=de_values,
        columns=columns,
        points=Computed(list(score), ct.unit),
        order=order_out,
    )
    # explain=True: traces are built on demand (explain(), to_dict(explain=True)), so asking for
    # them costs nothing until a participant's trace is actually read
    standings.explain_requested = explain
    standings.points_listed = _points_listed_first(criteria)
    return standings


def _tiebreak_list(
    criteria: Sequence[str | Criterion] | str,
    tournament: Tournament,
    rule_set: RuleSet,
    allow_buchholz_in_round_robin: bool,
    notes: list[Note],
) -> list[Criterion]:
    """The tie-break list as the rules allow it (4.2; the rule set's names and modifiers; the
    Buchholz family in a round robin), each criterion once (DE re-applied)."""
    crits = _normalise(criteria, notes)
    decided = [crit for crit in crits if crit.name != "MAN"]  # a manual order may follow undrawn lots
    if any(crit.name == "LOT" for crit in decided[:-1]):
        raise CriterionNotAllowed(
            "the drawing of lots (LOT) ends the tie-break list (FIDE C.07, Article 4.2): a criterion after it "
            "would never be used"
        )
    for crit in crits:
        # the rule set's own policy: the names it offers and the modifiers it allows (BH/C1 is
        # refused under chess-caddy, SB/C1 under us-chess), one line naming the rule set
        if crit.name not in DECISIONS:  # a play-off or a decision ranks players under every rule set
            check_criterion(rule_set, crit)
        if tournament.round_robin and crit.name in BUCHHOLZ_FAMILY and not rule_set.buchholz_in_round_robin:
            if not allow_buchholz_in_round_robin:
                raise CriterionNotAllowed(
                    f"criterion {crit.code} is not allowed in a round robin (FIDE C.07, note to Article 8: "
                    "the Buchholz family must not be used with pre-determined pairings)"
                )
            notes.append(Note(R.ROUND_ROBIN_BUCHHOLZ_OVERRIDE, crit.code, "8"))
    seen: set[str] = set()
    unique: list[Criterion] = []
    for crit in crits:  # a criterion listed twice adds nothing (except DE, re-applied: same code)
        if crit.code not in seen or crit.name == "DE":
            unique.append(crit)
            seen.add(crit.code)
    return unique


def _computed_values(ctx: Context, crits: list[Criterion], notes: list[Note]) -> dict[str, Computed]:
    """Every scalar criterion's values by code (those set from outside in place), noting a criterion
    left undefined by unrated players (Article 10)."""
    computed: dict[str, Computed] = {}
    for crit in crits:
        if crit.name == "DE" or crit.code in computed:
            continue
        result: Computed = ctx.memo(("computed", crit.code), partial(SCALAR_CRITERIA[crit.name][0], ctx, crit))
        result = _with_external_values(ctx, crit, result)
        computed[crit.code] = result
        if result.reason == R.UNDEFINED_UNRATED_PLAYERS:
            notes.append(
                Note(
                    R.CRITERION_SKIPPED_UNRATED,
                    crit.code,
                    "10",
                    {"unrated": _unrated(ctx)},
                )
            )
    return computed


def score_groups(order: list[int], score: Sequence[object]) -> list[list[int]]:
    """Participants in ``order`` as runs of equal ``score`` (index -> value): the score groups, or a group split by one
    value."""
    groups: list[list[int]] = []
    for i in order:
        if groups and score[groups[-1][0]] == score[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _split_by_direct_encounter(
    ctx: Context, crit: Criterion, groups: list[list[int]], dg: dict[int, list[int]], dv: dict[int, int]
) -> list[list[int]]:
    """Article 6 on each tied group: the groups after it, each player's place in ``dv`` and the group
    they were tied in in ``dg``."""
    new_groups: list[list[int]] = []
    for g in groups:
        if len(g) == 1:
            new_groups.append(g)
            continue
        subgroups = order_group(ctx, crit, g)
        for p, place in places(subgroups).items():
            dv[p] = place
            dg[p] = g
        new_groups.extend(subgroups)
    return new_groups


def _split_by_value(groups: list[list[int]], nums: list[int | None], higher_is_better: bool) -> list[list[int]]:
    """Each tied group split by a criterion's values (undefined values last)."""
    new_groups: list[list[int]] = []
    sign = -1 if higher_is_better else 1
    # without undefined values the key is the value itself (reverse=True keeps the sort
    # stable, as the negated key did)
    defined = None not in nums
    value_of = cast("list[int]", nums).__getitem__  # used only when every value is defined
    for g in groups:
        if len(g) == 1:
            new_groups.append(g)
            continue
        if defined:
            keyed = sorted(g, key=value_of, reverse=higher_is_better)
        else:
            keyed = sorted(g, key=lambda i: (nums[i] is None, sign * (nums[i] or 0)))
        new_groups.extend(score_groups(keyed, nums))
    return new_groups


def _points_listed_first(criteria: Iterable[str | Criterion] | str) -> bool:
    """Whether the caller's list starts with PTS: the output then shows the points as its first column
    (as FIDE's checker and the golden files do); ranking is by points either way."""
    if isinstance(criteria, str):
        criteria = [c for c in criteria.replace(";", ",").split(",") if c.strip()]
    first = next(iter(criteria), None)
    code = first.code if isinstance(first, Criterion) else (first or "")
    return code.strip().upper() == "PTS"


def competition_order(groups: list[list[int]], number: Callable[[int], int]) -> list[tuple[int, int]]:
    """(place, index) in rank order: a tied group shares its first place (1, 2, 2, 4), members by number."""
    order: list[tuple[int, int]] = []
    for g in groups:
        place = len(order) + 1
        order.extend((place, i) for i in sorted(g, key=number))
    return order


def _group_ids(groups: list[list[int]], n: int) -> list[int]:
    ids = [0] * n
    for gid, g in enumerate(groups):
        for i in g:
            ids[i] = gid
    return ids


__all__ = ["RATING_CRITERIA", "Note", "Row", "Separation", "Standings", "compute_standings"]
