"""Issue 38, language: what the site writes itself reads in the reader's language, and a bye has no board."""

import datetime
import re

import pytest
from django.utils import translation

from leagues.services.round_pairings import bye_request
from tests.factories import ClubMembershipFactory, organiser_of, swiss_event
from tests.functional import test_player_profile
from tests.functional.test_bidi_pages import shown
from tests.helpers import search
from tiebreaks.explanations import explain_trace

pytestmark = pytest.mark.django_db

ana = test_player_profile.ana  # Ana's event: points 1.5, rating change +10.0


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


@pytest.fixture
def requested_bye(client):
    """Player 4 asks for a half-point bye in round 2, recorded while Turkish is active (as a worker may be)."""
    event, entries, _games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    with translation.override("tr"):
        bye_request(event=event, round_number=2, entry=entries[3], kind="half", user=organiser)
    client.force_login(organiser)
    return event


@pytest.mark.parametrize(
    ("lang", "reason", "foreign"),
    [("en", "bye requested", "talep edilen bay"), ("el", "ρεπό κατόπιν αιτήματος", "bye requested")],
)
def test_the_audit_gives_the_site_s_own_reason_in_the_reader_s_language(client, requested_bye, lang, reason, foreign):
    text = _text(client.get(f"/{lang}/manage/events/{requested_bye.slug}/audit/").content.decode())
    assert reason in text
    assert foreign not in text


def test_a_bye_shows_no_board_number(client, requested_bye):
    audit = _text(client.get(f"/en/manage/events/{requested_bye.slug}/audit/").content.decode())
    sheet = _text(client.get(f"/en/manage/events/{requested_bye.slug}/rounds/2/").content.decode())
    assert "Round 2:" in audit
    for text in (audit, sheet):
        assert not re.search(r"\b1000\d\b", text)  # the stored board of a bye, 10000 + start number


@pytest.mark.parametrize(
    ("lang", "points", "change"), [("en", "1.5", "+10.0"), ("el", "1,5", "+10,0"), ("nb", "1,5", "+10,0")]
)
def test_every_number_of_the_profile_follows_the_language(client, ana, lang, points, change):
    """Points came with the language's decimal comma beside a rating change with a point (2,5 and +18.8)."""
    row = _text(
        search(
            r'<table class="profile-events">.*?</table>',
            client.get(f"/{lang}/players/{ana.pk}/").content.decode(),
            re.S,
        ).group(0)
    )
    assert points in row and change in row


def test_english_dates_are_day_month_year(client, ana):
    """A European league's English pages wrote 6 December 2026 as 12/06/2026, the US order."""
    ClubMembershipFactory(player=ana, since=datetime.date(2026, 12, 6), until=datetime.date(2027, 1, 31))
    text = _text(client.get(f"/en/players/{ana.pk}/").content.decode())
    assert "06/12/2026 – 31/01/2027" in text


def test_a_bye_counted_as_the_draw_it_was_shows_no_adjustment():
    """A requested half-point bye in the last round counts as a draw for the opponents: it was one already, so
    the explanation said "0.5 instead of 0.5 (Article 16.3)"."""
    adjustment = {"round": 5, "reason": "requested_bye_counts_as_draw", "article": "16.3"}
    element: dict[str, object] = {"round": 1, "opponent": 4, "dummy": False, "value": 3, "points": 1, "contribution": 3}
    element |= {"reason": "adjusted_score", "article": "8.1", "vur": False, "removed": None}
    trace = {"criterion": "BH", "value": 3, "total": 3, "divisor": None, "rounding": None, "reason": None}
    trace |= {"details": {"own_score": 2}}
    with translation.override("en"):
        same = explain_trace(
            trace | {"elements": [element | {"adjustments": [adjustment | {"awarded": 0.5, "counted": 0.5}]}]}
        )
        changed = explain_trace(
            trace | {"elements": [element | {"adjustments": [adjustment | {"awarded": 0, "counted": 0.5}]}]}
        )
    assert same.elements[0].adjustments == []
    assert "0.5 instead of 0" in changed.elements[0].adjustments[0]


def test_hebrew_player_page_keeps_signs_and_ranges_in_their_order(client, ana):
    """A right-to-left sentence showed a rating change −12.8 as 12.8− and a shared place 1–2 as 2–1."""
    cy = client.get("/he/events/spring-open/players/3/").content.decode()
    headline = shown(search(r'<p class="headline">(.*?)</p>', cy, re.S).group(1))
    assert "1–2" in headline and "2–1" not in headline  # Cy shares place 1 with Ana
    bo = client.get("/he/events/spring-open/players/2/").content.decode()
    rating = shown(search(r'<p class="rating-result">(.*?)</p>', bo, re.S).group(1))
    assert "−12.8" in rating and "12.8−" not in rating  # Bo lost to Ana: 20 x -.64
