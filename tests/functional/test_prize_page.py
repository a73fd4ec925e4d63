"""The prize page as a visitor sees it: the fund, then who receives what and why, provisional until finished."""

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from rest_framework.test import APIClient

from leagues.models import Event, StandingsSnapshot
from leagues.services.events import event_status_set
from leagues.services.prizes import prizes_recompute
from tests.factories import organiser_of
from tests.helpers import fund_with, player, search, snapshot_event
from tiebreaks.money import money

from .conftest import LANGUAGES

pytestmark = pytest.mark.django_db


def page(client, event, lang="en"):
    response = client.get(f"/{lang}/events/{event.slug}/prizes/")
    assert response.status_code == 200
    return response.content.decode()


def page_lines(content):
    """The explanation lines as shown, in order (text of each <li data-code>)."""
    return [
        html.unescape(re.sub(r"<[^>]+>", "", text))
        for text in re.findall(r'<li data-code="[a-z0-9_]+">(.*?)</li>', content, re.S)
    ]


@pytest.fixture
def two_tied(db):
    """Spec T13: Ana and Bo tied for first with prizes £200 + trophy and £100; Ana ahead on BH/C1 12 to 11½."""
    event, snapshot = snapshot_event(
        [player("Ana", 4, {"BH/C1": 12}), player("Bo", 4, {"BH/C1": 11.5}), player("Cai", 3, {"BH/C1": 11})]
    )
    fund_with(event, places=[(1, 20000, "Trophy"), (2, 10000)])
    prizes_recompute(event.pk, snapshot)
    return event


def test_page_explains_pooled_money_and_the_trophy_by_tiebreak(client, two_tied):
    content = page(client, two_tied)

    # (£200 + £100) / 2 = £150 each; the trophy by Buchholz Cut-1, 12 against 11½
    assert page_lines(content) == [
        "Places 1–2 shared by Ana and Bo: £200 + £100 pooled, £150 each.",
        "Trophy for place 1 to Ana, ahead of Bo on Buchholz Cut-1: 12 against 11.5.",
    ]
    assert "£300" in content  # the fund's total
    assert "the remainder stays with the organiser" in content  # §14: show the rounding rule
    winners = search(r'<table class="data awards">.*?</table>', content, re.S).group(0)
    assert winners.count("£150") == 2 and "Trophy" in winners and "Cai" not in winners


def test_shared_first_place_is_shown_as_1_2_in_the_winners(client, two_tied):
    # Ana and Bo differ on BH/C1, so they are 1 and 2; a full tie shows the shared place
    event, snapshot = snapshot_event([player("Dag", 3), player("Eli", 3)])
    fund_with(event, places=[(1, 1000)])
    prizes_recompute(event.pk, snapshot)
    winners = search(r'<table class="data awards">.*?</table>', page(client, event), re.S).group(0)
    assert winners.count(">1–2<") == 2
    assert winners.count("£5") == 2  # 1000 / 2 = 500 pence


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_page_is_provisional_until_the_event_is_finished(client, two_tied):
    assert "Provisional" in page(client, two_tied)
    organiser = organiser_of(two_tied.league)
    for status in (Event.Status.RUNNING, Event.Status.FINISHED):
        event_status_set(event=two_tied, user=organiser, status=status)
    assert "Provisional" not in page(client, two_tied)


def test_api_lines_equal_the_page_lines(client, two_tied):
    body = APIClient().get(f"/api/v1/events/{two_tied.slug}/prizes/").json()
    content = page(client, two_tied)

    assert [line["text"] for line in body["lines"]] == page_lines(content)
    assert re.findall(r'<li data-code="([a-z0-9_]+)">', content) == [line["code"] for line in body["lines"]]
    assert body["provisional"] is True and "Provisional" in content


def test_three_way_tie_shows_58_33_and_the_penny_kept(client):
    # T13: (£100 + £50 + £25) / 3 = £58.33, £0.01 left over
    event, snapshot = snapshot_event([player("Ana", 5), player("Bo", 5), player("Cai", 5)])
    fund_with(event, places=[(1, 10000), (2, 5000), (3, 2500)])
    prizes_recompute(event.pk, snapshot)

    content = page(client, event)

    assert "£58.33 each" in " ".join(page_lines(content))
    assert "Rounding remainder kept by the organiser: £0.01." in content


