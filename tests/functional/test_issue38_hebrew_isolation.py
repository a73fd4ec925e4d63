"""Issue 38, Hebrew: the standings' notes on a changed tie-break order and the tie-break policy's recommended orders
keep their codes, dates, reasons and ranges of rounds as isolated units (a range read "4–3" before), and a shared
place in brackets beside an opponent ("(1–4)") never breaks at its dash or leaves its brackets."""

import re

import pytest
from django.contrib.staticfiles import finders

from leagues.models import Game, Result
from leagues.recompute import store_snapshot
from tests.factories import TiebreakPolicyChangeFactory, organiser_of, swiss_event
from tests.helpers import engine_snapshot, present, search

pytestmark = pytest.mark.django_db


def test_the_policy_pages_recommended_orders_keep_their_ranges_of_rounds_in_order(client):
    event, _entries, _games = swiss_event(players=4, rounds=5)
    client.force_login(organiser_of(event.league))
    page = client.get(f"/he/manage/events/{event.slug}/policy/").content.decode()
    assert '<strong>שוויצרית, <bdi dir="ltr">3–4</bdi> סיבובים</strong>' in page
    assert '<strong>שוויצרית, <bdi dir="ltr">5–7</bdi> סיבובים</strong>' in page
    assert "<strong>שוויצרית, <bdi>8</bdi> סיבובים או יותר</strong>" in page
    english = client.get(f"/en/manage/events/{event.slug}/policy/").content.decode()
    assert '<strong>Swiss, <bdi dir="ltr">3–4</bdi> rounds</strong>' in english


def test_the_standings_note_of_a_changed_tie_break_order_isolates_its_parts(client):
    event, _entries, _games = swiss_event(players=4, rounds=5)
    TiebreakPolicyChangeFactory(event=event, criteria_before=["BH", "SB"], criteria_after=["BH/C1", "BH"])
    page = client.get(f"/he/events/{event.slug}/").content.decode()
    note = search(r'<p class="policy-change">(.*?)</p>', page, re.S).group(1)
    assert '<bdi dir="ltr">BH, SB</bdi>' in note and '<bdi dir="ltr">BH/C1, BH</bdi>' in note
    assert "<bdi>agreed at the captains&#x27; meeting</bdi>" in note
    assert re.search(r"<bdi>\d", note)  # the date


def test_a_shared_place_beside_an_opponent_is_one_unbreakable_unit(client):
    event, _entries, games = swiss_event(players=4, rounds=5)
    Game.objects.filter(pk__in=[g.pk for g in games]).update(result=Result.DRAW)  # all four on ½: places 1–4
    store_snapshot(event.pk, 1, engine_snapshot(event), 0)
    page = client.get(f"/he/events/{event.slug}/players/1/").content.decode()
    assert '<span class="muted opponent-place">(<bdi dir="ltr">1–4</bdi>)</span>' in page
    css = open(present(finders.find("site.css")), encoding="utf-8").read()
    assert re.search(r"\.opponent-place[^{]*\{[^}]*white-space: nowrap", css)
    assert re.search(r"\.headline bdi[^{]*\{[^}]*white-space: nowrap", css)  # "Place 1–4" in the headline
