"""League rules on the pages (issue #32): live on the match card as the secretary chooses players, on save (a
warning saves the card and tells the organiser, a block refuses it and saves nothing), the organiser's inbox with
its penalty applied once and audited, and the public page of the league's rules in every language."""

import html

import pytest

from leagues.models import Game, ResultChange, RuleViolation, TeamMatch
from leagues.services.league_rules import rule_save
from tests.league_rules_data import CASES, season_of_two_divisions
from tests.workspace import card_post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _query(s, fjord):
    """The card form's player fields as the page's script sends them."""
    lineup = s.lineup(fjord)
    query = {}
    for game in Game.objects.filter(match=s.match):
        query[f"home_{game.pk}"], query[f"away_{game.pk}"] = lineup[game.board]
    return query


def _stored(s):
    return list(
        Game.objects.filter(match=s.match).order_by("board").values_list("white_player", "black_player", "result")
    )


def _text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_warning_rule_shows_live_and_on_the_saved_card_and_reaches_the_organisers_inbox(client, kind):
    value, fjord, _board, sentence = CASES[kind]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind=kind, severity="warning", value=value)
    client.force_login(s.d.secretaries[0])

    live = client.get(f"/en/manage/matches/{s.match.pk}/warnings/", _query(s, fjord))
    assert f"Warning: {sentence}" in live.json()["warnings"]

    sent = card_post(TeamMatch.objects.get(pk=s.match.pk), {1: "1-0", 2: "0-1"}, lineup=s.lineup(fjord))
    saved = client.post(f"/en/manage/matches/{s.match.pk}/", sent, follow=True)
    assert saved.status_code == 200 and "Match card saved." in _text(saved)
    assert f"Warning: {sentence}" in _text(saved)
    assert [row[2] for row in _stored(s)] != ["", ""]  # the results are saved

    client.force_login(s.d.organiser)
    inbox = client.get(f"/en/manage/leagues/{s.d.league.slug}/disputes/")
    assert f"Warning: {sentence}" in _text(inbox)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_blocking_rule_shows_live_and_refuses_the_card_on_save(client, kind):
    value, fjord, _board, sentence = CASES[kind]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind=kind, severity="block", value=value)
    client.force_login(s.d.secretaries[0])
    before = _stored(s)

    live = client.get(f"/en/manage/matches/{s.match.pk}/warnings/", _query(s, fjord))
    assert f"Not allowed: {sentence}" in live.json()["warnings"]

    sent = card_post(TeamMatch.objects.get(pk=s.match.pk), {1: "1-0", 2: "0-1"}, lineup=s.lineup(fjord))
    refused = client.post(f"/en/manage/matches/{s.match.pk}/", sent)
    assert refused.status_code == 400
    assert "The league's rules do not allow this line-up" in _text(refused)
    assert f"Not allowed: {sentence}" in _text(refused)
    assert _stored(s) == before
    assert TeamMatch.objects.get(pk=s.match.pk).status == "scheduled"
    assert not RuleViolation.objects.filter(match=s.match).exists()


def test_the_card_speaks_the_secretarys_language(client):
    value, fjord, _board, _sentence = CASES["licence"]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="licence", severity="block", value=value)
    client.force_login(s.d.secretaries[0])
    expected = {
        "el": "Δεν επιτρέπεται: Σκακιέρα 2: για Fjord, Six δεν έχει καταχωριστεί δελτίο",  # noqa: RUF001 - Greek text
        "tr": "İzin verilmiyor: 2. masa: Fjord, Six için kayıtlı lisans",
        "he": "אסור: לוח 2: ל-Fjord, Six אין רישיון רשום",
        "nb": "Ikke tillatt: Bord 2: Fjord, Six har ingen registrert lisens",
    }
    for language, words in expected.items():
        live = client.get(f"/{language}/manage/matches/{s.match.pk}/warnings/", _query(s, fjord))
        assert any(warning.startswith(words) for warning in live.json()["warnings"]), (language, live.json())


