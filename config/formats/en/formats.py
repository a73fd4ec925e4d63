"""English pages of European chess leagues: dates day-month-year as in Britain (06/12/2026 is 6 December), and
forms read dates the same way, never the US month-first order."""

from django.conf.locale.en_GB.formats import (  # type: ignore[import-untyped]  # noqa: F401 - the names Django looks up; django-stubs has no locale stubs
    DATE_FORMAT,
    DATE_INPUT_FORMATS,
    DATETIME_FORMAT,
    DATETIME_INPUT_FORMATS,
    DECIMAL_SEPARATOR,
    FIRST_DAY_OF_WEEK,
    MONTH_DAY_FORMAT,
    NUMBER_GROUPING,
    SHORT_DATE_FORMAT,
    SHORT_DATETIME_FORMAT,
    THOUSAND_SEPARATOR,
    TIME_FORMAT,
    YEAR_MONTH_FORMAT,
)
