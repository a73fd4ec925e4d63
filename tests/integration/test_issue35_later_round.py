"""Issue 35: a correction of a round made after the next round was paired (from the standings before it) is not
saved silently. The organiser sees that the next round was paired from other standings and chooses: keep that
pairing, or unpair the round (while it has no results) and pair it again. The rule is the results service's; the
round sheet and the API (results and match cards) ask for the choice."""

import pytest
from rest_framework.test import APIClient

from leagues.models import Game, Result, RoundPairing
from leagues.services.results import result_record
from leagues.services.round_pairings import pairing_publish, round_pair
from leagues.services.tokens import api_token_create
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of
from tests.helpers import present, text_of

pytestmark = pytest.mark.django_db


def _round_two_paired(django_capture_on_commit_callbacks, players=6):
    """A Swiss event: round 1 played (white won everywhere), round 2 paired and published."""
    event = EventFactory(rounds_count=5)
    for n in range(1, players + 1):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2400 - 10 * n)
    user = organiser_of(event.league)
    for number in (1, 2):
        with django_capture_on_commit_callbacks(execute=True):
            pairing = round_pair(event=event, round_number=number, user=user)
        pairing_publish(pairing=RoundPairing.objects.get(pk=pairing.pk), user=user)
        if number == 1:
            for game in Game.objects.filter(round__event=event, round__number=1, black__isnull=False):
                result_record(game_id=game.pk, result=Result.WHITE_WINS, user=user)
    return event, user


def _boards(event, number):
    return list(
        Game.objects.filter(round__event=event, round__number=number, black__isnull=False)
        .order_by("board")
        .values_list("pk", "result")
    )


def _api(user):
    client = APIClient()
    token = api_token_create(user=user, name="t", scopes=["organiser"])[1]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_the_api_asks_before_a_correction_after_the_next_round_was_paired_then_keeps_it(
    django_capture_on_commit_callbacks,
):
    event, user = _round_two_paired(django_capture_on_commit_callbacks)
    game = Game.objects.filter(round__event=event, round__number=1, black__isnull=False).order_by("board").first()
    round_two = _boards(event, 2)
    api = _api(user)
    assert game is not None
    url = f"/api/v1/games/{game.pk}/result/"

    asked = api.post(url, {"result": Result.BLACK_WINS, "reason": "wrong sheet"}, format="json")
    assert asked.status_code == 409, asked.content
    assert asked.json()["code"] == "later_round_paired"
    assert "Round 2 was paired from the standings before this correction" in asked.json()["message"]
    assert "unpair it" in asked.json()["message"]
    assert Game.objects.get(pk=game.pk).result == Result.WHITE_WINS  # nothing saved

    kept = api.post(url, {"result": Result.BLACK_WINS, "reason": "wrong sheet", "later_pairing": "keep"}, format="json")
    assert kept.status_code == 200, kept.content
    assert Game.objects.get(pk=game.pk).result == Result.BLACK_WINS
    assert _boards(event, 2) == round_two  # round 2 stays as it was paired


