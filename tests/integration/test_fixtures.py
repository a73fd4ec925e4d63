"""The schedule service: rounds, team matches and board games from FIDE's Berger table."""

from datetime import date

import pytest

from leagues.errors import PermissionDenied, ServiceError
from leagues.models import Entry, Event, Game, Result, Role, Round, Team, TeamMatch, TeamMember
from leagues.services.schedule import fixtures_byes, fixtures_generate
from tests.factories import ClubFactory, EventFactory, PlayerFactory, UserFactory, organiser_of
from tests.helpers import record_on_card

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def team_division(teams=4, roster=4, boards=4, **kwargs):
    """A team round robin with `teams` teams (one club each) and `roster` players per team."""
    kwargs.setdefault("system", Event.System.ROUND_ROBIN)
    event = EventFactory(kind=Event.Kind.TEAM, boards=boards, rounds_count=1, **kwargs)
    entries = []
    for number in range(1, teams + 1):
        club = ClubFactory()
        team = Team.objects.create(event=event, club=club, name=f"{club.name} 1")
        for board in range(1, (roster if isinstance(roster, int) else roster[number - 1]) + 1):
            TeamMember.objects.create(team=team, player=PlayerFactory(), board_order=board)
        entries.append(Entry.objects.create(event=event, start_number=number, team=team))
    return event, entries


def _state(event):
    return (
        list(Round.objects.filter(event=event).order_by("number").values_list("pk", "number", "date")),
        list(TeamMatch.objects.filter(round__event=event).order_by("pk").values_list("pk", "home", "away")),
        list(Game.objects.filter(round__event=event).order_by("pk").values_list("pk", "result", "white_player")),
    )


def _pairs(event):
    return [
        [(m.home.start_number, m.away.start_number) for m in rnd.matches.select_related("home", "away").order_by("pk")]
        for rnd in Round.objects.filter(event=event).order_by("number")
    ]


def test_four_teams_follow_fide_table_with_dates_colours_and_rosters():
    event, entries = team_division(teams=4, starts_on=date(2026, 9, 10))
    user = organiser_of(event.league)

    rounds = fixtures_generate(event=event, user=user, days_between=14)

    assert [r.number for r in rounds] == [1, 2, 3]
    assert [r.date for r in rounds] == [date(2026, 9, 10), date(2026, 9, 24), date(2026, 10, 8)]
    # FIDE C.05 Annex 1, 3 or 4 players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1
    assert _pairs(event) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    event.refresh_from_db()
    assert event.rounds_count == 3
    match = TeamMatch.objects.get(round__number=1, home=entries[0])
    games = list(match.games.order_by("board"))
    assert [g.board for g in games] == [1, 2, 3, 4]
    home_roster = [m.player for m in entries[0].team.members.order_by("board_order")]
    away_roster = [m.player for m in entries[3].team.members.order_by("board_order")]
    # home white on boards 1 and 3, players in roster order
    assert [(g.white, g.black) for g in games] == [
        (entries[0], entries[3]),
        (entries[3], entries[0]),
        (entries[0], entries[3]),
        (entries[3], entries[0]),
    ]
    assert [(g.white_player, g.black_player) for g in games] == [
        (home_roster[0], away_roster[0]),
        (away_roster[1], home_roster[1]),
        (home_roster[2], away_roster[2]),
        (away_roster[3], home_roster[3]),
    ]
    assert all(g.result == Result.PENDING and g.round_id == match.round_id for g in games)
    assert Game.objects.filter(round__event=event).count() == 3 * 2 * 4


def test_board_one_black_for_home_and_short_roster_leaves_boards_empty():
    event, entries = team_division(teams=2, roster=[2, 4], board_one_white_for_home=False)
    fixtures_generate(event=event, user=organiser_of(event.league))

    games = list(Game.objects.filter(match__home=entries[0]).order_by("board"))
    home_roster = [m.player for m in entries[0].team.members.order_by("board_order")]
    assert [g.white for g in games] == [entries[1], entries[0], entries[1], entries[0]]
    home_players = [g.white_player if g.white == entries[0] else g.black_player for g in games]
    away_players = [g.black_player if g.white == entries[0] else g.white_player for g in games]
    assert home_players == [home_roster[0], home_roster[1], None, None]
    assert None not in away_players


