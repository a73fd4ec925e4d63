"""Making pairings: a player twice in a round, a player from elsewhere, a player against themselves and a
finished event are refused, by the service and by the admin's form alike, and nothing is stored."""

import pytest

from leagues.admin import GameAdminForm
from leagues.errors import PermissionDenied, ServiceError
from leagues.models import ClubMembership, Entry, Event, Game, Role, Round, TeamMember
from leagues.services.pairings import game_pair
from tests.factories import PlayerFactory, UserFactory, organiser_of, swiss_event
from tests.helpers import team_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_round():
    """Six players; round 1 paired 1–4, 2–5, 3–6 by the factory; round 2 empty."""
    event, entries, _games = swiss_event(players=6)
    return event, entries, Round.objects.create(event=event, number=2), organiser_of(event.league)


def _refused(code, **kwargs):
    before = Game.objects.count()
    with pytest.raises(ServiceError) as excinfo:
        game_pair(**kwargs)
    assert excinfo.value.code == code
    assert Game.objects.count() == before  # nothing stored
    return excinfo.value


def test_a_valid_round_is_paired_game_by_game_with_a_bye(open_round):
    _event, (p1, p2, p3, p4, p5, _p6), rnd, organiser = open_round
    game_pair(round=rnd, board=1, white=p1, black=p2, user=organiser)
    game_pair(round=rnd, board=2, white=p4, black=p5, user=organiser)
    bye = game_pair(round=rnd, board=3, white=p3, user=organiser)
    assert bye.is_bye
    assert list(rnd.games.values_list("board", "white__start_number", "black__start_number")) == [
        (1, 1, 2),
        (2, 4, 5),
        (3, 3, None),
    ]


def test_a_player_twice_in_a_round_is_refused(open_round):
    _event, (p1, p2, p3, _p4, _p5, _p6), rnd, organiser = open_round
    game_pair(round=rnd, board=1, white=p1, black=p2, user=organiser)
    error = _refused("player_twice_in_round", round=rnd, board=2, white=p3, black=p2, user=organiser)
    assert p2.player.name in error.message
    _refused("player_twice_in_round", round=rnd, board=2, white=p1, black=p3, user=organiser)
    _refused("player_twice_in_round", round=rnd, board=3, white=p2, user=organiser)  # a bye too


def test_a_player_of_another_event_is_refused(open_round):
    event, (p1, *_rest), rnd, organiser = open_round
    _other_event, others, _ = swiss_event(players=2, league=event.league)
    error = _refused("player_not_in_event", round=rnd, board=1, white=p1, black=others[0], user=organiser)
    assert others[0].player.name in error.message
    _refused("player_not_in_event", round=rnd, board=1, white=others[1], user=organiser)


def test_a_player_against_themselves_is_refused(open_round):
    _event, (p1, *_rest), rnd, organiser = open_round
    _refused("same_player", round=rnd, board=1, white=p1, black=p1, user=organiser)


def test_a_finished_event_takes_no_pairings(open_round):
    event, (p1, p2, *_rest), rnd, organiser = open_round
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    _refused("event_finished", round=rnd, board=1, white=p1, black=p2, user=organiser)


def test_only_organiser_or_arbiter_pairs(open_round):
    event, (p1, p2, *_rest), rnd, _organiser = open_round
    other_league = swiss_event(players=2)[0].league
    for stranger in (UserFactory(), organiser_of(other_league)):
        with pytest.raises(PermissionDenied):
            game_pair(round=rnd, board=1, white=p1, black=p2, user=stranger)
    assert not rnd.games.exists()
    arbiter = UserFactory()
    Role.objects.create(user=arbiter, kind=Role.Kind.ARBITER, event=event)
    assert game_pair(round=rnd, board=1, white=p1, black=p2, user=arbiter).white == p1


def test_a_taken_board_is_refused(open_round):
    _event, (p1, p2, p3, p4, *_rest), rnd, organiser = open_round
    game_pair(round=rnd, board=1, white=p1, black=p2, user=organiser)
    _refused("board_taken", round=rnd, board=1, white=p3, black=p4, user=organiser)


def _team_round():
    """A team match in round 1 with its two boards; a second, empty board set to fill."""
    event, match, _games, _secretaries = team_match(boards=2)
    home, away = match.home, match.away
    players = {}
    for side in (home, away):
        squad = [PlayerFactory() for _ in range(3)]
        for order, player in enumerate(squad, start=1):
            TeamMember.objects.create(team=side.team, player=player, board_order=order)
        players[side.pk] = squad
    Game.objects.filter(match=match).delete()
    return event, match, home, away, players, organiser_of(event.league)


