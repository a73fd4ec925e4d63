"""League rules through the API (issue #32): each rule a warning (the card is saved, the violation answered and
sent to the organiser's inbox) or a block (refused, nothing saved); the check endpoint answers the same without
saving; a penalty is applied once, through the card's result service, and audited."""

import pytest
from rest_framework.test import APIClient

from leagues.models import Game, LeagueRule, ResultChange, RuleViolation, TeamMatch
from leagues.services.league_rules import rule_save, violation_penalise
from leagues.services.tokens import api_token_create
from tests.league_rules_data import BROKEN_BY_CLEAN, CASES, CLEAN, season_of_two_divisions

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _api(user, language="en"):
    client = APIClient()
    token = api_token_create(user=user, name="t", scopes=["organiser"])[1]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}", HTTP_ACCEPT_LANGUAGE=language)
    return client


def _card_body(s, fjord, results=("1-0", "0-1")):
    match = TeamMatch.objects.get(pk=s.match.pk)
    games = {g.board: g for g in match.games.all()}
    lineup = s.lineup(fjord)
    return {
        "version": match.version,
        "boards": [{"game": games[b].pk, "result": results[b - 1], "version": games[b].version} for b in (1, 2)],
        "lineup": [{"board": b, "home_player": h, "away_player": a} for b, (h, a) in lineup.items()],
    }


def _stored(s):
    return list(
        Game.objects.filter(match=s.match).order_by("board").values_list("white_player", "black_player", "result")
    )


def _lineup_stored(s):
    """{board: (home player id, away player id)} as the card stores it now."""
    lineup = {}
    for game in Game.objects.filter(match=s.match):
        home_white = game.white_id == s.match.home_id
        lineup[game.board] = (
            (game.white_player_id, game.black_player_id) if home_white else (game.black_player_id, game.white_player_id)
        )
    return lineup


def _secretary(s):
    return s.d.secretaries[0]  # Fjord's


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_warning_rule_lets_the_card_be_saved_answers_the_violation_and_tells_the_organiser(kind):
    value, fjord, board, sentence = CASES[kind]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind=kind, severity="warning", value=value)

    check = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/check/", _card_body(s, fjord), format="json")
    assert check.status_code == 200
    assert check.json()["blocked"] is False
    assert {
        "rule": kind,
        "severity": "warning",
        "side": s.fjord_side,
        "board": board,
        "message": f"Warning: {sentence}",
    }.items() <= check.json()["violations"][0].items()

    answer = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/card/", _card_body(s, fjord), format="json")
    assert answer.status_code == 200, answer.json()
    assert [v["message"] for v in answer.json()["rule_violations"]] == [f"Warning: {sentence}"]
    assert _lineup_stored(s) == s.lineup(fjord)
    (violation,) = RuleViolation.objects.filter(match=s.match)
    assert (violation.kind, violation.side, violation.board, violation.status) == (kind, s.fjord_side, board, "open")

    clean = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/check/", _card_body(s, CLEAN), format="json")
    if kind not in BROKEN_BY_CLEAN:
        assert clean.json() == {"blocked": False, "violations": []}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_blocking_rule_refuses_the_card_and_saves_nothing(kind):
    value, fjord, board, sentence = CASES[kind]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind=kind, severity="block", value=value)
    before, version = _stored(s), TeamMatch.objects.get(pk=s.match.pk).version

    check = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/check/", _card_body(s, fjord), format="json")
    assert check.json()["blocked"] is True
    assert [v["message"] for v in check.json()["violations"]] == [f"Not allowed: {sentence}"]

    answer = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/card/", _card_body(s, fjord), format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "league_rule_broken"
    assert answer.json()["violations"][0]["board"] == board
    assert sentence in answer.json()["message"]
    assert _stored(s) == before and TeamMatch.objects.get(pk=s.match.pk).version == version
    assert not RuleViolation.objects.filter(match=s.match).exists()
    assert not ResultChange.objects.filter(game__match=s.match).exists()


