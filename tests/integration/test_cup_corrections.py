"""A card of a cup's earlier round corrected after the next round was made (issue #32). Four teams in the
organiser's order: the semi-finals are 1-4 and 2-3, the home team (the higher seed) at home; a 4-board card.

Semi-final 1 is won by team 1, 2½-1½ (boards: 1, 1, ½, 0 for the home team); semi-final 2 by team 2, 4-0. The
final is team 1 (home, the upper tie's winner) against team 2. Correcting board 1 of semi-final 1 to a home loss
makes it 1½-2½: team 4 goes through instead of team 1. Every expected value is worked out by hand here."""

import pytest
from rest_framework.test import APIClient

from leagues.errors import ConfirmationNeeded
from leagues.models import CupTie, CupTieChange, Game, LeagueRule, Result, RuleViolation, TeamMatch
from leagues.services.cups import cup_draw
from leagues.services.league_rules import violation_penalise
from tests.factories import EntryFactory, EventFactory, TeamFactory, TeamMemberFactory, organiser_of

pytestmark = pytest.mark.django_db

HOME_WINS, HOME_LOSES, DRAW = "home", "away", "draw"


def _cup():
    from leagues.models import Event

    event = EventFactory(kind=Event.Kind.TEAM, system=Event.System.KNOCKOUT, rounds_count=1, boards=4)
    for number in range(1, 5):
        team = TeamFactory(event=event, name=f"Team {number}")
        for board in range(1, 5):
            TeamMemberFactory(team=team, board_order=board, player__rating=2000 - 10 * number - board)
        EntryFactory(event=event, start_number=number, player=None, team=team, rating=2000 - number)
    organiser = organiser_of(event.league)
    cup_draw(event=event, user=organiser, seeding="order")
    return event, organiser


def _code(game: Game, home_id: int, outcome: str) -> str:
    if outcome == DRAW:
        return "1/2-1/2"
    return "1-0" if (game.white_id == home_id) == (outcome == HOME_WINS) else "0-1"


def _card(client, match_id, outcomes, **extra):
    match = TeamMatch.objects.get(pk=match_id)
    boards = [
        {"game": g.pk, "version": g.version, "result": _code(g, match.home_id, outcomes[g.board - 1])}
        for g in match.games.order_by("board")
    ]
    return client.post(
        f"/api/v1/matches/{match_id}/card/", {"version": match.version, "boards": boards, **extra}, "json"
    )


def _semis_played(client, event):
    first, second = CupTie.objects.filter(cup__event=event, round_number=1).order_by("position")
    assert _card(client, first.match_id, [HOME_WINS, HOME_WINS, DRAW, HOME_LOSES]).status_code == 200
    assert _card(client, second.match_id, [HOME_WINS] * 4).status_code == 200
    return first, second, CupTie.objects.get(cup__event=event, round_number=2)


