"""The templates' ``date`` filter, writing dates as the league of the page does (leagues/dates.py): a builtin of
every template (settings TEMPLATES), in place of Django's filter of the same name, which it follows otherwise."""

from django import template
from django.template.defaultfilters import date as django_date

from ..dates import date_format

register = template.Library()


@register.filter(expects_localtime=True, is_safe=False)
def date(value, arg=None):
    """``{{ round.date|date:"DATE_FORMAT" }}``: "Dec 6, 2026" in a US league's English pages, "6 Dec 2026" in
    another English page."""
    if value in (None, ""):
        return ""
    try:
        return date_format(value, arg or "DATE_FORMAT")
    except AttributeError:
        return django_date(value, arg)
