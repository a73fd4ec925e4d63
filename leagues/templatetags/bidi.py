from django import template

from ..bidi import as_html

register = template.Library()


@register.filter
def isolated(text):
    """A sentence whose names, numbers, ranges and amounts carry isolates, shown with <bdi>."""
    return as_html(str(text))
