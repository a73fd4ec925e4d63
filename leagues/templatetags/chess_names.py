"""Names of the engine's ids as readers know them, in the page's language, and the standings' changes in them."""

from django import template

from tiebreaks.explanations import fmt
from tiebreaks.names import criterion_name
from tiebreaks.names import rule_set_name as _rule_set_name

register = template.Library()


@register.filter
def rule_set_name(name: str) -> str:
    """fide-2026 → «FIDE 2026 (C.07, from 1 March 2026)», translated."""
    return _rule_set_name(name)


def _shown(value) -> str:
    return "–" if value is None else fmt(value)


@register.filter
def standings_moves(impact) -> list[dict]:
    """What a correction or a setting's change moved in the standings (a list stored by recompute), only what
    changed and written as the standings write it: a place, the points and each tiebreak under its column name,
    numbers with the language's decimal separator."""
    moves = []
    for moved in impact or []:
        old_rank, new_rank = (moved.get("rank") or [None, None])[:2]
        old_points, new_points = (moved.get("points") or [None, None])[:2]
        values = []
        for code, (old, new) in (moved.get("values") or {}).items():
            if _shown(old) != _shown(new):
                name = criterion_name(code)
                values.append((name.short, name.long, _shown(old), _shown(new)))
        entry = {
            "name": moved.get("name", ""),
            "rank": (old_rank, new_rank) if old_rank != new_rank else None,
            "points": (_shown(old_points), _shown(new_points)) if _shown(old_points) != _shown(new_points) else None,
            "values": values,
        }
        if entry["rank"] or entry["points"] or values:
            moves.append(entry)
    return moves