def test_team_board_players_must_play_for_their_side():
    _event, match, home, away, players, organiser = _team_round()
    rnd = match.round
    game_pair(
        round=rnd,
        match=match,
        board=1,
        white=home,
        black=away,
        white_player=players[home.pk][0],
        black_player=players[away.pk][0],
        user=organiser,
    )
    stranger = PlayerFactory()  # neither on a roster nor in either club
    _refused(
        "player_not_in_event",
        round=rnd,
        match=match,
        board=2,
        white=away,
        black=home,
        white_player=stranger,
        black_player=players[home.pk][1],
        user=organiser,
    )
    # a member of the home club who is not on its roster may play for the home team (only a warning)
    guest = PlayerFactory()
    ClubMembership.objects.create(player=guest, club=home.team.club)
    game_pair(
        round=rnd,
        match=match,
        board=2,
        white=away,
        black=home,
        white_player=players[away.pk][1],
        black_player=guest,
        user=organiser,
    )
    assert match.games.count() == 2


def test_team_board_player_twice_in_the_round_or_against_themselves_is_refused():
    event, match, home, away, players, organiser = _team_round()
    rnd = match.round
    game_pair(
        round=rnd,
        match=match,
        board=1,
        white=home,
        black=away,
        white_player=players[home.pk][0],
        black_player=players[away.pk][0],
        user=organiser,
    )
    _refused(
        "player_twice_in_round",
        round=rnd,
        match=match,
        board=2,
        white=away,
        black=home,
        white_player=players[away.pk][1],
        black_player=players[home.pk][0],
        user=organiser,
    )
    _refused(
        "same_player",
        round=rnd,
        match=match,
        board=2,
        white=away,
        black=home,
        white_player=players[away.pk][1],
        black_player=players[away.pk][1],
        user=organiser,
    )
    # a team of another event on this board
    other = Entry.objects.exclude(event=event).first() or swiss_event(players=2)[1][0]
    _refused(
        "player_not_in_event",
        round=rnd,
        match=match,
        board=2,
        white=other,
        black=home,
        white_player=players[away.pk][1],
        black_player=players[home.pk][1],
        user=organiser,
    )


def _admin_form(game=None, **data):
    values = {key: (value.pk if hasattr(value, "pk") else value) for key, value in data.items()}
    form = GameAdminForm(data={"result": "", "version": 0, **values}, instance=game)
    return form


def test_admin_form_refuses_the_same_errors_with_the_field_named(open_round):
    _event, (p1, p2, p3, *_rest), rnd, organiser = open_round
    game_pair(round=rnd, board=1, white=p1, black=p2, user=organiser)
    twice = _admin_form(round=rnd, board=2, white=p3, black=p2)
    assert not twice.is_valid()
    assert twice.has_error("black", "player_twice_in_round")
    same = _admin_form(round=rnd, board=2, white=p3, black=p3)
    assert same.has_error("black", "same_player")
    foreign = swiss_event(players=2)[1][0]
    elsewhere = _admin_form(round=rnd, board=2, white=foreign, black=p3)
    assert elsewhere.has_error("white", "player_not_in_event")
    assert Game.objects.filter(round=rnd).count() == 1


def test_admin_form_lets_a_game_be_saved_again_and_accepts_a_valid_pairing(open_round):
    _event, (p1, p2, p3, p4, *_rest), rnd, organiser = open_round
    game = game_pair(round=rnd, board=1, white=p1, black=p2, user=organiser)
    again = _admin_form(game, round=rnd, board=1, white=p2, black=p1)  # colours swapped, same game
    assert again.is_valid(), again.errors
    again.save()
    assert Game.objects.get(pk=game.pk).white_id == p2.pk
    new = _admin_form(round=rnd, board=2, white=p3, black=p4)
    assert new.is_valid(), new.errors


def test_admin_form_works_inside_the_game_admin(open_round, rf):
    """Wired as `form = GameAdminForm` in GameAdmin (result, version and corrected stay read-only)."""
    from django.contrib import admin

    from leagues.admin import GameAdmin

    class WiredGameAdmin(GameAdmin):
        form = GameAdminForm

    _event, (p1, p2, p3, *rest), rnd, organiser = open_round
    game_pair(round=rnd, board=1, white=p1, black=p2, user=organiser)
    request = rf.get("/admin/leagues/game/add/")
    request.user = UserFactory(is_superuser=True, is_staff=True)
    form_class = WiredGameAdmin(Game, admin.site).get_form(request)
    assert "result" not in form_class.base_fields
    refused = form_class(data={"round": rnd.pk, "board": 2, "white": p3.pk, "black": p1.pk})
    assert refused.has_error("black", "player_twice_in_round")
    accepted = form_class(data={"round": rnd.pk, "board": 2, "white": p3.pk, "black": rest[0].pk})
    assert accepted.is_valid(), accepted.errors
