"""Dates as a league's readers write them: the English pages, e-mails and feeds of a league in the United States
write month-day-year ("Dec 6, 2026", 12/06/2026), as US Chess readers do; every other English page day-month-year
(config/formats/en); other languages their own formats.

An event's pages are rendered inside ``league_dates(event.league)`` (``event_dates``: every event page and widget;
the season page; the e-mails of an event, a registration or a match card); inside it the templates' ``date``
filter (templatetags/dates.py, a builtin of every template) and :func:`date_format` write the league's style.
Outside one, dates are written as the language writes them::

    with league_dates(event.league):
        page = render(request, "leagues/round.html", context)   # {{ round.date|date:"DATE_FORMAT" }}
"""

import contextlib
import datetime
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING

from django.utils import dateformat, formats
from django.utils.translation import get_language

from .models import League

if TYPE_CHECKING:
    from django.http import HttpResponse

#: the federations whose leagues write English dates month-day-year (config/formats/en_US)
MONTH_FIRST_FEDERATIONS = frozenset({"USA"})

# whether dates are written month first here: a bool, or a function that finds out on the first date written (an
# event page looks its league up only when it writes a date in English)
_month_first: ContextVar[bool | Callable[[], bool]] = ContextVar("league_dates_month_first", default=False)


@contextlib.contextmanager
def league_dates(league: League | None) -> Iterator[None]:
    """Dates written inside are the league's (None: the language's own)."""
    token = _month_first.set(league is not None and league.federation in MONTH_FIRST_FEDERATIONS)
    try:
        yield
    finally:
        _month_first.reset(token)


def event_dates(slug: str, render: "Callable[[], HttpResponse]") -> "HttpResponse":
    """A page of the event `slug` rendered in its league's dates (an event page's render function)."""
    found: list[bool] = []

    def month_first() -> bool:
        if not found:
            federation = League.objects.filter(events__slug=slug).values_list("federation", flat=True).first()
            found.append(federation in MONTH_FIRST_FEDERATIONS)
        return found[0]

    token = _month_first.set(month_first)
    try:
        return render()
    finally:
        _month_first.reset(token)


def formats_language() -> str | None:
    """The language whose formats write dates now: US English in a US league's English pages."""
    language = get_language()
    if language != "en":
        return language
    month_first = _month_first.get()
    return "en-us" if (month_first() if callable(month_first) else month_first) else language


def date_format(value: datetime.date | datetime.datetime, format_name: str = "DATE_FORMAT") -> str:
    """`value` in the named format (DATE_FORMAT, SHORT_DATETIME_FORMAT, ...) or a format string, as the league of
    the page writes it."""
    return dateformat.format(value, formats.get_format(format_name, lang=formats_language()))