def test_the_api_explains_a_violation_in_the_language_asked_for():
    value, fjord, _board, _sentence = CASES["licence"]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="licence", severity="block", value=value)
    answer = _api(_secretary(s), "nb").post(f"/api/v1/matches/{s.match.pk}/check/", _card_body(s, fjord), format="json")
    (violation,) = answer.json()["violations"]
    assert "Fjord, Six" in violation["message"] and "Board" not in violation["message"]


def test_a_division_rule_replaces_the_league_rule_of_its_kind():
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="board_order", severity="block", value=30)
    rule_save(league=s.d.league, user=s.d.organiser, kind="board_order", severity="warning", value=60, event=s.two)
    body = _card_body(s, ("Fjord, Five", "Fjord, Four"))
    check = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/check/", body, format="json")
    assert check.json() == {"blocked": False, "violations": []}  # 50 points: within Division Two's 60


def test_a_rule_set_after_the_card_was_saved_sends_its_violation_to_the_inbox_and_the_penalty_applies_once():
    value, fjord, board, _sentence = CASES["licence"]
    s = season_of_two_divisions()
    body = _card_body(s, fjord, ("1-0", "1-0"))
    saved = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/card/", body, format="json")
    assert saved.status_code == 200 and saved.json()["rule_violations"] == []
    rule_save(
        league=s.d.league, user=s.d.organiser, kind="licence", severity="block", value=value, penalty="board_default"
    )
    (violation,) = RuleViolation.objects.filter(match=s.match, status="open")  # Division One's card breaks it too
    assert (violation.kind, violation.board, violation.penalty) == ("licence", board, "board_default")

    assert board is not None
    game = Game.objects.get(match=s.match, board=board)
    assert game.white is not None
    assert game.white.team is not None
    fjord_white = game.white.team.club_id == s.d.clubs[0].pk
    expected = "-/+" if fjord_white else "+/-"  # Fjord broke the rule: the board goes to Bosporus by default
    card_version = TeamMatch.objects.get(pk=s.match.pk).version
    violation_penalise(violation_id=violation.pk, user=s.d.organiser)
    game.refresh_from_db()
    assert game.result == expected
    (change,) = ResultChange.objects.filter(game=game, after=expected)
    assert change.before == "1-0" and change.reason_shown == "penalty under the league's rules"
    assert change.user == s.d.organiser
    after_once = (game.version, TeamMatch.objects.get(pk=s.match.pk).version, ResultChange.objects.count())
    assert after_once[1] == card_version + 1

    violation_penalise(violation_id=violation.pk, user=s.d.organiser)  # again: nothing changes
    game.refresh_from_db()
    assert game.result == expected
    assert (game.version, TeamMatch.objects.get(pk=s.match.pk).version, ResultChange.objects.count()) == after_once
    assert RuleViolation.objects.get(pk=violation.pk).status == "penalised"

    # the check still names the violation, but the organiser decided it: a later save of the card is not refused
    again = _api(s.d.organiser).post(f"/api/v1/matches/{s.match.pk}/check/", _card_body(s, fjord), format="json")
    assert again.json()["blocked"] is True
    results = ("1-0", expected) if board == 2 else (expected, "1-0")
    resaved = _api(s.d.organiser).post(
        f"/api/v1/matches/{s.match.pk}/card/", _card_body(s, fjord, results), format="json"
    )
    assert resaved.status_code == 200, resaved.json()
    assert Game.objects.get(pk=game.pk).result == expected


def test_only_the_organiser_sets_rules_and_applies_penalties():
    from leagues.errors import PermissionDenied

    s = season_of_two_divisions()
    with pytest.raises(PermissionDenied):
        rule_save(league=s.d.league, user=_secretary(s), kind="licence", severity="block")
    assert not LeagueRule.objects.exists()


