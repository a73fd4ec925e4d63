"""Pages for events in other shapes: nothing played yet, an individual round robin; and query counts."""

import re

import pytest
from django.utils import translation

from leagues.models import Entry, Event, Result
from tests.factories import EventFactory, PlayerFactory, swiss_event
from tests.helpers import search
from tiebreaks.explanations import explain_trace

from .conftest import publish_results, record

pytestmark = pytest.mark.django_db


def test_an_event_without_results_still_has_every_page(client):
    event, entries, _games = swiss_event(players=5, rounds=5)
    for url in ["", "crosstable/", "rounds/1/", "players/1/", "players/5/", "why/", "why/?a=1&b=2"]:
        response = client.get(f"/en/events/{event.slug}/{url}")
        assert response.status_code in (200, 404), url
        if url in ("", "crosstable/", "rounds/1/", "players/1/", "why/"):
            assert response.status_code == 200, url
    html = client.get(f"/en/events/{event.slug}/").content.decode()
    assert "No results yet." in html
    round_html = client.get(f"/en/events/{event.slug}/rounds/1/").content.decode()
    assert entries[0].player.name in round_html and "not played yet" in round_html
    # the evening of round 1: a player finds tonight's opponent on their own page
    player_html = client.get(f"/en/events/{event.slug}/players/1/").content.decode()
    rounds_table = search(r'<table class="[^"]*rounds">.*?</table>', player_html, re.S).group(0)
    assert entries[2].player.name in rounds_table and "not played yet" in rounds_table


@pytest.fixture
def round_robin(db):
    """Three players, three rounds: A beat B, B beat C, A drew C; one free round each."""
    event = EventFactory(
        name="Club Final",
        slug="club-final",
        rounds_count=3,
        system=Event.System.ROUND_ROBIN,
        tiebreak_criteria=["SB", "DE"],
    )
    a, b, c = (
        Entry.objects.create(event=event, start_number=n, player=PlayerFactory(name=name))
        for n, name in enumerate(["Ask, A", "Berg, B", "Carl, C"], start=1)
    )
    record(event, 1, 1, a, b, Result.WHITE_WINS)
    record(event, 2, 1, b, c, Result.WHITE_WINS)
    record(event, 3, 1, c, a, Result.DRAW)
    publish_results(event)
    return event


def test_round_robin_crosstable_is_a_grid_read_across(client, round_robin):
    html = client.get("/en/events/club-final/crosstable/").content.decode()
    assert 'class="crosstable grid"' in html
    rows = re.findall(r"<tr>\s*<td class=\"rank[^\"]*\">.*?</tr>", html, re.S)
    assert len(rows) == 3
    first = re.sub(r"<[^>]+>", " ", rows[0])
    # A: 1.5 points, first; beat B, drew C
    assert "Ask, A" in first and "1 " in first and "½" in first and "1.5" in first


def test_round_robin_player_page_explains_sonneborn_berger(client, round_robin):
    html = client.get("/en/events/club-final/players/1/").content.decode()
    # by hand: B finished on 1 (beat C), C on ½ (drew A); A beat B and drew C: SB = 1 x 1 + ½ x ½ = 1.25
    assert 'Sonneborn-Berger: <bdi dir="ltr" class="value">1.25</bdi>' in html
    assert "1 × 1 + 0.5 × 0.5 = 1.25" in html


def test_standings_page_queries_do_not_grow_with_players(client, django_assert_max_num_queries, demo):
    # 12, the verdict of FIDE's tools (one row, whatever the field) and the league's date style (its "Last updated")
    with django_assert_max_num_queries(14):
        assert client.get("/en/events/demo-autumn-open/").status_code == 200
    # and the player's ratings per round in the team events the player also plays (one query for all of them)
    with django_assert_max_num_queries(15):
        assert client.get("/en/events/demo-autumn-open/players/1/").status_code == 200
    with django_assert_max_num_queries(14):
        assert client.get("/en/events/demo-autumn-open/crosstable/").status_code == 200


def test_adjusted_score_explained_with_the_bye_that_counts_as_a_draw():
    trace = {
        "criterion": "BH",
        "value": 3.5,
        "total": 3.5,
        "divisor": None,
        "rounding": None,
        "reason": None,
        "details": {"own_score": 2},
        "elements": [
            {
                "round": 1,
                "opponent": 4,
                "dummy": False,
                "value": 3.5,
                "points": 1,
                "contribution": 3.5,
                "reason": "adjusted_score",
                "article": "8.1",
                "vur": False,
                "removed": None,
                "adjustments": [
                    {
                        "round": 5,
                        "reason": "requested_bye_counts_as_draw",
                        "article": "16.3",
                        "awarded": 0,
                        "counted": 0.5,
                    }
                ],
            }
        ],
    }
    with translation.override("en"):
        element = explain_trace(trace, name_of={4: "Lie, Henrik"}).elements[0]
    # the opponent scored 3 but a last-round zero-point bye counts as a draw for others: 3.5
    assert "Lie, Henrik, final score 3, counts with 3.5" in element.text
    assert "round 5" in element.adjustments[0] and "0.5 instead of 0" in element.adjustments[0]
    assert "16.3" in element.adjustments[0]


def test_a_team_number_under_players_leads_to_the_team_page(client, demo):
    response = client.get("/en/events/demo-division-1/players/1/")
    assert response.status_code == 302
    assert response["Location"].endswith("/en/events/demo-division-1/teams/1/")


