"""Board statistics computed by hand on a three-team division with a forfeit board.

Three teams, two boards, FIDE's 4-player table with 4 as the bye:
R1 T2-T3 (T1 free), R2 T1-T2 (T3 free), R3 T3-T1 (T2 free); home white on board 1.

Ratings: a1 2000, a2 1900 (T1); b1 1800, b2 1700 (T2); c1 2100, c2 1600 (T3).

R1 T2-T3  board 1 b1-c1 0-1        board 2 c2-b2 ½-½
R2 T1-T2  board 1 a1-b1 1-0        board 2 b2-a2 +/- (a2 forfeits)
R3 T3-T1  board 1 c1-a2 ½-½        board 2 a1-c2 0-1  (T1 swapped its boards)

FIDE table 8.1(a): dp(100 %) = 800, dp(75 %) = 193, dp(50 %) = 0, dp(0 %) = -800.
"""

from fractions import Fraction as F

import pytest

from leagues.models import Entry, Event, Game, Result, Team, TeamMatch, TeamMember
from leagues.public.board_stats import board_statistics
from leagues.services.match_cards import match_card_submit
from leagues.services.schedule import fixtures_generate
from tests.factories import ClubFactory, EventFactory, PlayerFactory, organiser_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


@pytest.fixture
def division():
    event = EventFactory(kind=Event.Kind.TEAM, system=Event.System.ROUND_ROBIN, boards=2, rounds_count=3)
    players, entries = {}, {}
    for number, (team_name, names) in enumerate(
        (
            ("T1", (("a1", 2000), ("a2", 1900))),
            ("T2", (("b1", 1800), ("b2", 1700))),
            ("T3", (("c1", 2100), ("c2", 1600))),
        ),
        start=1,
    ):
        team = Team.objects.create(event=event, club=ClubFactory(), name=team_name)
        for board, (name, rating) in enumerate(names, start=1):
            players[name] = PlayerFactory(name=name, rating=rating)
            TeamMember.objects.create(team=team, player=players[name], board_order=board)
        entries[team_name] = Entry.objects.create(event=event, start_number=number, team=team)
    user = organiser_of(event.league)
    fixtures_generate(event=event, user=user)

    def game(round_number, board):
        return Game.objects.get(round__event=event, round__number=round_number, board=board)

    # T1 swaps its boards in round 3: a2 on board 1 (black), a1 on board 2 (white)
    g = game(3, 1)
    assert (g.white_player, g.black_player) == (players["c1"], players["a1"])
    g.black_player = players["a2"]
    g.save()
    g = game(3, 2)
    assert (g.white_player, g.black_player) == (players["a2"], players["c2"])
    g.white_player = players["a1"]
    g.save()
    results = {
        (1, 1): Result.BLACK_WINS,
        (1, 2): Result.DRAW,
        (2, 1): Result.WHITE_WINS,
        (2, 2): Result.WHITE_WINS_FORFEIT,
        (3, 1): Result.DRAW,
        (3, 2): Result.BLACK_WINS,
    }
    cards: dict = {}
    for (round_number, board), result in results.items():
        g = game(round_number, board)
        cards.setdefault(g.match_id, {})[g.pk] = (result, g.version)
    for match_id, card in cards.items():
        match = TeamMatch.objects.get(pk=match_id)
        match_card_submit(match_id=match_id, results=card, user=user, expected_version=match.version)
    return event, players, entries


def _by_key(stats, players):
    names = {p.pk: name for name, p in players.items()}
    return {
        (names[s.player_id], s.board): (
            s.games,
            s.points,
            s.forfeits_won,
            s.forfeits_lost,
            s.total_points,
            s.opponents_rating,
            s.performance,
        )
        for s in stats
    }


