"""Exceptions raised by the tie-break engine. Messages are one line and name the problem."""

from __future__ import annotations


class EngineError(Exception):
    """Any error of the tie-break engine (bad input, bad criterion)."""


class UnknownCriterion(EngineError):
    """A tie-break code or modifier that the engine (or the chosen rule set) does not know."""


class CriterionNotAllowed(EngineError):
    """A known criterion that the rules forbid for this event (e.g. Buchholz in a round robin)."""
