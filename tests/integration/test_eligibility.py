"""Match card warnings: each one triggered by a hand-built card, none on a clean card."""

import pytest
from django.db.models import Q

from leagues.models import Entry, Event, Game, Result, Team, TeamMatch, TeamMember
from leagues.services.eligibility import (
    BOARD_ORDER,
    NOT_ON_ROSTER,
    PLAYED_FOR_HIGHER_TEAM,
    PLAYER_TWICE_ON_CARD,
    TWO_TEAMS_OF_CLUB,
    CardWarning,
    division_warnings,
    match_card_warnings,
    team_level,
)
from leagues.services.schedule import fixtures_generate
from tests.factories import ClubFactory, EventFactory, PlayerFactory, organiser_of
from tests.helpers import record_on_card

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

RATINGS = {
    "A 1": [2200, 2150, 2100, 2050],
    "A 2": [1950, 1900, 1850, 1800],
    "B 1": [2300, 2250, 2200, 2150],
    "C 1": [2000, 1990, 1980, 1970],
}


@pytest.fixture
def division():
    """Club A has two teams in the division. Start numbers A 1 = 1, A 2 = 2, B 1 = 3, C 1 = 4, so
    FIDE's table gives R1: A1-C1, A2-B1; R2: C1-B1, A1-A2; R3: A2-C1, B1-A1."""
    event = EventFactory(kind=Event.Kind.TEAM, system=Event.System.ROUND_ROBIN, boards=4, rounds_count=3)
    clubs = {"A": ClubFactory(), "B": ClubFactory(), "C": ClubFactory()}
    entries, rosters = {}, {}
    for number, (name, ratings) in enumerate(RATINGS.items(), start=1):
        team = Team.objects.create(event=event, club=clubs[name[0]], name=name)
        rosters[name] = [PlayerFactory(rating=r) for r in ratings]
        for board, player in enumerate(rosters[name], start=1):
            TeamMember.objects.create(team=team, player=player, board_order=board)
        entries[name] = Entry.objects.create(event=event, start_number=number, team=team)
    user = organiser_of(event.league)
    fixtures_generate(event=event, user=user)
    return event, entries, rosters, user


def _match(event, round_number, entry):
    return TeamMatch.objects.get(Q(home=entry) | Q(away=entry), round__event=event, round__number=round_number)


def _game(match, board):
    return Game.objects.get(match=match, board=board)


def _put(match, entry, board, player):
    """Name `player` for `entry` on `board` of the card (what the card form saves)."""
    game = _game(match, board)
    if game.white_id == entry.pk:
        game.white_player = player
    else:
        game.black_player = player
    game.save()
    return game


def _lineup(rosters, home, away):
    return {board: (h, a) for board, (h, a) in enumerate(zip(rosters[home], rosters[away], strict=True), start=1)}


def test_generated_cards_are_clean(division):
    event, entries, rosters, _user = division
    assert division_warnings(event=event) == []
    match = _match(event, 1, entries["A 1"])
    assert match_card_warnings(match=match) == []
    assert match_card_warnings(match=match, lineup=_lineup(rosters, "A 1", "C 1")) == []


def test_player_not_on_the_roster(division):
    event, entries, rosters, _user = division
    match = _match(event, 1, entries["A 1"])  # A 1 at home against C 1
    stranger = PlayerFactory(rating=None)
    lineup = _lineup(rosters, "A 1", "C 1")
    lineup[2] = (stranger, rosters["C 1"][1])

    assert match_card_warnings(match=match, lineup=lineup) == [
        CardWarning(NOT_ON_ROSTER, 2, stranger.pk, entries["A 1"].pk, "home", match.pk, {"entry": entries["A 1"].pk})
    ]


def test_board_order_against_rating_beyond_the_tolerance(division):
    event, entries, rosters, _user = division
    match = _match(event, 1, entries["A 1"])
    p1, p2, p3, p4 = rosters["A 1"]  # 2200 2150 2100 2050
    lineup = _lineup(rosters, "A 1", "C 1")
    for board, player in enumerate((p4, p2, p3, p1), start=1):  # 2050 2150 2100 2200
        lineup[board] = (player, lineup[board][1])

    # board 2 is 100 above board 1: at the tolerance, no warning; board 4 is 150 above board 1
    assert match_card_warnings(match=match, lineup=lineup) == [
        CardWarning(
            BOARD_ORDER,
            4,
            p1.pk,
            entries["A 1"].pk,
            "home",
            match.pk,
            {
                "above_board": 1,
                "above_player": p4.pk,
                "rating": 2200,
                "above_rating": 2050,
                "difference": 150,
                "tolerance": 100,
            },
        )
    ]
    # tolerance 40: 2150>2050, 2100>2050, 2200>2050, 2200>2150, 2200>2100 (not 2100 below 2150)
    strict = match_card_warnings(match=match, lineup=lineup, board_order_tolerance=40)
    assert [(w.code, w.board, w.params["above_board"], w.params["difference"]) for w in strict] == [
        (BOARD_ORDER, 2, 1, 100),
        (BOARD_ORDER, 3, 1, 50),
        (BOARD_ORDER, 4, 1, 150),
        (BOARD_ORDER, 4, 2, 50),
        (BOARD_ORDER, 4, 3, 100),
    ]


def test_unrated_players_are_not_compared(division):
    event, entries, rosters, _user = division
    match = _match(event, 1, entries["A 1"])
    rosters["A 1"][0].rating = None
    rosters["A 1"][0].save()
    lineup = _lineup(rosters, "A 1", "C 1")
    lineup[1], lineup[4] = (rosters["A 1"][3], lineup[1][1]), (rosters["A 1"][0], lineup[4][1])
    assert match_card_warnings(match=match, lineup=lineup) == []