def test_the_admin_saves_a_rule_through_the_service_and_the_saved_cards_are_checked_again(client):
    from tests.factories import UserFactory

    s = season_of_two_divisions()  # Division One's card is saved: Player1 and Player2 have no licence
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    answer = client.post(
        "/admin/leagues/leaguerule/add/",
        {
            "league": s.d.league.pk,
            "event": "",
            "kind": "licence",
            "severity": "warning",
            "value": "",
            "penalty": "none",
        },
    )
    assert answer.status_code == 302
    assert LeagueRule.objects.filter(league=s.d.league, kind="licence").count() == 1
    found = RuleViolation.objects.filter(match=s.d.match(), status="open").values_list("side", "board")
    one = TeamMatch.objects.get(pk=s.d.match().pk)
    assert one.home.team is not None
    fjord_side = "home" if one.home.team.club_id == s.d.clubs[0].pk else "away"
    bosporus_side = "away" if fjord_side == "home" else "home"
    # both clubs' players of Division One have no licence: every board of both sides
    assert sorted(found) == sorted([(fjord_side, 1), (fjord_side, 2), (bosporus_side, 1), (bosporus_side, 2)])


def test_a_club_cannot_undo_a_penalty_by_sending_its_card_again():
    value, fjord, board, _sentence = CASES["reserves"]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="reserves", value=value, penalty="board_default")
    body = _card_body(s, fjord, ("1-0", "1-0"))
    assert _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/card/", body, format="json").status_code == 200
    violation = RuleViolation.objects.get(match=s.match)
    violation_penalise(violation_id=violation.pk, user=s.d.organiser)
    assert board is not None
    game = Game.objects.get(match=s.match, board=board)
    defaulted = game.result
    assert defaulted in ("+/-", "-/+")

    again = _api(_secretary(s)).post(
        f"/api/v1/matches/{s.match.pk}/card/", _card_body(s, fjord, ("1-0", "1-0")), format="json"
    )
    assert again.status_code == 400 and again.json()["code"] == "penalty_board"
    assert f"Board {board} was defaulted under the league's rules" in again.json()["message"]
    assert Game.objects.get(pk=game.pk).result == defaulted
    other = ("0-1", defaulted) if board == 2 else (defaulted, "0-1")  # another board may still change
    body = _card_body(s, fjord, other) | {"reason": "the other board was misread"}
    kept = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/card/", body, format="json")
    assert kept.status_code == 200, kept.json()
    assert Game.objects.get(pk=game.pk).result == defaulted


def test_appearances_count_the_cards_before_this_one_only():
    value, fjord, board, _sentence = CASES["max_apps"]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="max_apps", severity="warning", value=value)
    # Player1's appearance for Fjord SK 1 is their first: Division One's card breaks nothing
    assert not RuleViolation.objects.exists()
    saved = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/card/", _card_body(s, fjord), format="json")
    assert saved.status_code == 200
    # the second appearance (Division Two, drawn after Division One) breaks it; Division One's card still not
    assert list(RuleViolation.objects.values_list("match", "board")) == [(s.match.pk, board)]
    rule_save(league=s.d.league, user=s.d.organiser, kind="max_apps", severity="warning", value=value)  # again
    assert list(RuleViolation.objects.values_list("match", "board")) == [(s.match.pk, board)]


def test_the_organiser_is_not_blocked_and_what_the_card_breaks_goes_to_the_inbox():
    value, fjord, board, sentence = CASES["licence"]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="licence", severity="block", value=value)
    answer = _api(s.d.organiser).post(f"/api/v1/matches/{s.match.pk}/card/", _card_body(s, fjord), format="json")
    assert answer.status_code == 200, answer.json()
    assert [v["message"] for v in answer.json()["rule_violations"]] == [f"Not allowed: {sentence}"]
    (violation,) = RuleViolation.objects.filter(match=s.match)
    assert (violation.kind, violation.board, violation.severity, violation.status) == (
        "licence",
        board,
        "block",
        "open",
    )