def test_the_api_unpairs_the_next_round_on_request_and_it_is_paired_again(django_capture_on_commit_callbacks):
    event, user = _round_two_paired(django_capture_on_commit_callbacks)
    game = present(
        Game.objects.filter(round__event=event, round__number=1, black__isnull=False).order_by("board").first()
    )
    api = _api(user)
    answer = api.post(
        f"/api/v1/games/{game.pk}/result/",
        {"result": Result.DRAW, "reason": "arbiter's decision", "later_pairing": "unpair"},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert game is not None
    assert Game.objects.get(pk=game.pk).result == Result.DRAW
    assert _boards(event, 2) == []  # round 2 is no longer published
    pairing = api.get(f"/api/v1/events/{event.slug}/rounds/2/pairing/").json()
    assert pairing["status"] == RoundPairing.Status.FAILED
    assert "A result of round 1 was corrected after this pairing; pair the round again." in pairing["problem"]
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(f"/api/v1/events/{event.slug}/rounds/2/pairing/").status_code == 202  # paired again
    assert RoundPairing.objects.get(round__event=event, round__number=2).status == RoundPairing.Status.READY


def test_a_next_round_with_results_cannot_be_unpaired_only_kept(django_capture_on_commit_callbacks):
    event, user = _round_two_paired(django_capture_on_commit_callbacks)
    first, *_ = _boards(event, 2)
    result_record(game_id=first[0], result=Result.DRAW, user=user)
    game = Game.objects.filter(round__event=event, round__number=1, black__isnull=False).order_by("board").first()
    api = _api(user)
    assert game is not None
    url = f"/api/v1/games/{game.pk}/result/"
    asked = api.post(url, {"result": Result.BLACK_WINS, "reason": "typo"}, format="json")
    assert asked.status_code == 409
    assert "It has results already, so it stays as it is: confirm to keep it." in asked.json()["message"]
    refused = api.post(url, {"result": Result.BLACK_WINS, "reason": "typo", "later_pairing": "unpair"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "later_round_played"
    assert Game.objects.get(pk=game.pk).result == Result.WHITE_WINS
    kept = api.post(url, {"result": Result.BLACK_WINS, "reason": "typo", "later_pairing": "keep"}, format="json")
    assert kept.status_code == 200


def test_the_round_sheet_warns_and_asks_the_organiser_to_choose(client, django_capture_on_commit_callbacks):
    event, user = _round_two_paired(django_capture_on_commit_callbacks)
    games = list(Game.objects.filter(round__event=event, round__number=1).order_by("board"))
    client.force_login(user)
    url = f"/en/manage/events/{event.slug}/rounds/1/"
    sheet = {f"result_{g.pk}": g.result for g in games} | {f"version_{g.pk}": g.version for g in games}
    sheet |= {f"result_{games[0].pk}": Result.BLACK_WINS, "reason": "wrong sheet"}

    page = client.post(url, sheet)
    assert page.status_code == 409
    text = text_of(page.content.decode())
    assert "Round 2 was paired from the standings before this correction" in text
    assert "Keep the next round as it is paired" in text
    assert "Unpair the next round and pair it again" in text
    assert Game.objects.get(pk=games[0].pk).result == Result.WHITE_WINS
    assert f'name="result_{games[0].pk}"' in page.content.decode()

    saved = client.post(url, sheet | {"later_pairing": "unpair"})
    assert saved.status_code == 302
    assert Game.objects.get(pk=games[0].pk).result == Result.BLACK_WINS
    assert _boards(event, 2) == []
    assert "pair the round again" in text_of(client.get(f"/en/manage/events/{event.slug}/pairing/2/").content.decode())


def test_a_correction_before_the_next_round_is_paired_asks_nothing(django_capture_on_commit_callbacks):
    event = EventFactory(rounds_count=5)
    for n in range(1, 5):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2400 - 10 * n)
    user = organiser_of(event.league)
    with django_capture_on_commit_callbacks(execute=True):
        pairing = round_pair(event=event, round_number=1, user=user)
    pairing_publish(pairing=RoundPairing.objects.get(pk=pairing.pk), user=user)
    game = Game.objects.filter(round__event=event, round__number=1, black__isnull=False).first()
    assert game is not None
    result_record(game_id=game.pk, result=Result.WHITE_WINS, user=user)
    answer = _api(user).post(
        f"/api/v1/games/{game.pk}/result/", {"result": Result.DRAW, "reason": "typo"}, format="json"
    )
    assert answer.status_code == 200


def _team_swiss_round_two_paired(django_capture_on_commit_callbacks):
    """A team Swiss of four teams: round 1's cards confirmed (white won every board), round 2 paired."""
    from leagues.models import Event, TeamMatch
    from leagues.services.match_cards import match_card_submit
    from tests.factories import TeamFactory, TeamMemberFactory

    event = EventFactory(kind=Event.Kind.TEAM, system=Event.System.SWISS, rounds_count=5, boards=2)
    for number in range(1, 5):
        team = TeamFactory(event=event, name=f"Team {number}")
        for board in (1, 2):
            TeamMemberFactory(team=team, board_order=board)
        EntryFactory(event=event, start_number=number, player=None, team=team, rating=None)
    user = organiser_of(event.league)
    for number in (1, 2):
        with django_capture_on_commit_callbacks(execute=True):
            pairing = round_pair(event=event, round_number=number, user=user)
        pairing_publish(pairing=RoundPairing.objects.get(pk=pairing.pk), user=user)
        if number == 1:
            for match in TeamMatch.objects.filter(round__event=event, round__number=1):
                results: dict[int, tuple[str, int]] = {g.pk: (Result.WHITE_WINS, g.version) for g in match.games.all()}
                match_card_submit(match_id=match.pk, results=results, user=user, expected_version=match.version)
    return event, user


def test_a_team_swiss_match_card_correction_asks_too_and_unpairs_the_next_rounds_matches(
    django_capture_on_commit_callbacks,
):
    from leagues.models import TeamMatch

    event, user = _team_swiss_round_two_paired(django_capture_on_commit_callbacks)
    match = TeamMatch.objects.filter(round__event=event, round__number=1).order_by("pk").first()
    assert match is not None
    board = present(match.games.order_by("board").first())
    body = {
        "version": match.version,
        "boards": [{"game": board.pk, "result": Result.DRAW, "version": board.version}],
        "reason": "wrong card",
    }
    api = _api(user)
    asked = api.post(f"/api/v1/matches/{match.pk}/card/", body, format="json")
    assert asked.status_code == 409, asked.content
    assert asked.json()["code"] == "later_round_paired"
    assert board is not None
    assert Game.objects.get(pk=board.pk).result == Result.WHITE_WINS

    done = api.post(f"/api/v1/matches/{match.pk}/card/", body | {"later_pairing": "unpair"}, format="json")
    assert done.status_code == 200, done.content
    assert Game.objects.get(pk=board.pk).result == Result.DRAW
    assert not TeamMatch.objects.filter(round__event=event, round__number=2).exists()
    assert _boards(event, 2) == []


def _card_form(match, results):
    data = {"card_version": match.version, "reason": "wrong card"}
    for game in match.games.all():
        home_white = game.white_id == match.home_id
        home, away = (
            (game.white_player_id, game.black_player_id) if home_white else (game.black_player_id, game.white_player_id)
        )
        data |= {f"home_{game.pk}": home, f"away_{game.pk}": away, f"version_{game.pk}": game.version}
        data[f"result_{game.pk}"] = results.get(game.board, game.result)
    return data


def test_the_match_card_page_asks_and_keeps_the_next_round_on_request(client, django_capture_on_commit_callbacks):
    from leagues.models import TeamMatch

    event, user = _team_swiss_round_two_paired(django_capture_on_commit_callbacks)
    match = TeamMatch.objects.filter(round__event=event, round__number=1).order_by("pk").first()
    round_two = _boards(event, 2)
    client.force_login(user)
    assert match is not None
    url = f"/en/manage/matches/{match.pk}/"
    form = _card_form(match, {1: Result.DRAW})
    asked = client.post(url, form)
    assert asked.status_code == 409
    text = text_of(asked.content.decode())
    assert "Round 2 was paired from the standings before this correction" in text
    assert "Keep the next round as it is paired" in text
    assert match.games.get(board=1).result == Result.WHITE_WINS

    assert client.post(url, form | {"later_pairing": "keep"}).status_code == 302
    assert match.games.get(board=1).result == Result.DRAW
    assert _boards(event, 2) == round_two


def test_settling_a_dispute_after_the_next_round_was_paired_offers_the_choice(
    client, django_capture_on_commit_callbacks
):
    from leagues.models import TeamMatch

    event, user = _team_swiss_round_two_paired(django_capture_on_commit_callbacks)
    match = TeamMatch.objects.filter(round__event=event, round__number=1).order_by("pk").first()
    assert match is not None
    TeamMatch.objects.filter(pk=match.pk).update(status=TeamMatch.Status.DISPUTED, dispute_reason="board 1 was a draw")
    match.refresh_from_db()
    client.force_login(user)
    url = f"/en/manage/matches/{match.pk}/settle/"
    page = text_of(client.get(url).content.decode())
    assert "The next round is paired already" in page
    form = _card_form(match, {1: Result.DRAW}) | {"decision": "Board 1 was drawn."}
    assert client.post(url, form | {"later_pairing": "unpair"}).status_code == 302
    assert match.games.get(board=1).result == Result.DRAW
    assert not TeamMatch.objects.filter(round__event=event, round__number=2).exists()
