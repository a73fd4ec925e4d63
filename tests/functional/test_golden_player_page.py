"""A player page's explanation matches the engine's values for a golden tournament imported into the
database: the FIDE tie-break checker's values for a generated 12-player, 6-round Swiss (with byes and
forfeits), imported from its TRF, recomputed with BH/C1, BH, SB, and read on the public pages."""

import json
import re
from decimal import Decimal

import pytest
from django.db.models import F

from leagues.models import Event
from leagues.recompute import standings_recompute_event
from leagues.services.trf import event_import_trf
from tests.factories import LeagueFactory, organiser_of
from tests.helpers import section, text_of
from tests.paths import GOLDEN as _FIDE2026

GOLDEN = _FIDE2026.parent
CASE = GOLDEN / "fide2026" / "swiss-p012-r06-s01005.json"
CRITERIA = ["BH/C1", "BH", "SB"]
TITLES = {"BH/C1": "Buchholz Cut-1:", "BH": "Buchholz:", "SB": "Sonneborn-Berger:"}

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def shown(value) -> str:
    """A golden number as the page prints it: no trailing zeros."""
    number = Decimal(str(value))
    return format(number.normalize(), "f") if number != number.to_integral_value() else str(int(number))


@pytest.fixture
def golden():
    if not CASE.exists():
        pytest.skip(f"golden file missing: {CASE}")
    return json.loads(CASE.read_text(encoding="utf-8"))


@pytest.fixture
def golden_event(golden):
    league = LeagueFactory()
    event = event_import_trf(
        league=league,
        name="Golden Swiss",
        slug="golden-swiss",
        data=golden["trf"].encode(),
        user=organiser_of(league),
    )
    # the organiser publishes the order; the new results version makes the recompute store a snapshot
    Event.objects.filter(pk=event.pk).update(tiebreak_criteria=CRITERIA, results_version=F("results_version") + 1)
    assert standings_recompute_event(event.pk)
    return event


# players with a pairing-allocated bye, a half-point bye, and ordinary rounds
PLAYERS = ["1", "2", "6", "9", "12"]


@pytest.mark.parametrize("number", PLAYERS)
def test_player_page_explanation_shows_the_golden_values(client, golden, golden_event, number):
    html = client.get(f"/en/events/golden-swiss/players/{number}/").content.decode()
    expected = golden["expected"][number]
    for code in CRITERIA:
        block = section(html, TITLES[code])
        value = shown(expected[code])
        assert f"{TITLES[code]} {value}" in block, (number, code, block[:300])
        # the arithmetic adds up the kept elements to the same golden value
        arithmetic = re.search(r"([-\d.]+(?: × [-\d.]+)?(?: \+ [-\d.]+(?: × [-\d.]+)?)+) = ([-\d.]+)", block)
        if arithmetic:
            terms = arithmetic.group(1).split(" + ")
            total = sum(
                (Decimal(t.split(" × ")[0]) * Decimal(t.split(" × ")[1]) if "×" in t else Decimal(t)) for t in terms
            )
            assert total == Decimal(str(expected[code])) == Decimal(arithmetic.group(2))


def test_standings_follow_the_golden_points_and_values(client, golden, golden_event):
    text = text_of(client.get("/en/events/golden-swiss/").content.decode())
    for number in PLAYERS:
        expected = golden["expected"][number]
        cells = " ".join(shown(expected[c]) for c in ["PTS", *CRITERIA])
        assert cells in text, (number, cells)


def test_player_page_explains_the_bye_with_the_dummy_opponent(client, golden, golden_event):
    # player 1 had a pairing-allocated bye in round 4 and player 2 a half-point bye in round 3
    one = section(client.get("/en/events/golden-swiss/players/1/").content.decode(), "Buchholz:")
    two = section(client.get("/en/events/golden-swiss/players/2/").content.decode(), "Buchholz:")
    assert "Round 4" in one and "dummy opponent" in one
    assert "Round 3" in two and "dummy opponent" in two
