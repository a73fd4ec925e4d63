from django import template

from tiebreaks.bidi import as_html
from tiebreaks.bidi import bdi as bdi_element

register = template.Library()


@register.filter
def isolated(text):
    """A sentence whose names, numbers, ranges and amounts carry isolates, shown with <bdi>."""
    return as_html(str(text))


@register.filter
def bdi(value, direction=""):
    """A name or number put into a translated sentence of a template: {% blocktranslate with name=x|bdi %}."""
    return bdi_element(value, direction)
