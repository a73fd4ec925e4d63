"""Who may do what: every role against every write, through the services, and a few of the same refusals
through the API and the secretaries' pages. A refused action changes nothing in the database.

The world: league A with clubs Home and Away (in the game) and Elsewhere; an individual Swiss event whose
round-1 game is Home player vs Away player, and a team event whose match is Home 1 vs Away 1. Another event
of league A has its own arbiter; league B has its own organiser.
"""

import html
import json
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

from leagues.errors import PermissionDenied
from leagues.models import (
    ClubMembership,
    Entry,
    Event,
    Game,
    League,
    Player,
    Result,
    ResultChange,
    Role,
    Round,
    StandingsSnapshot,
    Team,
    TeamMatch,
    TiebreakPolicyChange,
)
from leagues.services.match_cards import match_card_confirm, match_card_dispute, match_card_submit
from leagues.services.policy import event_policy_set
from leagues.services.results import result_record
from leagues.services.tokens import api_token_create
from leagues.services.trf import event_import_trf
from tests.factories import ClubFactory, EventFactory, LeagueFactory, PlayerFactory, UserFactory
from tests.paths import GOLDEN

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

ROLES = [
    "anonymous",
    "plain_user",
    "secretary_in_game",
    "secretary_elsewhere",
    "arbiter",
    "arbiter_elsewhere",
    "organiser",
    "organiser_elsewhere",
    "superuser",
]

TRF = json.loads((GOLDEN / "swiss-p008-r05-s01000.json").read_text())["trf"]  # 8 players, 5 rounds, 20 games


@dataclass
class World:
    league: League
    event: Event
    game: Game
    team_event: Event
    match: TeamMatch
    boards: list
    users: dict
    away_secretary: object


def _user(**kwargs):
    return UserFactory(**kwargs)


@pytest.fixture
def world():
    league, other_league = LeagueFactory(), LeagueFactory()
    home, away, elsewhere = ClubFactory(name="Home"), ClubFactory(name="Away"), ClubFactory(name="Elsewhere")
    league.clubs.add(home, away)  # "elsewhere" plays in no event of this league
    event = EventFactory(league=league, rounds_count=3, tiebreak_criteria=["BH", "SB"])
    entries = []
    for number, club in enumerate((home, away, home, away), start=1):
        player = PlayerFactory()
        ClubMembership.objects.create(player=player, club=club)
        entries.append(Entry.objects.create(event=event, start_number=number, player=player, rating=player.rating))
    rnd = Round.objects.create(event=event, number=1)
    game = Game.objects.create(round=rnd, board=1, white=entries[0], black=entries[1])
    Game.objects.create(round=rnd, board=2, white=entries[2], black=entries[3])

    team_event = EventFactory(
        league=league,
        kind=Event.Kind.TEAM,
        system=Event.System.ROUND_ROBIN,
        rounds_count=1,
        boards=2,
        tiebreak_criteria=["GPTS"],
    )
    sides = []
    for number, club in enumerate((home, away), start=1):
        team = Team.objects.create(event=team_event, club=club, name=f"{club.name} 1")
        sides.append(Entry.objects.create(event=team_event, start_number=number, team=team))
    team_round = Round.objects.create(event=team_event, number=1)
    match = TeamMatch.objects.create(round=team_round, home=sides[0], away=sides[1])
    boards = [
        Game.objects.create(
            round=team_round,
            match=match,
            board=b,
            white=sides[(b + 1) % 2],
            black=sides[b % 2],
            white_player=PlayerFactory(),
            black_player=PlayerFactory(),
        )
        for b in (1, 2)
    ]

    other_event = EventFactory(league=league, rounds_count=3)
    users = {"anonymous": AnonymousUser(), "plain_user": _user(), "superuser": _user(is_superuser=True)}
    for name, kind, scope in (
        ("secretary_in_game", Role.Kind.SECRETARY, {"club": home}),
        ("secretary_elsewhere", Role.Kind.SECRETARY, {"club": elsewhere}),
        ("arbiter", Role.Kind.ARBITER, {"event": event}),
        ("arbiter_elsewhere", Role.Kind.ARBITER, {"event": other_event}),
        ("organiser", Role.Kind.ORGANISER, {"league": league}),
        ("organiser_elsewhere", Role.Kind.ORGANISER, {"league": other_league}),
    ):
        users[name] = _user()
        Role.objects.create(user=users[name], kind=kind, **scope)
    # the team event's arbiter is the same person as the individual event's
    Role.objects.create(user=users["arbiter"], kind=Role.Kind.ARBITER, event=team_event)
    away_secretary = _user()
    Role.objects.create(user=away_secretary, kind=Role.Kind.SECRETARY, club=away)
    return World(league, event, game, team_event, match, boards, users, away_secretary)