def test_odd_number_of_teams_gives_one_bye_a_round_and_no_bye_game():
    event, _entries = team_division(teams=5, starts_on=date(2026, 1, 5))
    fixtures_generate(event=event, user=organiser_of(event.league))

    # FIDE's 6-player table with 6 as the bye: R1 1-6 -> team 1 free, R2 6-4 -> 4, R3 2-6 -> 2, R4 6-5 -> 5, R5 3-6 -> 3
    assert _pairs(event) == [[(2, 5), (3, 4)], [(5, 3), (1, 2)], [(3, 1), (4, 5)], [(1, 4), (2, 3)], [(4, 2), (5, 1)]]
    byes = fixtures_byes(event=event)
    assert {n: e.start_number for n, e in byes.items()} == {1: 1, 2: 4, 3: 2, 4: 5, 5: 3}
    assert not Game.objects.filter(round__event=event, match__isnull=True).exists()
    assert Game.objects.filter(round__event=event).count() == 5 * 2 * 4


def test_double_round_robin_second_cycle_swaps_home_and_away():
    event, _entries = team_division(teams=4, system=Event.System.DOUBLE_ROUND_ROBIN)
    fixtures_generate(event=event, user=organiser_of(event.league))

    assert _pairs(event) == [
        [(1, 4), (2, 3)],
        [(2, 4), (3, 1)],
        [(4, 3), (1, 2)],  # last two rounds exchanged (FIDE's advice)
        [(4, 1), (3, 2)],
        [(3, 4), (2, 1)],
        [(4, 2), (1, 3)],
    ]
    assert event.rounds_count == 6  # the caller's object follows
    event.refresh_from_db()
    assert event.rounds_count == 6


def test_unplayed_schedule_is_replaced():
    event, _entries = team_division(teams=4)
    user = organiser_of(event.league)
    fixtures_generate(event=event, user=user)
    old_rounds = set(Round.objects.filter(event=event).values_list("pk", flat=True))
    # a new team joins before anything was played
    club = ClubFactory()
    team = Team.objects.create(event=event, club=club, name="Late 1")
    Entry.objects.create(event=event, start_number=5, team=team)

    fixtures_generate(event=event, user=user, starts_on=date(2026, 3, 1))

    assert not Round.objects.filter(pk__in=old_rounds).exists()
    assert Round.objects.filter(event=event).count() == 5
    assert TeamMatch.objects.filter(round__event=event).count() == 10
    assert Game.objects.filter(round__event=event).count() == 40
    assert Round.objects.get(event=event, number=2).date == date(2026, 3, 8)


def test_played_schedule_is_refused_and_nothing_changes():
    event, _entries = team_division(teams=4)
    user = organiser_of(event.league)
    fixtures_generate(event=event, user=user)
    game = Game.objects.filter(round__event=event, round__number=1).first()
    record_on_card(game, Result.DRAW, user)
    before = _state(event)

    with pytest.raises(ServiceError) as excinfo:
        fixtures_generate(event=event, user=user, starts_on=date(2027, 1, 1))

    assert excinfo.value.code == "schedule_played"
    assert str(excinfo.value)
    assert _state(event) == before


def test_result_taken_back_still_counts_as_played():
    event, _entries = team_division(teams=4)
    user = organiser_of(event.league)
    fixtures_generate(event=event, user=user)
    game = Game.objects.filter(round__event=event).first()
    record_on_card(game, Result.DRAW, user)
    record_on_card(game, Result.PENDING, user, reason="entered by mistake")
    before = _state(event)

    with pytest.raises(ServiceError) as excinfo:
        fixtures_generate(event=event, user=user)
    assert excinfo.value.code == "schedule_played"
    assert _state(event) == before


def test_only_the_organiser_or_a_superuser_may_draw():
    event, entries = team_division(teams=4)
    secretary = UserFactory()
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=entries[0].team.club)
    arbiter = UserFactory()
    Role.objects.create(user=arbiter, kind=Role.Kind.ARBITER, event=event)
    other_organiser = organiser_of(EventFactory().league)
    for user in (secretary, arbiter, other_organiser, None):
        with pytest.raises(PermissionDenied):
            fixtures_generate(event=event, user=user)
    assert not Round.objects.filter(event=event).exists()

    superuser = UserFactory(is_superuser=True)
    assert len(fixtures_generate(event=event, user=superuser)) == 3


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"kind": Event.Kind.INDIVIDUAL}, "not_team_event"),
        ({"system": Event.System.SWISS}, "not_round_robin"),
        ({"status": Event.Status.FINISHED}, "event_finished"),
    ],
)
def test_wrong_event_is_refused(change, code):
    event, _entries = team_division(teams=4)
    Event.objects.filter(pk=event.pk).update(**change)
    event.refresh_from_db()

    with pytest.raises(ServiceError) as excinfo:
        fixtures_generate(event=event, user=organiser_of(event.league))
    assert excinfo.value.code == code
    assert not Round.objects.filter(event=event).exists()


def test_one_team_is_too_few():
    event, _entries = team_division(teams=1)
    with pytest.raises(ServiceError) as excinfo:
        fixtures_generate(event=event, user=organiser_of(event.league))
    assert excinfo.value.code == "too_few_teams"
