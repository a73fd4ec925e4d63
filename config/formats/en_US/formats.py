"""English pages of a league in the United States (leagues/dates.py): dates month-day-year as US Chess readers
write them ("Dec 6, 2026", 12/06/2026); every other English page uses config/formats/en (day-month-year).
Forms read dates as config/formats/en does (their date fields are ISO date pickers)."""

from django.conf.locale.en.formats import (  # type: ignore[import-untyped]  # noqa: F401 - the names Django looks up; django-stubs has no locale stubs
    DECIMAL_SEPARATOR,
    FIRST_DAY_OF_WEEK,
    NUMBER_GROUPING,
    THOUSAND_SEPARATOR,
    TIME_FORMAT,
)

DATE_FORMAT = "M j, Y"  # Dec 6, 2026
DATETIME_FORMAT = "M j, Y, P"  # Dec 6, 2026, 7:30 p.m.
YEAR_MONTH_FORMAT = "F Y"  # December 2026
MONTH_DAY_FORMAT = "F j"  # December 6
SHORT_DATE_FORMAT = "m/d/Y"  # 12/06/2026
SHORT_DATETIME_FORMAT = "m/d/Y P"  # 12/06/2026 7:30 p.m.