def state():
    """Everything a write could touch."""
    return {
        "games": list(Game.objects.order_by("pk").values_list("pk", "result", "version", "corrected")),
        "changes": ResultChange.objects.count(),
        "matches": list(
            TeamMatch.objects.order_by("pk").values_list(
                "pk", "status", "version", "submitted_by", "confirmed_by", "dispute_reason"
            )
        ),
        "events": list(
            Event.objects.order_by("pk").values_list(
                "pk", "status", "rule_set", "tiebreak_criteria", "tiebreak_locked", "results_version"
            )
        ),
        "policy_changes": TiebreakPolicyChange.objects.count(),
        "players": Player.objects.count(),
        "snapshots": StandingsSnapshot.objects.count(),
    }


def check(world, role, allowed_roles, action):
    """Run `action(user)`: allowed roles must succeed, the others get PermissionDenied and change nothing."""
    user = world.users[role]
    if role in allowed_roles:
        return action(user)
    before = state()
    with pytest.raises(PermissionDenied):
        action(user)
    assert state() == before
    return None


def _card(world, result=Result.WHITE_WINS):
    games = {g.pk: g for g in Game.objects.filter(match=world.match)}
    board = games[world.boards[0].pk]
    return {board.pk: (result, board.version)}


def _submitted_by_away(world):
    match_card_submit(match_id=world.match.pk, results=_card(world), user=world.away_secretary, expected_version=0)


# ---- through the services ----------------------------------------------------------------------

RESULT_WRITERS = {"secretary_in_game", "arbiter", "organiser", "superuser"}
MANAGERS = {"arbiter", "organiser", "superuser"}  # of the event
ORGANISERS = {"organiser", "superuser"}  # of the league


@pytest.mark.parametrize("role", ROLES)
def test_enter_a_result(world, role):
    game = check(
        world,
        role,
        RESULT_WRITERS,
        lambda user: result_record(game_id=world.game.pk, result=Result.DRAW, user=user),
    )
    if game is not None:
        assert Game.objects.get(pk=world.game.pk).result == Result.DRAW
        assert ResultChange.objects.get().user == world.users[role]


@pytest.mark.parametrize("role", ROLES)
def test_correct_a_result(world, role):
    result_record(game_id=world.game.pk, result=Result.WHITE_WINS, user=world.users["organiser"])
    game = check(
        world,
        role,
        RESULT_WRITERS,
        lambda user: result_record(
            game_id=world.game.pk, result=Result.BLACK_WINS, user=user, reason="scoresheet says 0-1"
        ),
    )
    if game is not None:
        stored = Game.objects.get(pk=world.game.pk)
        assert (stored.result, stored.corrected) == (Result.BLACK_WINS, True)


@pytest.mark.parametrize("role", ROLES)
def test_submit_a_match_card(world, role):
    match = check(
        world,
        role,
        RESULT_WRITERS,
        lambda user: match_card_submit(match_id=world.match.pk, results=_card(world), user=user, expected_version=0),
    )
    if match is not None:
        # a secretary's card waits for the other club; the organiser's or arbiter's card is final
        expected = TeamMatch.Status.SUBMITTED if role == "secretary_in_game" else TeamMatch.Status.CONFIRMED
        assert TeamMatch.objects.get(pk=world.match.pk).status == expected
        assert Game.objects.get(pk=world.boards[0].pk).result == Result.WHITE_WINS


