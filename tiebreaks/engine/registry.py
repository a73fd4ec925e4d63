"""Criterion name -> the functions that compute and explain it (one module per family).

Every scalar criterion of every rule set is listed here, FIDE's (C.07) and US Chess rule 34's
(:mod:`.uschess`); its name, modifiers and sort direction are in :mod:`.criteria`. A rule set
offers a subset of them (:class:`~tiebreaks.engine.rules.RuleSet` ``criteria``); criteria of
other rule sets are refused for it (CriterionNotAllowed). A new criterion is one line here and
one in the catalogue of :mod:`.criteria`.
"""

from __future__ import annotations

from .buchholz import compute_aob, compute_buchholz, explain_aob, explain_buchholz
from .context import ComputeFn, Context, ExplainFn
from .counts import compute_count, explain_count
from .criteria import Criterion
from .decisions import compute_manual, compute_playoff, explain_manual, explain_playoff
from .explain import Trace
from .koya import compute_koya, explain_koya
from .lots import compute_lots, explain_lots
from .progressive import compute_progressive, explain_progressive
from .rating import compute_rating, explain_rating
from .rules import OpponentUnplayed
from .sonneborn import compute_sonneborn, explain_sonneborn
from .uschess import compute_count as compute_us_count
from .uschess import (
    compute_cumulative,
    compute_opponent_sum,
    compute_opposition_cumulative,
    explain_cumulative,
    explain_opponent_sum,
    explain_opposition_cumulative,
    explain_sonneborn_us,
)
from .uschess import explain_count as explain_us_count


def _explain_sb(ctx: Context, crit: Criterion, i: int) -> Trace:
    """The SB trace: C.07 articles, or - when opponents' unplayed rounds all count as draws
    (US Chess rule 34) - the same elements citing rule 34."""
    if ctx.rules.opponent_unplayed is OpponentUnplayed.ALL_AS_DRAWS:
        return explain_sonneborn_us(ctx, crit, i)
    return explain_sonneborn(ctx, crit, i)


SCALAR_CRITERIA: dict[str, tuple[ComputeFn, ExplainFn]] = {
    "BH": (compute_buchholz, explain_buchholz),
    "FB": (compute_buchholz, explain_buchholz),
    "AOB": (compute_aob, explain_aob),
    "SB": (compute_sonneborn, _explain_sb),
    "PS": (compute_progressive, explain_progressive),
    "KS": (compute_koya, explain_koya),
    **{name: (compute_count, explain_count) for name in ("WIN", "WON", "BPG", "BWG", "REP", "STD", "TPN")},
    **{name: (compute_rating, explain_rating) for name in ("ARO", "TPR", "PTP", "APRO", "APPO", "RTNG")},
    "LOT": (compute_lots, explain_lots),
    "MAN": (compute_manual, explain_manual),
    "PO": (compute_playoff, explain_playoff),
    # US Chess rule 34E
    **{name: (compute_opponent_sum, explain_opponent_sum) for name in ("MM", "SOLK", "MED")},
    "CUM": (compute_cumulative, explain_cumulative),
    "OPPCUM": (compute_opposition_cumulative, explain_opposition_cumulative),
    **{name: (compute_us_count, explain_us_count) for name in ("KASH", "BLK", "H2H")},
}

#: criteria whose values are whole numbers (printed without decimals)
INTEGER_CRITERIA: frozenset[str] = frozenset(
    {"WIN", "WON", "BPG", "BWG", "REP", "TPN", "DE", "ARO", "TPR", "PTP", "APRO", "APPO", "RTNG", "LOT", "MAN"}
    | {"KASH", "BLK", "H2H"}
)
