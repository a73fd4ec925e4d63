"""No public page and no API list reads the database once per row: an event of 60 players costs the same
number of queries as one of 10 (each page rendered, not served from the page cache)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.helpers import played_division, played_swiss

pytestmark = pytest.mark.django_db

INDIVIDUAL_PAGES = [
    "/en/events/{slug}/",
    "/en/events/{slug}/crosstable/",
    "/en/events/{slug}/rounds/2/",
    "/en/events/{slug}/players/3/",
    "/en/events/{slug}/why/?a=1&b=2",
    "/en/events/{slug}/standings.csv",
    "/en/events/{slug}/rounds.ics",
    "/en/events/{slug}/prizes/",
    "/en/players/{player}/",
    "/en/clubs/{club}/",
    "/en/leagues/{league}/seasons/{season}/",
    "/en/",
    "/embed/en/events/{slug}/standings/?rows=50",
    "/embed/en/events/{slug}/results/",
    "/api/v1/events/{slug}/standings/?explain=1",
    "/api/v1/events/{slug}/entries/",
    "/api/v1/events/{slug}/rounds/",
    "/api/v1/games/?event={slug}",
    "/api/v1/players/?club={club}",
    "/api/v1/events/",
]
TEAM_PAGES = [
    "/en/events/{slug}/",
    "/en/events/{slug}/crosstable/",
    "/en/events/{slug}/rounds/1/",
    "/en/events/{slug}/teams/1/",
    "/en/events/{slug}/boards/",
    "/en/events/{slug}/teams/1/fixtures.ics",
    "/embed/en/events/{slug}/results/",
    "/embed/en/events/{slug}/teams/1/fixtures/",
    "/api/v1/matches/?event={slug}",
    "/api/v1/teams/?event={slug}",
]


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    assert response.content  # a page with rows, not an empty answer
    return len(captured), [q["sql"] for q in captured]


def individual_urls(event, entries, page):
    return page.format(
        slug=event.slug,
        player=entries[2].player_id,
        club=entries[0].player.clubmembership_set.first().club.slug,
        league=event.league.slug,
        season=event.season.slug,
    )


@pytest.mark.parametrize("page", INDIVIDUAL_PAGES)
def test_an_individual_event_page_costs_the_same_queries_for_10_and_60_players(client, page):
    small, small_entries = played_swiss(10)
    large, large_entries = played_swiss(60)
    few, _ = queries(client, individual_urls(small, small_entries, page))
    many, sql = queries(client, individual_urls(large, large_entries, page))
    assert many == few, "\n".join(sql)


@pytest.mark.parametrize("page", TEAM_PAGES)
def test_a_team_division_page_costs_the_same_queries_for_10_and_60_players(client, page):
    small, _ = played_division(teams=4, boards=3)  # 12 players
    large, _ = played_division(teams=12, boards=5)  # 60 players
    few, _ = queries(client, page.format(slug=small.slug))
    many, sql = queries(client, page.format(slug=large.slug))
    assert many == few, "\n".join(sql)


@pytest.mark.parametrize(
    "page",
    [
        "/en/events/{slug}/",
        "/en/events/{slug}/crosstable/",
        "/en/events/{slug}/rounds/2/",
        "/en/events/{slug}/why/",
        "/en/events/{slug}/standings.csv",
        "/embed/en/events/{slug}/standings/?rows=50",
        "/api/v1/events/{slug}/standings/",
    ],
)
def test_a_page_without_explanations_never_reads_the_traces(client, page):
    """The traces are most of a snapshot (a 1,000-player open's: about 10 MB of JSON): only the pages that show
    them read them."""
    event, entries = played_swiss(10)
    _, sql = queries(client, individual_urls(event, entries, page))
    assert not [q for q in sql if "explanations" in q], "\n".join(sql)


def test_the_player_page_still_reads_the_traces(client):
    event, entries = played_swiss(10)
    _, sql = queries(client, individual_urls(event, entries, "/en/events/{slug}/players/3/"))
    assert [q for q in sql if "explanations" in q]