def test_the_organiser_applies_the_penalty_from_the_inbox_once_and_it_is_audited(client):
    value, fjord, board, sentence = CASES["reserves"]
    s = season_of_two_divisions()
    rule_save(
        league=s.d.league, user=s.d.organiser, kind="reserves", severity="warning", value=value, penalty="board_default"
    )
    client.force_login(s.d.secretaries[0])
    sent = card_post(TeamMatch.objects.get(pk=s.match.pk), {1: "1-0", 2: "1-0"}, lineup=s.lineup(fjord))
    assert client.post(f"/en/manage/matches/{s.match.pk}/", sent).status_code == 302

    client.force_login(s.d.organiser)
    dashboard = _text(client.get("/en/manage/"))
    assert "1 league rule broken" in dashboard
    inbox = client.get(f"/en/manage/leagues/{s.d.league.slug}/disputes/")
    assert f"Warning: {sentence}" in _text(inbox) and "the board is lost by default" in _text(inbox)
    violation = RuleViolation.objects.get(match=s.match)
    assert board is not None
    game = Game.objects.get(match=s.match, board=board)
    assert game.white is not None
    assert game.white.team is not None
    fjord_white = game.white.team.club_id == s.d.clubs[0].pk
    expected = "-/+" if fjord_white else "+/-"  # Fjord fielded the reserve: board 2 goes to Bosporus by default

    url = f"/en/manage/leagues/{s.d.league.slug}/disputes/"
    applied = client.post(url, {"violation": violation.pk, "action": "penalise"}, follow=True)
    assert "Penalty applied." in _text(applied)
    assert "No rule broken." in _text(applied)
    game.refresh_from_db()
    assert game.result == expected
    once = (game.version, TeamMatch.objects.get(pk=s.match.pk).version, ResultChange.objects.filter(game=game).count())

    client.post(url, {"violation": violation.pk, "action": "penalise"})  # a second click changes nothing
    game.refresh_from_db()
    assert game.result == expected
    assert (
        game.version,
        TeamMatch.objects.get(pk=s.match.pk).version,
        ResultChange.objects.filter(game=game).count(),
    ) == once

    audit = _text(client.get(f"/en/manage/events/{s.two.slug}/audit/"))
    assert "penalty under the league's rules" in audit
    assert ResultChange.objects.filter(game=game, after=expected).count() == 1


def test_a_secretary_cannot_apply_a_penalty(client):
    value, fjord, _board, _sentence = CASES["reserves"]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="reserves", value=value, penalty="board_default")
    client.force_login(s.d.secretaries[0])
    client.post(
        f"/en/manage/matches/{s.match.pk}/",
        card_post(TeamMatch.objects.get(pk=s.match.pk), {1: "1-0", 2: "1-0"}, lineup=s.lineup(fjord)),
    )
    violation = RuleViolation.objects.get(match=s.match)
    answer = client.post(
        f"/en/manage/leagues/{s.d.league.slug}/disputes/", {"violation": violation.pk, "action": "penalise"}
    )
    assert answer.status_code == 403
    assert RuleViolation.objects.get(pk=violation.pk).status == "open"
    assert [row[2] for row in _stored(s)] == ["1-0", "1-0"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "A player plays at most 1 match in the season."),
        ("el", "Ένας παίκτης παίζει το πολύ 1 αγώνα στην αγωνιστική περίοδο."),
        ("tr", "Bir oyuncu sezonda en çok 1 maç oynar."),
        ("he", "שחקן משחק לכל היותר מפגש אחד בעונה."),
        ("nb", "En spiller spiller høyst 1 kamp i sesongen."),
    ],
)
def test_the_public_page_lists_the_leagues_rules_in_every_language(client, language, words):
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="max_apps", severity="block", value=1)
    rule_save(league=s.d.league, user=s.d.organiser, kind="board_order", value=30, event=s.two)
    url = f"/{language}/leagues/{s.d.league.slug}/rules/"
    assert url in _text(client.get(f"/{language}/"))  # linked from the league on the home page
    assert url in _text(client.get(f"/{language}/leagues/{s.d.league.slug}/seasons/2026/"))
    page = client.get(url)
    assert page.status_code == 200
    assert words in _text(page)
    if language == "en":
        text = _text(page)
        assert "no player may be rated more than 30 points above" in text and "Division Two" in text
        assert "the card is refused" in text and "a warning" in text


def test_the_organiser_sets_and_takes_away_rules_on_the_leagues_rules_page(client):
    s = season_of_two_divisions()
    url = f"/en/manage/leagues/{s.d.league.slug}/rules/"
    client.force_login(s.d.secretaries[0])
    assert client.get(url).status_code == 403
    client.force_login(s.d.organiser)
    assert url in _text(client.get(f"/en/manage/leagues/{s.d.league.slug}/"))

    no_number = client.post(
        url, {"kind": "rating_cap", "event": "", "severity": "block", "value": "", "penalty": "none"}
    )
    assert no_number.status_code == 400 and "This rule needs a number." in _text(no_number)
    assert not s.d.league.rules.exists()

    division = {"kind": "rating_cap", "event": s.two.pk, "severity": "block", "value": 3500, "penalty": "board_default"}
    saved = client.post(url, division, follow=True)
    assert "Rule saved; the saved match cards were checked again." in _text(saved)
    public = _text(client.get(f"/en/leagues/{s.d.league.slug}/rules/"))
    assert "the ratings of a team's players on a card add up to at most 3500" in public and "Division Two" in public

    client.force_login(s.d.secretaries[0])  # the rule holds on Division Two's card at once
    _value, fjord, _board, sentence = CASES["rating_cap"]
    live = client.get(f"/en/manage/matches/{s.match.pk}/warnings/", _query(s, fjord))
    assert f"Not allowed: {sentence}" in live.json()["warnings"]

    client.force_login(s.d.organiser)
    rule = s.d.league.rules.get()
    taken = client.post(url, {"delete": rule.pk}, follow=True)
    assert "Rule taken away." in _text(taken) and not s.d.league.rules.exists()
    assert "This league has set no rules for match cards." in _text(client.get(f"/en/leagues/{s.d.league.slug}/rules/"))
