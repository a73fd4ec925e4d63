"""TRF birth dates (001, columns 70-79) as real exporters write them: the full date when the day is known and
not ambiguous, the year alone when only it is, nothing when neither is (never a guess)."""

import pytest

from tiebreaks.trf.codes import parse_birth

CASES = [
    ("1990/11/30", (1990, "1990-11-30")),  # TRF's own YYYY/MM/DD
    ("1969.12.06", (1969, "1969-12-06")),  # Swiss-Chess (tests/fixtures/real-trf/swiss-chess-karl-mala-2005.trf)
    ("1990-11-30", (1990, "1990-11-30")),
    ("30.11.1990", (1990, "1990-11-30")),  # day first with dots
    ("30/11/1990", (1990, "1990-11-30")),  # only day first is a date
    ("03/04/2001", (2001, "")),  # 3 April or March 4: the year alone
    ("1990/00/00", (1990, "")),  # month and day unknown
    ("1975.  .", (1975, "")),  # the ICU exporter's year with blank month and day
    ("2011", (2011, "")),  # JaVaFo's sample: years only
    ("120242", (1942, "1942-02-12")),  # six digits, DDMMYY (YYMMDD would be day 42)
    ("010110", (None, "")),  # 1 Jan 2010 or 10 Jan 2001
    ("    .  .", (None, "")),
    ("", (None, "")),
    ("2031/01/01", (None, "")),  # after the event: not a birth date
    ("31.02.1990", (1990, "")),  # no 31 February: the year alone
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] or "blank" for c in CASES])
def test_a_birth_field_keeps_the_date_when_the_day_is_known(text, expected):
    assert parse_birth(text, this_year=2026) == expected
