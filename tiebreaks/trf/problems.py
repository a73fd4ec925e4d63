"""Every problem of a TRF file at once, each with its line number (the import preview).

The reader's own rules in collecting mode (:class:`tiebreaks.trf.read._Reading`): one set of
rules for refusing a file and for listing why."""

from __future__ import annotations

from .read import trf_problems

__all__ = ["trf_problems"]