def test_board_statistics_by_hand(division):
    event, players, entries = division
    stats = board_statistics(event=event)

    # (games, points, forfeits won, forfeits lost, total points, opponents' rating, performance)
    assert _by_key(stats, players) == {
        # a1: board 1 beat b1 (1800): 100 %; board 2 lost to c2 (1600): 0 %; overall 1/2 vs avg 1700
        ("a1", 1): (1, F(1), 0, 0, F(1), 1800, 2600),
        ("a1", 2): (1, F(0), 0, 0, F(0), 1600, 800),
        ("a1", None): (2, F(1), 0, 0, F(1), 1700, 1700),
        # a2: forfeited board 2 (no game, no performance); drew c1 (2100) on board 1
        ("a2", 2): (0, F(0), 0, 1, F(0), None, None),
        ("a2", 1): (1, F(1, 2), 0, 0, F(1, 2), 2100, 2100),
        ("a2", None): (1, F(1, 2), 0, 1, F(1, 2), 2100, 2100),
        # b1: lost to c1 (2100) and a1 (2000): avg 2050, 0 %
        ("b1", 1): (2, F(0), 0, 0, F(0), 2050, 1250),
        ("b1", None): (2, F(0), 0, 0, F(0), 2050, 1250),
        # b2: drew c2 (1600), won by forfeit: the forfeit is no game for the performance (50 %, not 75 %)
        ("b2", 2): (1, F(1, 2), 1, 0, F(3, 2), 1600, 1600),
        ("b2", None): (1, F(1, 2), 1, 0, F(3, 2), 1600, 1600),
        # c1: beat b1 (1800), drew a2 (1900): avg 1850, 75 % -> +193
        ("c1", 1): (2, F(3, 2), 0, 0, F(3, 2), 1850, 2043),
        ("c1", None): (2, F(3, 2), 0, 0, F(3, 2), 1850, 2043),
        # c2: drew b2 (1700), beat a1 (2000): avg 1850, 75 %
        ("c2", 2): (2, F(3, 2), 0, 0, F(3, 2), 1850, 2043),
        ("c2", None): (2, F(3, 2), 0, 0, F(3, 2), 1850, 2043),
    }
    team_of = {s.player_id: s.entry_id for s in stats}
    assert team_of[players["a2"].pk] == entries["T1"].pk
    assert team_of[players["b2"].pk] == entries["T2"].pk


def test_order_per_board_then_overall(division):
    event, players, _entries = division
    names = {p.pk: name for name, p in players.items()}
    order = [(names[s.player_id], s.board) for s in board_statistics(event=event)]
    assert order == [
        # board 1: c1 3/2; a1 1 (2600); a2 1/2; b1 0
        ("c1", 1),
        ("a1", 1),
        ("a2", 1),
        ("b1", 1),
        # board 2: c2 3/2 (2043); b2 3/2 (1600); a1 0 (800); a2 0 (no performance)
        ("c2", 2),
        ("b2", 2),
        ("a1", 2),
        ("a2", 2),
        # overall: c1, c2 3/2 (2043, 2 games; by name); b2 3/2 (1600); a1 1; a2 1/2; b1 0
        ("c1", None),
        ("c2", None),
        ("b2", None),
        ("a1", None),
        ("a2", None),
        ("b1", None),
    ]


def test_unrated_opponent_needs_the_announced_rating(division):
    event, players, _entries = division
    players["c2"].rating = None
    players["c2"].save()

    stats = {(s.player_id, s.board): s for s in board_statistics(event=event)}
    b2 = stats[(players["b2"].pk, None)]
    assert (b2.opponents_rating, b2.performance) == (None, None)
    a1 = stats[(players["a1"].pk, None)]
    assert (a1.opponents_rating, a1.performance) == (None, None)
    c2 = stats[(players["c2"].pk, None)]  # her own opponents are rated
    assert (c2.rating, c2.opponents_rating, c2.performance) == (None, 1850, 2043)

    Event.objects.filter(pk=event.pk).update(unrated_rating=1500)
    event.refresh_from_db()
    stats = {(s.player_id, s.board): s for s in board_statistics(event=event)}
    b2 = stats[(players["b2"].pk, None)]
    assert (b2.opponents_rating, b2.performance) == (1500, 1500)
    # a1: 1800 and 1500 -> 1650, 50 %
    a1 = stats[(players["a1"].pk, None)]
    assert (a1.opponents_rating, a1.performance) == (1650, 1650)


def test_event_scoring_and_half_up_rounding(division):
    event, players, _entries = division
    Event.objects.filter(pk=event.pk).update(points_win=3, points_draw=1, points_loss=0)
    players["b1"].rating = 1801  # c1's opponents 1801 and 1900: 1850.5 -> 1851
    players["b1"].save()
    event.refresh_from_db()

    stats = {(s.player_id, s.board): s for s in board_statistics(event=event)}
    c1 = stats[(players["c1"].pk, None)]
    assert (c1.points, c1.total_points, c1.opponents_rating, c1.performance) == (F(4), F(4), 1851, 2044)
    b2 = stats[(players["b2"].pk, None)]  # a draw and a forfeit win worth a win
    assert (b2.points, b2.total_points) == (F(1), F(4))


def test_unplayed_boards_do_not_count():
    event = EventFactory(kind=Event.Kind.TEAM, system=Event.System.ROUND_ROBIN, boards=2, rounds_count=1)
    for number in (1, 2):
        team = Team.objects.create(event=event, club=ClubFactory(), name=f"T{number}")
        TeamMember.objects.create(team=team, player=PlayerFactory(), board_order=1)
        Entry.objects.create(event=event, start_number=number, team=team)
    fixtures_generate(event=event, user=organiser_of(event.league))
    assert board_statistics(event=event) == []
