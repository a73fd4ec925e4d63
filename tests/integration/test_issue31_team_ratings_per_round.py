"""Issue 31, FIDE's 2026 checklist row 29: ratings per round in team events. A board player's rating of the event
is recorded with the roster (round 1: the registry's then) and a newer rating list read during the season gives
it from a round on, through the API as for an individual event; the player's games, the board statistics, the
team rating report and its TRF file read each round's rating, and a later change of the registry moves none.

The season is the one of tests/integration/test_team_rating_report.py (four teams, four boards, three rounds, the
cards entered through the card service). Hand-worked: A1 (FIDE id 1500001) is rated 2100 at the start, C1
(1500021) 2080, B1 (1500011) 2090, D1 (1500031) 2070. A list read from round 3 rates A1 2150 and C1 2000. A1
plays board 1 in each round: round 1 against D1 (2070), round 2 against B1 (2090), round 3 against C1, who is
2000 by then, while A1 is 2150."""

import pytest
from rest_framework.test import APIClient

from leagues.models import Entry, Event, Game, MemberRating, Player, Result
from leagues.public.board_stats import board_statistics
from leagues.services.rating_report_teams import team_rating_report, team_rating_report_trf
from leagues.services.ratings import event_record
from tests.integration.test_team_rating_report import build_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

NEWER_LIST = "FIDE id;name;rating\n1500001;A1, Player;2150\n1500021;C1, Player;2000\n1500011;B1, Player;2090\n"
NEWER_LIST += "1599999;Z, Nobody;2000\n"


@pytest.fixture
def season():
    season = build_season()
    Event.objects.filter(pk=season.event.pk).update(status=Event.Status.RUNNING)  # public: the player pages show it
    Player.objects.filter(fide_id=1500001).update(rating=2300)  # the registry moves on: the event keeps 2100
    return season


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_newer_list_gives_the_team_players_their_rating_from_round_three_through_the_api(season):
    url = f"/api/v1/events/{season.event.slug}/ratings-list/"
    client = api(season.organiser)
    preview = client.post(url, {"content": NEWER_LIST, "from_round": 3}, format="json")
    assert preview.status_code == 200, preview.json()
    body = preview.json()
    assert (body["ok"], body["unchanged"], body["not_entered"]) == (True, 1, 1)  # B1 stays 2090; Z plays nowhere
    assert [(c["name"], c["team"], c["start_number"], c["before"], c["after"]) for c in body["changes"]] == [
        ("A1, Player", "Club A 1", season.teams["A"].start_number, 2100, 2150),
        ("C1, Player", "Club C 1", season.teams["C"].start_number, 2080, 2000),
    ]
    assert not MemberRating.objects.filter(from_round=3).exists()
    done = client.post(url, {"content": NEWER_LIST, "from_round": 3, "confirm": True}, format="json")
    assert done.status_code == 200 and done.json()["confirmed"] is True, done.json()
    a1, c1 = Player.objects.get(fide_id=1500001), Player.objects.get(fide_id=1500021)
    assert sorted(
        MemberRating.objects.filter(event=season.event, player__in=[a1, c1]).values_list(
            "player__fide_id", "from_round", "rating"
        )
    ) == [(1500001, 1, 2100), (1500001, 3, 2150), (1500021, 1, 2080), (1500021, 3, 2000)]

    record = event_record(a1.pk, season.event)
    assert record is not None
    assert record.rating == 2100 and record.rating_changes == [(3, 2150)]
    assert [(g.round, g.opponent_name, g.opponent_rating, g.own_rating) for g in record.games] == [
        (1, "D1, Player", 2070, 2100),
        (2, "B1, Player", 2090, 2100),
        (3, "C1, Player", 2000, 2150),
    ]
    # the board statistics: A1's opponents at their ratings of the round, (2070 + 2090 + 2000) / 3 = 2053.33
    a1_overall = next(s for s in board_statistics(event=season.event) if s.player_id == a1.pk and s.board is None)
    assert (a1_overall.rating, a1_overall.opponents_rating) == (2100, 2053)


def test_the_team_rating_report_and_its_trf_give_each_round_its_rating(season):
    client = api(season.organiser)
    url = f"/api/v1/events/{season.event.slug}/ratings-list/"
    done = client.post(url, {"content": NEWER_LIST, "from_round": 3, "confirm": True}, format="json")
    assert done.status_code == 200, done.json()
    report = team_rating_report(event=season.event, user=season.organiser)
    rows = {row.player.fide_id: row for row in report.players}
    assert (rows[1500001].rating, rows[1500001].newer) == (2100, ((3, 2150),))
    assert (rows[1500021].rating, rows[1500021].newer) == (2080, ((3, 2000),))
    assert (rows[1500011].rating, rows[1500011].newer) == (2090, ())
    trf = team_rating_report_trf(event=season.event, user=season.organiser)
    lines = trf.split("\r\n")
    ratings = {int(line[57:68]): line[48:52].strip() for line in lines if line.startswith("001")}
    assert (ratings[1500001], ratings[1500021]) == ("2100", "2080")  # round 1's, not the registry's 2300
    numbers = {int(line[57:68]): int(line[4:8]) for line in lines if line.startswith("001")}
    assert f"### rating from round 3: {numbers[1500001]:4d} 2150" in lines
    assert f"### rating from round 3: {numbers[1500021]:4d} 2000" in lines


def test_a_players_games_are_found_by_index_in_a_site_of_many_games_in_team_and_individual_events(season):
    """A player's pages (the event's player card, the player's page, the calendar) read the player's games, on a team's
    board and as an individual event's entry, out of every game of the site: years of leagues. On PostgreSQL they are
    read from the game columns' indexes, never by reading every game."""
    from django.db import connection

    from leagues.selectors import player_games
    from leagues.services.ratings import player_events
    from leagues.services.results import result_record
    from tests.conftest import require
    from tests.factories import GameFactory, RoundFactory, organiser_of, swiss_event

    a1 = Player.objects.get(fide_id=1500001)
    rapid, entries, games = swiss_event(players=4, name="Bergen Rapid")
    Entry.objects.filter(pk=entries[0].pk).update(player=a1)  # A1 also plays the rapid, white on board 1
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser_of(rapid.league))
    history, others, _ = swiss_event(players=2, name="Older Open")
    for number in range(2, 5):  # another event's 3,000 games, none of them A1's
        rnd = RoundFactory(event=history, number=number)
        Game.objects.bulk_create(
            Game(round=rnd, board=board, white=others[0], black=others[1], result="1-0") for board in range(1, 1001)
        )
    GameFactory(round=rnd, board=1001, white=others[1], black=others[0])
    assert [(record.event.name, len(record.games)) for record in player_events(a1)] == [
        ("Division One", 3),
        ("Bergen Rapid", 1),
    ]
    require(connection.vendor == "postgresql", "the query plan is PostgreSQL's")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE leagues_game")
    plan = Game.objects.filter(player_games(a1)).explain()
    assert "Seq Scan on leagues_game" not in plan, plan
