"""Structured explanations: for one participant and one criterion, every element, why it has
its value (a reason code from :mod:`.reasons` and the Article), what a cut removed, and the
arithmetic. Data only - the website renders and translates it.

Invariant (tested): the kept contributions add up to ``total``; ``value`` is ``total``, or
``total / divisor`` rounded as ``rounding`` says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


def number(value: Fraction | int | None) -> float | int | None:
    """JSON form of an exact value: int when whole, else a float with at most 4 decimals."""
    if value is None:
        return None
    if isinstance(value, int) or value.denominator == 1:
        return int(value)
    return round(float(value), 4)


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return number(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Adjustment:
    """One round of an opponent that enters their adjusted score differently from its points
    (16.3: a requested bye followed only by VURs counts as a draw)."""

    round: int
    reason: str
    article: str
    awarded: Fraction  # points the opponent actually got that round
    counted: Fraction  # points counted in the adjusted score

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "reason": self.reason,
            "article": self.article,
            "awarded": number(self.awarded),
            "counted": number(self.counted),
        }


@dataclass(frozen=True)
class TraceElement:
    """One element: a round against a real or dummy opponent (or a rating, a running score...).

    ``value``: the number the rule looks at (opponent's adjusted score, dummy score, rating,
    running score); ``points``: what the participant scored that round (SB, KS, counts);
    ``contribution``: what the element adds to the total; ``removed``: the cut reason if a
    modifier removed it (then it adds nothing).
    """

    round: int | None
    opponent: int | None
    dummy: bool
    value: Fraction | None
    contribution: Fraction
    reason: str
    article: str
    points: Fraction | None = None
    vur: bool = False
    removed: str | None = None
    adjustments: tuple[Adjustment, ...] = ()  # why the opponent's adjusted score differs from their score

    def to_dict(self) -> dict[str, Any]:
        return {
            "adjustments": [a.to_dict() for a in self.adjustments],
            "round": self.round,
            "opponent": self.opponent,
            "dummy": self.dummy,
            "value": number(self.value),
            "points": number(self.points),
            "contribution": number(self.contribution),
            "reason": self.reason,
            "article": self.article,
            "vur": self.vur,
            "removed": self.removed,
        }


@dataclass(frozen=True)
class Trace:
    """The explanation of one criterion for one participant."""

    start_number: int
    criterion: str
    value: Fraction | None
    elements: tuple[TraceElement, ...] = ()
    total: Fraction | None = None
    divisor: int | None = None
    rounding: str | None = None
    reason: str | None = None  # why the value is undefined, or a note for the whole criterion
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def kept(self) -> tuple[TraceElement, ...]:
        return tuple(e for e in self.elements if e.removed is None)

    @property
    def removed(self) -> tuple[TraceElement, ...]:
        return tuple(e for e in self.elements if e.removed is not None)

    def terms(self) -> list[Fraction]:
        return [e.contribution for e in self.kept]

    def to_dict(self) -> dict[str, Any]:
        return {
            "start_number": self.start_number,
            "criterion": self.criterion,
            "value": number(self.value),
            "elements": [e.to_dict() for e in self.elements],
            "terms": [number(t) for t in self.terms()],
            "total": number(self.total),
            "divisor": self.divisor,
            "rounding": self.rounding,
            "reason": self.reason,
            "details": {k: _plain(v) for k, v in self.details.items()},
        }
