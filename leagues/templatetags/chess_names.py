"""Names of the engine's ids as readers know them, in the page's language."""

from django import template

from tiebreaks.names import rule_set_name as _rule_set_name

register = template.Library()


@register.filter
def rule_set_name(name: str) -> str:
    """fide-2026 → «FIDE 2026 (C.07, from 1 March 2026)», translated."""
    return _rule_set_name(name)
