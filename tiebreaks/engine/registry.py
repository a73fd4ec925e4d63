"""Criterion name -> the functions that compute and explain it (one module per family).

A new rule set (``us-chess``, ``chess-caddy``...) adds its own criteria with
:func:`register_criterion` and lists them in its :class:`~tiebreaks.engine.rules.RuleSet`
``criteria``; criteria of other rule sets are refused for it (CriterionNotAllowed).
"""

from __future__ import annotations

from .buchholz import compute_aob, compute_buchholz, explain_aob, explain_buchholz
from .context import ComputeFn, ExplainFn
from .counts import compute_count, explain_count
from .criteria import add_name
from .koya import compute_koya, explain_koya
from .progressive import compute_progressive, explain_progressive
from .rating import compute_rating, explain_rating
from .sonneborn import compute_sonneborn, explain_sonneborn

SCALAR_CRITERIA: dict[str, tuple[ComputeFn, ExplainFn]] = {
    "BH": (compute_buchholz, explain_buchholz),
    "FB": (compute_buchholz, explain_buchholz),
    "AOB": (compute_aob, explain_aob),
    "SB": (compute_sonneborn, explain_sonneborn),
    "PS": (compute_progressive, explain_progressive),
    "KS": (compute_koya, explain_koya),
    **{name: (compute_count, explain_count) for name in ("WIN", "WON", "BPG", "BWG", "REP", "STD", "TPN")},
    **{name: (compute_rating, explain_rating) for name in ("ARO", "TPR", "PTP", "APRO", "APPO", "RTNG")},
}

#: criteria whose values are whole numbers (printed without decimals)
INTEGER_CRITERIA: set[str] = {
    "WIN",
    "WON",
    "BPG",
    "BWG",
    "REP",
    "TPN",
    "DE",
    "ARO",
    "TPR",
    "PTP",
    "APRO",
    "APPO",
    "RTNG",
}


def register_criterion(
    name: str,
    compute: ComputeFn,
    explain: ExplainFn,
    *,
    modifiers: frozenset[str] = frozenset(),
    higher_is_better: bool = True,
    article: str = "",
    integer: bool = False,
) -> None:
    """Add a scalar criterion: its MTB26-style name, modifiers it accepts (``C``, ``M``, ``P``...),
    its sort direction, its rule reference, and the functions that compute and explain it."""
    add_name(name, modifiers, higher_is_better, article)
    SCALAR_CRITERIA[name] = (compute, explain)
    if integer:
        INTEGER_CRITERIA.add(name)