def test_without_a_published_fund_the_page_says_so(client):
    event, _ = snapshot_event([player("Ana", 4)])
    assert "No prize fund has been published for this event." in page(client, event)


def test_standings_newer_than_the_prizes_show_being_updated(client, two_tied):
    StandingsSnapshot.objects.filter(event=two_tied).update(version=2)
    Event.objects.filter(pk=two_tied.pk).update(results_version=2)
    assert "Being updated" in page(client, two_tied)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_page_answers_in_every_language(client, two_tied, lang):
    content = page(client, two_tied, lang)
    tag = search(r"<html[^>]*>", content).group(0)
    assert f'lang="{lang}"' in tag
    assert ('dir="rtl"' if lang == "he" else 'dir="ltr"') in tag
    assert content.count("<h1") == 1


# ----------------------------------------------------------------------------------------------- demo


def test_demo_swiss_shares_first_prize_money(client, demo):
    event = Event.objects.get(slug="demo-autumn-open")
    prizes_recompute(event.pk, None)
    rows = StandingsSnapshot.objects.get(event=event).rows
    first, second, third = rows[0], rows[1], rows[2]
    assert first["points"] == second["points"] > third["points"]  # two tied for first

    body = APIClient().get("/api/v1/events/demo-autumn-open/prizes/").json()
    money = {award["name"]: award["money"] for award in body["awards"]}
    # the demo fund: £200, £100, £50 — the two leaders pool £300: 15000 pence each
    assert money[first["name"]] == money[second["name"]] == 15000
    assert body["lines"][0]["code"] == "places_shared_pooled"
    assert f"Places 1–2 shared by {first['name']} and {second['name']}: £200 + £100 pooled, £150 each." in page_lines(
        page(client, event)
    )
    assert body["provisional"] is True  # the demo events are not finished


def test_demo_division_trophy_is_decided_by_game_points(client, demo):
    event = Event.objects.get(slug="demo-division-1")
    prizes_recompute(event.pk, None)
    rows = StandingsSnapshot.objects.get(event=event).rows
    winner, runner_up = rows[0], rows[1]
    assert winner["values"]["MPTS"] == runner_up["values"]["MPTS"]  # tied on match points
    assert winner["values"]["GPTS"] > runner_up["values"]["GPTS"]

    body = APIClient().get("/api/v1/events/demo-division-1/prizes/").json()
    trophy = next(line for line in body["lines"] if line["code"] == "item_by_tiebreak")
    assert trophy["params"]["criterion"] == "GPTS"
    assert trophy["params"]["name"] == winner["name"] and trophy["params"]["other_name"] == runner_up["name"]
    awards = {award["name"]: award for award in body["awards"]}
    assert awards[winner["name"]]["items"] == ["Division trophy"]
    # £100 + £50 pooled between the two teams level on match points: 7500 each
    assert awards[winner["name"]]["money"] == awards[runner_up["name"]]["money"] == 7500
    assert "Division trophy for place 1 to" in " ".join(page_lines(page(client, event)))


def test_page_queries_do_not_grow_with_the_number_of_winners(client, django_assert_max_num_queries):
    def event_with(winners):
        event, snapshot = snapshot_event([player(f"W{n}", 3) for n in range(winners)])
        fund_with(event, places=[(n, 1000) for n in range(1, winners + 1)])
        prizes_recompute(event.pk, snapshot)
        return event

    small, large = event_with(2), event_with(8)
    with CaptureQueriesContext(connection) as few:
        page(client, small)
    with django_assert_max_num_queries(len(few.captured_queries)):
        page(client, large)


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_prize_guide_writes_money_as_the_prize_pages_do(client, lang):
    """The guide's example (places €200 + trophy, €100, €50; Ana and Bo tied first) in the site's money
    format: the pooled share of places 1 and 2 is €150 each, written like the prize page writes it."""
    content = client.get(f"/{lang}/tiebreaks/prizes/").content.decode()
    with translation.override(lang):
        first, shared = money(20000, "EUR"), money(15000, "EUR")
    assert first in content and shared in content
    assert "€€" not in content and "€ €" not in content