@pytest.mark.parametrize("role", ROLES)
def test_confirm_a_card(world, role):
    _submitted_by_away(world)  # so the home club's secretary is the other side
    match = check(
        world,
        role,
        RESULT_WRITERS,
        lambda user: match_card_confirm(
            match_id=world.match.pk, user=user, expected_version=TeamMatch.objects.get(pk=world.match.pk).version
        ),
    )
    if match is not None:
        stored = TeamMatch.objects.get(pk=world.match.pk)
        assert (stored.status, stored.confirmed_by) == (TeamMatch.Status.CONFIRMED, world.users[role])


def test_the_submitting_club_cannot_confirm_its_own_card(world):
    _submitted_by_away(world)
    before = state()
    with pytest.raises(PermissionDenied):
        match_card_confirm(
            match_id=world.match.pk,
            user=world.away_secretary,
            expected_version=TeamMatch.objects.get(pk=world.match.pk).version,
        )
    assert state() == before


@pytest.mark.parametrize("role", [r for r in ROLES if getattr(r, "values", [r])[0] != "secretary_in_game"])
def test_settle_a_disputed_card(world, role):
    _submitted_by_away(world)
    match_card_dispute(
        match_id=world.match.pk,
        user=world.users["secretary_in_game"],
        reason="board 1 was a draw",
        expected_version=TeamMatch.objects.get(pk=world.match.pk).version,
    )
    version = TeamMatch.objects.get(pk=world.match.pk).version
    match = check(
        world,
        role,
        MANAGERS,
        lambda user: match_card_submit(
            match_id=world.match.pk,
            results=_card(world, Result.DRAW),
            user=user,
            expected_version=version,
            reason="arbiter's decision",
        ),
    )
    if match is not None:
        assert TeamMatch.objects.get(pk=world.match.pk).status == TeamMatch.Status.CONFIRMED
        assert Game.objects.get(pk=world.boards[0].pk).result == Result.DRAW


def test_a_secretary_cannot_settle_a_dispute_only_send_a_new_card(world):
    _submitted_by_away(world)
    disputed = match_card_dispute(
        match_id=world.match.pk,
        user=world.users["secretary_in_game"],
        reason="board 1 was a draw",
        expected_version=TeamMatch.objects.get(pk=world.match.pk).version,
    )
    again = match_card_submit(
        match_id=world.match.pk,
        results=_card(world, Result.DRAW),
        user=world.away_secretary,
        expected_version=disputed.version,
        reason="agreed",
    )
    assert again.status == TeamMatch.Status.SUBMITTED  # back to the other club, not settled
    assert again.confirmed_by is None


@pytest.mark.parametrize("role", ROLES)
def test_set_the_tiebreak_policy_before_the_lock(world, role):
    event = check(
        world,
        role,
        MANAGERS,
        lambda user: event_policy_set(event_id=world.event.pk, rule_set="fide-2026", criteria=["SB", "BH"], user=user),
    )
    if event is not None:
        stored = Event.objects.get(pk=world.event.pk)
        assert (stored.tiebreak_criteria, stored.tiebreak_locked) == (["SB", "BH"], False)
        assert TiebreakPolicyChange.objects.count() == 0  # before the lock nothing is logged publicly


@pytest.mark.parametrize("role", ROLES)
def test_override_the_tiebreak_policy_after_the_lock(world, role):
    result_record(game_id=world.game.pk, result=Result.WHITE_WINS, user=world.users["organiser"])
    assert Event.objects.get(pk=world.event.pk).tiebreak_locked
    event = check(
        world,
        role,
        ORGANISERS,
        lambda user: event_policy_set(
            event_id=world.event.pk,
            rule_set="fide-2026",
            criteria=["SB", "BH"],
            user=user,
            reason="as the regulations say",
        ),
    )
    if event is not None:
        assert Event.objects.get(pk=world.event.pk).tiebreak_criteria == ["SB", "BH"]
        change = TiebreakPolicyChange.objects.get()
        assert (change.user, change.reason) == (world.users[role], "as the regulations say")