def test_same_player_twice_on_a_card(division):
    event, entries, rosters, _user = division
    match = _match(event, 1, entries["A 1"])
    lineup = _lineup(rosters, "A 1", "C 1")
    lineup[3] = (lineup[3][0], rosters["C 1"][0])  # away side: C 1's board 1 again on board 3

    assert match_card_warnings(match=match, lineup=lineup) == [
        CardWarning(
            PLAYER_TWICE_ON_CARD, 3, rosters["C 1"][0].pk, entries["C 1"].pk, "away", match.pk, {"boards": [1, 3]}
        )
    ]


def test_same_player_for_two_teams_of_a_club_in_one_round(division):
    event, entries, rosters, _user = division
    a1_card = _match(event, 1, entries["A 1"])  # A1-C1
    a2_card = _match(event, 1, entries["A 2"])  # A2-B1, where X is already named on board 1
    x = rosters["A 2"][0]
    lineup = _lineup(rosters, "A 1", "C 1")
    lineup[4] = (x, lineup[4][1])

    warnings = match_card_warnings(match=a1_card, lineup=lineup)
    a1 = entries["A 1"].pk
    assert warnings == [
        CardWarning(NOT_ON_ROSTER, 4, x.pk, a1, "home", a1_card.pk, {"entry": a1}),
        CardWarning(
            TWO_TEAMS_OF_CLUB, 4, x.pk, a1, "home", a1_card.pk, {"other_entry": entries["A 2"].pk, "rounds": [1]}
        ),
    ]

    # saved on the card, the organiser's report shows it on both cards
    _put(a1_card, entries["A 1"], 4, x)
    report = [(w.match_id, w.code, w.board, w.player_id) for w in division_warnings(event=event)]
    assert report == [
        (a1_card.pk, NOT_ON_ROSTER, 4, x.pk),
        (a1_card.pk, TWO_TEAMS_OF_CLUB, 4, x.pk),
        (a2_card.pk, TWO_TEAMS_OF_CLUB, 1, x.pk),
    ]


def _play_round_one_with_x_for_a1(event, entries, rosters, user, result):
    """X (A 2's board 1) plays board 4 for A 1 in round 1 and is taken off A 2's round-1 card."""
    x = rosters["A 2"][0]
    a1_card = _match(event, 1, entries["A 1"])
    game = _put(a1_card, entries["A 1"], 4, x)
    _put(_match(event, 1, entries["A 2"]), entries["A 2"], 1, None)
    record_on_card(game, result, user)
    return x, game


def test_player_who_played_for_a_higher_team(division):
    event, entries, rosters, user = division
    # board 4 of A1-C1: A 1 is home, home has black on even boards: X is black, a win for X
    x, _ = _play_round_one_with_x_for_a1(event, entries, rosters, user, Result.BLACK_WINS)
    a2_card = _match(event, 3, entries["A 2"])  # A2-C1, X on board 1 from the roster

    a2 = entries["A 2"].pk
    assert match_card_warnings(match=a2_card) == [
        CardWarning(
            PLAYED_FOR_HIGHER_TEAM, 1, x.pk, a2, "home", a2_card.pk, {"other_entry": entries["A 1"].pk, "rounds": [1]}
        )
    ]


def test_forfeit_by_the_player_is_no_appearance(division):
    event, entries, rosters, user = division
    # X is black on board 4 and his side lost by forfeit: he did not play
    _x, _ = _play_round_one_with_x_for_a1(event, entries, rosters, user, Result.WHITE_WINS_FORFEIT)
    assert match_card_warnings(match=_match(event, 3, entries["A 2"])) == []


def test_player_of_the_higher_team_who_played_for_the_lower_one(division):
    event, entries, rosters, user = division
    y = rosters["A 1"][3]  # A 1's board 4
    a2_card = _match(event, 1, entries["A 2"])
    game = _put(a2_card, entries["A 2"], 4, y)
    _put(_match(event, 1, entries["A 1"]), entries["A 1"], 4, None)
    record_on_card(game, Result.DRAW, user)

    a1_card = _match(event, 3, entries["A 1"])  # B1-A1: A 1 is away
    a1 = entries["A 1"].pk
    assert match_card_warnings(match=a1_card) == [
        CardWarning(
            TWO_TEAMS_OF_CLUB, 4, y.pk, a1, "away", a1_card.pk, {"other_entry": entries["A 2"].pk, "rounds": [1]}
        )
    ]


@pytest.mark.parametrize(
    ("name", "level"),
    [("Oslo SK 1", 1), ("Oslo SK 2", 2), ("Oslo SK 12", 12), ("Oslo SK II", 2), ("Oslo SK III", 3), ("Oslo SK", 1)],
)
def test_team_level_from_the_name(name, level):
    assert team_level(name) == level


def test_unnumbered_teams_ranked_by_roster_strength(division):
    event, entries, rosters, user = division
    # rename A 1 / A 2 to names without numbers: A 1's roster is stronger, so it stays the higher team
    Team.objects.filter(pk=entries["A 1"].team_id).update(name="A Seniors")
    Team.objects.filter(pk=entries["A 2"].team_id).update(name="A Juniors")
    _x, _ = _play_round_one_with_x_for_a1(event, entries, rosters, user, Result.DRAW)
    codes = [w.code for w in match_card_warnings(match=_match(event, 3, entries["A 2"]))]
    assert codes == [PLAYED_FOR_HIGHER_TEAM]
