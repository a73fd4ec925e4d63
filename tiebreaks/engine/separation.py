"""What separated two participants: the first score, in the published order, on which they differ.

The one rule behind the engine's individual ``Standings.separation``, the "why is A above B" page
(which reads the stored standings) and the prize split (which reads the published tie-breaks). Team
standings keep their stage groups: board count (BC) splits a tied group only when its match and game
points are equal, so two teams' values can differ without separating them there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def first_difference(a: Iterable[tuple[str, Any]], b: Iterable[tuple[str, Any]]) -> tuple[str, Any, Any] | None:
    """The first (code, a's value, b's value) where two ordered score lists differ, or None if equal.

    Both lists name the same codes in the same order (points first where they count)."""
    for (code, value_a), (_, value_b) in zip(a, b, strict=False):
        if value_a != value_b:
            return code, value_a, value_b
    return None