@pytest.mark.parametrize("role", ROLES)
def test_import_a_trf_file(world, role):
    event = check(
        world,
        role,
        ORGANISERS,
        lambda user: event_import_trf(
            league=world.league, name="Imported", slug="imported", data=TRF.encode(), user=user
        ),
    )
    if event is not None:
        imported = Event.objects.get(slug="imported")
        assert imported.entries.count() == 8
        assert Game.objects.filter(round__event=imported).count() == 20


# ---- the same refusals through the API and the pages -------------------------------------------


def api_client(user=None):
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=user, name='t', scopes=['organiser'])[1]}")
    return client


@pytest.mark.parametrize(
    "role", ["anonymous", "plain_user", "secretary_elsewhere", "arbiter_elsewhere", "organiser_elsewhere"]
)
def test_api_refuses_a_result_and_changes_nothing(world, role):
    user = world.users[role]
    client = api_client(None if role == "anonymous" else user)
    before = state()
    response = client.post(f"/api/v1/games/{world.game.pk}/result/", {"result": "1-0"}, format="json")
    assert response.status_code == (401 if role == "anonymous" else 403)
    if role != "anonymous":
        assert response.json()["code"] == "permission_denied"
    assert state() == before


def test_api_allows_the_clubs_secretary_and_refuses_a_stranger_card(world):
    before = state()
    card = {"version": 0, "boards": [{"game": world.boards[0].pk, "result": "1-0", "version": 0}]}
    refused = api_client(world.users["secretary_elsewhere"]).post(
        f"/api/v1/matches/{world.match.pk}/card/", card, format="json"
    )
    assert refused.status_code == 403
    assert state() == before
    accepted = api_client(world.users["secretary_in_game"]).post(
        f"/api/v1/matches/{world.match.pk}/card/", card, format="json"
    )
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "submitted"
    confirm = api_client(world.users["secretary_in_game"]).post(
        f"/api/v1/matches/{world.match.pk}/confirm/", {"version": 1}, format="json"
    )
    assert confirm.status_code == 403  # the submitting club does not confirm its own card
    assert TeamMatch.objects.get(pk=world.match.pk).status == TeamMatch.Status.SUBMITTED


def test_pages_refuse_the_same(world, client):
    sheet = f"/en/manage/events/{world.event.slug}/rounds/1/"
    games = list(Game.objects.filter(round__event=world.event).order_by("board"))
    data: dict[str, object] = {"reason": ""}
    for game in games:
        data[f"result_{game.pk}"] = "1-0"
        data[f"version_{game.pk}"] = game.version
    before = state()
    anonymous = client.post(sheet, data)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    client.force_login(world.users["secretary_elsewhere"])
    refused = client.post(sheet, data)
    assert refused.status_code == 403
    assert "You may not enter results for this game." in refused.content.decode()
    assert (
        client.post(
            f"/en/manage/events/{world.event.slug}/policy/", {"rule_set": "fide-2026", "criteria": "SB"}
        ).status_code
        == 403
    )
    client.force_login(world.users["arbiter"])  # an arbiter manages the event but imports nothing
    upload = client.post(
        f"/en/manage/leagues/{world.league.slug}/import/", {"name": "Imported", "slug": "imported", "file": _upload()}
    )
    assert upload.status_code == 403
    assert "Only the league's organiser may import events." in html.unescape(upload.content.decode())
    assert state() == before
    client.force_login(world.users["secretary_in_game"])
    assert client.post(sheet, data).status_code == 302  # both games have a Home player
    assert Game.objects.get(pk=world.game.pk).result == "1-0"


def _upload():
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("open.trf", TRF.encode(), content_type="text/plain")