def test_team_explanation_sentences_cover_the_team_engine_codes():
    from tiebreaks.engine.team import TEAM_REASONS
    from tiebreaks.explanations import element_sentence

    with translation.override("en"):
        for reason in TEAM_REASONS:
            element = {
                "round": 2,
                "opponent": 3,
                "value": 4,
                "points": 1,
                "contribution": 4,
                "reason": reason,
                "article": "13",
            }
            sentence = element_sentence(element, "MPTS", {}, {3: "Oslo SK 1"})
            assert reason not in sentence, f"no sentence for {reason}"


def test_charts_are_well_formed_svg_with_escaped_labels():
    from xml.etree import ElementTree

    from leagues.public import charts

    svg = charts.line_chart(
        title="Score <after> & round",
        series=[charts.Series("O'Neil <b>", [0, 1, 1.5]), charts.Series("Ø", [None, 0.5, 1])],
        x_labels=["1", "2", "3"],
    )
    root = ElementTree.fromstring(str(svg))  # noqa: S314 - our own chart's SVG
    assert root.tag.endswith("svg") and root.get("role") == "img"
    assert "<b>" not in str(svg)
    assert len(root.findall("{http://www.w3.org/2000/svg}polyline")) == 2


@pytest.fixture
def team_match(db):
    """One match on two boards: home wins board 1 with White and draws board 2.
    By hand: home 1½ game points and 2 match points, away ½ and 0."""
    from leagues.models import Game, Round, Team, TeamMatch, TeamMember
    from tests.factories import ClubFactory

    event = EventFactory(
        name="Mini Division",
        slug="mini-division",
        kind=Event.Kind.TEAM,
        system=Event.System.ROUND_ROBIN,
        rounds_count=1,
        boards=2,
        tiebreak_criteria=["MPTS", "GPTS", "EDE", "EMMSB"],
    )
    entries, rosters = [], []
    for number, name in enumerate(["Lund", "Moss"], start=1):
        team = Team.objects.create(event=event, club=ClubFactory(name=f"{name} SK"), name=f"{name} SK 1")
        players = [PlayerFactory(name=f"{name}, Board{board}") for board in (1, 2)]
        for board, player in enumerate(players, start=1):
            TeamMember.objects.create(team=team, player=player, board_order=board)
        entries.append(Entry.objects.create(event=event, start_number=number, team=team))
        rosters.append(players)
    home, away = entries
    rnd = Round.objects.create(event=event, number=1)
    match = TeamMatch.objects.create(round=rnd, home=home, away=away)
    Game.objects.create(
        round=rnd,
        match=match,
        board=1,
        white=home,
        black=away,
        white_player=rosters[0][0],
        black_player=rosters[1][0],
        result=Result.WHITE_WINS,
    )
    Game.objects.create(
        round=rnd,
        match=match,
        board=2,
        white=away,
        black=home,
        white_player=rosters[1][1],
        black_player=rosters[0][1],
        result=Result.DRAW,
    )
    publish_results(event)
    return event


def test_team_page_shows_the_roster_with_board_points(client, team_match):
    html = client.get("/en/events/mini-division/teams/1/").content.decode()
    roster = search(r'<table class="data roster">(.*?)</table>', html, re.S).group(1)
    rows = [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
        for row in re.findall(r"<tr>(.*?)</tr>", roster, re.S)[1:]
    ]
    assert rows[0].startswith("1 Lund, Board1") and rows[0].endswith("1 1")
    assert rows[1].startswith("2 Lund, Board2") and rows[1].endswith("1 0.5")
    # the match card: home | result | away, each team's score beside its own name (in Hebrew too)
    card = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", search(r'<h3 class="fixture">.*?</h3>', html, re.S).group(0)))
    assert re.search(r"Lund SK 1 1\.5 – 0\.5 \S", card)
    hebrew = client.get("/he/events/mini-division/teams/1/").content.decode()
    home = search(r'<span class="side home">.*?</span></span>', hebrew, re.S).group(0)
    assert "Lund SK 1" in home and '<span class="score" dir="ltr">1.5</span>' in home


def test_team_standings_and_crosstable_add_up_the_match(client, team_match):
    html = client.get("/en/events/mini-division/").content.decode()
    first = search(r"<tbody>\s*<tr.*?</tr>", html, re.S).group(0)
    cells = re.findall(r"<td>(.*?)</td>", first)  # rank, start number, club, played, won, drawn, lost, tie-breaks
    assert "Lund SK 1" in first and cells[7:9] == ["2", "1.5"]
    grid = client.get("/en/events/mini-division/crosstable/").content.decode()
    assert "1.5–0.5" in grid and "0.5–1.5" in grid


def test_team_criteria_follow_match_and_game_points_with_their_names(client, team_match):
    html = client.get("/en/events/mini-division/").content.decode()
    headers = re.findall(r'<abbr title="([^"]+)"><bdi>([^<]+)</bdi></abbr>', html)
    assert [short for _, short in headers[:4]] == ["MP", "GP", "EDE", "EMMSB"]
    team = client.get("/en/events/mini-division/teams/1/").content.decode()
    assert team.count('class="explained"') == 4


def test_standings_link_to_the_latest_round(client, bye_event):
    html = client.get("/en/events/bye-cup/").content.decode()
    assert '<a href="/en/events/bye-cup/rounds/3/">Pairings and results of round 3</a>' in html
