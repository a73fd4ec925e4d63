"""Criterion name -> the functions that compute and explain it (one module per family)."""

from __future__ import annotations

from .buchholz import compute_aob, compute_buchholz, explain_aob, explain_buchholz
from .context import ComputeFn, ExplainFn
from .counts import compute_count, explain_count
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
INTEGER_CRITERIA = frozenset(
    {"WIN", "WON", "BPG", "BWG", "REP", "TPN", "DE", "ARO", "TPR", "PTP", "APRO", "APPO", "RTNG"}
)