def _client(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def _board_one_lost(client, first, **extra):
    outcomes = [HOME_LOSES, HOME_WINS, DRAW, HOME_LOSES]  # 1½-2½: the away team (team 4) goes through
    return _card(client, first.match_id, outcomes, reason="board 1 was lost on time", **extra)


def test_a_correction_remakes_the_next_match_while_it_has_no_result():
    event, organiser = _cup()
    client = _client(organiser)
    first, _second, final = _semis_played(client, event)
    assert (final.home.start_number, final.away.start_number) == (1, 2)
    old_games = set(final.match.games.values_list("pk", flat=True))
    answer = _board_one_lost(client, first)
    assert answer.status_code == 200, answer.json()
    first.refresh_from_db()
    assert first.winner.start_number == 4
    final.refresh_from_db()
    assert (final.home.start_number, final.home_seed, final.away.start_number) == (4, 4, 2)
    match = TeamMatch.objects.get(pk=final.match_id)
    assert (match.home.start_number, match.away.start_number, match.status) == (4, 2, TeamMatch.Status.SCHEDULED)
    games = list(match.games.order_by("board"))
    assert len(games) == 4 and not old_games & {g.pk for g in games}
    team_4 = set(first.away.team.members.values_list("player_id", flat=True))
    assert {g.white_player_id if g.white_id == match.home_id else g.black_player_id for g in games} == team_4
    assert all(g.result == Result.PENDING for g in games)
    change = CupTieChange.objects.get(tie=final)
    assert (change.before.start_number, change.after.start_number, change.user) == (1, 4, organiser)
    assert change.reason == "board 1 was lost on time"
    bracket = client.get(f"/api/v1/events/{event.slug}/bracket/").json()
    assert [(t["home"]["start_number"], t["away"]["start_number"]) for t in bracket["rounds"][1]["ties"]] == [(4, 2)]


def test_a_correction_is_refused_once_the_next_match_has_results_unless_the_bracket_is_kept():
    event, organiser = _cup()
    client = _client(organiser)
    first, _second, final = _semis_played(client, event)
    assert _card(client, final.match_id, [HOME_WINS] * 4).status_code == 200  # team 1 wins the cup
    before = dict(Game.objects.filter(round__event=event).values_list("pk", "result"))
    answer = _board_one_lost(client, first)
    assert answer.status_code == 409
    assert answer.json()["code"] == "later_round_paired"
    assert "Team 4" in answer.json()["message"] and "Team 1" in answer.json()["message"]
    assert dict(Game.objects.filter(round__event=event).values_list("pk", "result")) == before  # nothing changed
    answer = _board_one_lost(client, first, later_pairing="keep")
    assert answer.status_code == 200, answer.json()
    first.refresh_from_db()
    final.refresh_from_db()
    assert first.winner.start_number == 1  # the bracket kept, as the organiser chose
    assert (final.home.start_number, final.away.start_number, final.winner.start_number) == (1, 2, 1)
    board_one = Game.objects.get(match_id=first.match_id, board=1)
    assert board_one.result == _code(board_one, first.home_id, HOME_LOSES)
    assert not CupTieChange.objects.exists()


def _violation(first):
    return RuleViolation.objects.create(
        match_id=first.match_id,
        kind=LeagueRule.Kind.LICENCE,
        severity=LeagueRule.Severity.WARNING,
        penalty=LeagueRule.Penalty.BOARD_DEFAULT,
        board=1,
        side="home",
    )


def test_a_board_default_under_the_league_rules_remakes_the_next_match():
    event, organiser = _cup()
    first, _second, final = _semis_played(_client(organiser), event)
    violation = _violation(
        first
    )  # team 1 fielded an unlicensed player on board 1: that board is lost by default, 1½-2½
    violation_penalise(violation_id=violation.pk, user=organiser)
    board_one = Game.objects.get(match_id=first.match_id, board=1)
    assert board_one.result in (Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT)
    final.refresh_from_db()
    assert (final.home.start_number, final.away.start_number) == (4, 2)
    assert CupTieChange.objects.get(tie=final).after.start_number == 4


def test_a_board_default_is_refused_once_the_next_match_has_results_unless_the_bracket_is_kept(client):
    event, organiser = _cup()
    api = _client(organiser)
    first, _second, final = _semis_played(api, event)
    assert _card(api, final.match_id, [HOME_WINS] * 4).status_code == 200
    violation = _violation(first)
    with pytest.raises(ConfirmationNeeded) as refused:
        violation_penalise(violation_id=violation.pk, user=organiser)
    assert refused.value.code == "later_round_paired"
    violation.refresh_from_db()
    assert violation.status == RuleViolation.Status.OPEN
    assert Game.objects.get(match_id=first.match_id, board=1).result in ("1-0", "0-1")
    # the organiser's page: the refusal is shown, then the penalty applied keeping the bracket
    client.force_login(organiser)
    page = client.post(
        f"/en/manage/leagues/{event.league.slug}/disputes/",
        {"violation": violation.pk, "action": "penalise"},
        follow=True,
    )
    assert "Team 4" in page.content.decode() and "round 2" in page.content.decode()
    assert 'value="penalise_keep"' in page.content.decode()
    client.post(
        f"/en/manage/leagues/{event.league.slug}/disputes/", {"violation": violation.pk, "action": "penalise_keep"}
    )
    violation.refresh_from_db()
    assert violation.status == RuleViolation.Status.PENALISED
    final.refresh_from_db()
    assert (final.home.start_number, final.winner.start_number) == (1, 1)


def _page_post(client, match_id, outcomes, **extra):
    """The organiser's match card page sent with the players as they are and the results given."""
    match = TeamMatch.objects.get(pk=match_id)
    data = {"card_version": match.version, "reason": "board 1 was lost on time", **extra}
    for g in match.games.all():
        home_white = g.white_id == match.home_id
        data[f"home_{g.pk}"] = (g.white_player_id if home_white else g.black_player_id) or ""
        data[f"away_{g.pk}"] = (g.black_player_id if home_white else g.white_player_id) or ""
        data[f"result_{g.pk}"] = _code(g, match.home_id, outcomes[g.board - 1])
        data[f"version_{g.pk}"] = g.version
    return client.post(f"/en/manage/matches/{match_id}/", data)


def test_the_card_page_remakes_the_next_match_or_asks_to_keep_the_bracket(client):
    event, organiser = _cup()
    first, _second, final = _semis_played(_client(organiser), event)
    client.force_login(organiser)
    outcomes = [HOME_LOSES, HOME_WINS, DRAW, HOME_LOSES]
    answer = _page_post(client, first.match_id, outcomes)
    assert answer.status_code == 302
    final.refresh_from_db()
    assert (final.home.start_number, final.away.start_number) == (4, 2)
    # back to 2½-1½ for team 1 once the final has results: refused, the page asks; kept, the card is saved
    assert _card(_client(organiser), final.match_id, [HOME_WINS] * 4).status_code == 200
    outcomes = [HOME_WINS, HOME_WINS, DRAW, HOME_LOSES]
    answer = _page_post(client, first.match_id, outcomes)
    assert answer.status_code == 409
    page = answer.content.decode()
    assert 'id="later-pairing"' in page and "Team 1" in page and "Team 4" in page
    first.refresh_from_db()
    assert first.winner.start_number == 4
    answer = _page_post(client, first.match_id, outcomes, later_pairing="keep")
    assert answer.status_code == 302
    first.refresh_from_db()
    final.refresh_from_db()
    assert (first.winner.start_number, final.home.start_number, final.winner.start_number) == (4, 4, 4)
    assert Game.objects.get(match_id=first.match_id, board=1).result == _code(
        Game.objects.get(match_id=first.match_id, board=1), first.home_id, HOME_WINS
    )
