"""What every criterion function receives: the prepared crosstable, Article 16 data, the rule
set and options, plus caches shared between criteria (e.g. Buchholz values reused by AOB)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .criteria import Criterion
from .crosstable import Crosstable
from .explain import Trace
from .model import Tournament
from .rules import RuleSet
from .unplayed import Article16


@dataclass
class Computed:
    """Values of one criterion for every participant, as scaled integers over ``den``.

    Ranking compares the integers (same ``den`` for everybody); :meth:`fraction` gives the
    exact value. ``None`` = undefined for that participant (sorted last).
    """

    nums: list[int | None]
    den: int
    reason: str | None = None  # set when the criterion is undefined for everybody

    def fractions(self) -> list[Fraction | None]:
        cache: dict[int, Fraction] = {}
        den = self.den
        out: list[Fraction | None] = []
        for n in self.nums:
            if n is None:
                out.append(None)
                continue
            f = cache.get(n)
            if f is None:
                f = cache[n] = Fraction(n, den)
            out.append(f)
        return out


class Context:
    def __init__(
        self,
        tournament: Tournament,
        rules: RuleSet,
        *,
        unrated_rating: int | None = None,
        ratings_per_round: bool = False,
    ) -> None:
        self.tournament = tournament
        self.rules = rules
        self.ct = Crosstable(tournament)
        self.unrated_rating = unrated_rating
        #: rating-based criteria read each opponent's rating in the round they met (the event's regulations say
        #: so), not the first rating (C.07 2026, note to Article 10)
        self.ratings_per_round = ratings_per_round
        self._a16: Article16 | None = None
        self._fore: Context | None = None
        self.cache: dict[Any, Any] = {}

    @property
    def a16(self) -> Article16:
        if self._a16 is None:
            self._a16 = Article16(self.ct, self.rules)
        return self._a16

    @property
    def fore(self) -> Context:
        """The same tournament with every final-round paired game set to a draw (FB, 8.3)."""
        if self._fore is None:
            total = self.tournament.total_rounds
            if total and self.ct.k < total:
                # the final round is not paired yet: FB equals BH (8.3; FIDE's checker agrees)
                self._fore = self
                return self
            f = Context.__new__(Context)
            f.tournament = self.tournament
            f.rules = self.rules
            f.ct = self.ct.fore_view()
            f.unrated_rating = self.unrated_rating
            f.ratings_per_round = self.ratings_per_round
            f._a16 = None
            f._fore = f
            f.cache = {}
            self._fore = f
        return self._fore

    def memo(self, key: Any, fn: Callable[[], Any]) -> Any:
        try:
            return self.cache[key]
        except KeyError:
            value = self.cache[key] = fn()
            return value


ComputeFn = Callable[[Context, Criterion], Computed]
ExplainFn = Callable[[Context, Criterion, int], Trace]
