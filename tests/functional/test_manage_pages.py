"""Secretaries' pages: round sheets, match cards, policy, audit and TRF import through the browser forms."""

import hashlib
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.html import escape

from leagues.models import Event, Game, Result, ResultChange, Role
from tests.factories import ClubFactory, UserFactory, organiser_of, swiss_event
from tests.helpers import text_of
from tests.paths import GOLDEN

pytestmark = pytest.mark.django_db


def _sheet(games, **results):
    data = {"reason": results.pop("reason", "")}
    for game in games:
        data[f"result_{game.pk}"] = results.get(f"g{game.board}", game.result)
        data[f"version_{game.pk}"] = results.get(f"v{game.board}", game.version)
    return data


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_round_sheet_saves_the_whole_round(client):
    event, entries, games = swiss_event(players=4)
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/rounds/1/"
    assert client.get(url).status_code == 200
    response = client.post(url, _sheet(games, g1="1-0", g2="0-1"))
    assert response.status_code == 302
    assert [Game.objects.get(pk=g.pk).result for g in games] == ["1-0", "0-1"]
    page = client.get(f"/en/events/{event.slug}/").content.decode()
    assert page.index(entries[0].player.name) < page.index(entries[2].player.name)


def test_stale_sheet_is_refused_and_shows_the_current_value(client):
    event, entries, games = swiss_event(players=4)
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/rounds/1/"
    client.post(url, _sheet(games, g1="1-0"))
    stale = client.post(url, _sheet(games, g1="0-1", v1=0, g2="1/2-1/2", reason="second secretary"))
    assert stale.status_code == 409
    page = stale.content.decode()
    assert "Someone changed this result meanwhile" in page
    assert [Game.objects.get(pk=g.pk).result for g in games] == ["1-0", ""]
    assert 'value="1-0" selected' in page  # the board changed meanwhile shows what is stored
    assert 'value="1/2-1/2" selected' in page  # the other keeps what was typed
    assert all(escape(entry.player.name) in page for entry in entries)  # the sheet again names every board's players


def test_other_clubs_secretary_gets_a_clear_refusal(client):
    event, _entries, games = swiss_event(players=4, club=ClubFactory())
    stranger = UserFactory()
    Role.objects.create(user=stranger, kind=Role.Kind.SECRETARY, club=ClubFactory())
    client.force_login(stranger)
    response = client.post(f"/en/manage/events/{event.slug}/rounds/1/", _sheet(games, g1="1-0"))
    assert response.status_code == 403
    assert "You may not enter results for this game." in response.content.decode()
    assert ResultChange.objects.count() == 0


def test_entry_needs_a_login(client):
    event, _entries, _games = swiss_event(players=4)
    response = client.get(f"/en/manage/events/{event.slug}/rounds/1/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_policy_override_after_the_lock_needs_a_reason_and_is_shown(client):
    event, _entries, games = swiss_event(players=4, tiebreak_criteria=["BH/C1", "BH"])
    organiser = organiser_of(event.league)
    client.force_login(organiser)
    client.post(f"/en/manage/events/{event.slug}/rounds/1/", _sheet(games, g1="1-0"))
    url = f"/en/manage/events/{event.slug}/policy/"
    refused = client.post(url, {"rule_set": "fide-2026", "criteria": "SB, BH"})
    assert refused.status_code == 400
    assert "needs a reason" in refused.content.decode()
    accepted = client.post(url, {"rule_set": "fide-2026", "criteria": "SB, BH", "reason": "as published"})
    assert accepted.status_code == 302
    assert Event.objects.get(pk=event.pk).tiebreak_criteria == ["SB", "BH"]
    assert "as published" in client.get(url).content.decode()


def test_audit_trail_is_for_organisers(client):
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    client.force_login(organiser)
    client.post(f"/en/manage/events/{event.slug}/rounds/1/", _sheet(games, g1="1-0"))
    page = client.get(f"/en/manage/events/{event.slug}/audit/").content.decode()
    assert "Round 1, board 1" in page
    client.force_login(UserFactory())
    assert client.get(f"/en/manage/events/{event.slug}/audit/").status_code == 403


def test_trf_import_page(client):
    event, _entries, _games = swiss_event(players=4)
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/leagues/{event.league.slug}/import/"
    bad = client.post(url, {"name": "Bad", "slug": "bad", "file": SimpleUploadedFile("x.trf", b"001 nonsense\n")})
    assert bad.status_code == 400
    assert "The file cannot be read" in bad.content.decode()
    assert not Event.objects.filter(slug="bad").exists()
    gold = json.loads((GOLDEN / "swiss-p009-r05-s01004.json").read_text())
    preview = client.post(
        url, {"name": "Club open", "slug": "club-open", "file": SimpleUploadedFile("open.trf", gold["trf"].encode())}
    )
    assert preview.status_code == 200  # the preview first: nothing saved yet
    assert not Event.objects.filter(slug="club-open").exists()
    good = client.post(
        url, {"confirm": "1", "publish": "1", "digest": hashlib.sha256(gold["trf"].encode()).hexdigest()}
    )
    assert good.status_code == 302
    assert Event.objects.get(slug="club-open").entries.count() == 9
    exported = client.get("/en/manage/events/club-open/export.trf")
    assert exported.status_code == 200
    assert exported.content.decode().count("\n001 ") + exported.content.decode().startswith("001") >= 9


@pytest.mark.parametrize("lang", ["en", "el", "tr", "he", "nb"])
def test_manage_pages_answer_in_every_language(client, lang):
    event, _entries, _games = swiss_event(players=4)
    client.force_login(organiser_of(event.league))
    for url in (
        "/manage/",
        f"/manage/events/{event.slug}/rounds/1/",
        f"/manage/events/{event.slug}/policy/",
        f"/manage/events/{event.slug}/audit/",
        "/accounts/login/",
    ):
        response = client.get(f"/{lang}{url}")
        assert response.status_code == 200, url
        assert f'lang="{lang}"' in response.content.decode()[:400]


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_public_pages_show_corrections_and_policy_overrides(client):
    event, entries, games = swiss_event(players=4, tiebreak_criteria=["BH"])
    organiser = organiser_of(event.league)
    client.force_login(organiser)
    sheet = f"/en/manage/events/{event.slug}/rounds/1/"
    client.post(sheet, _sheet(games, g1="1-0", g2="1-0"))
    games = [Game.objects.get(pk=g.pk) for g in games]
    client.post(sheet, _sheet(games, g1="0-1", reason="players swapped colours"))
    client.post(
        f"/en/manage/events/{event.slug}/policy/",
        {"rule_set": "fide-2026", "criteria": "SB", "reason": "the regulations said SB"},
    )
    client.logout()

    round_page = client.get(f"/en/events/{event.slug}/rounds/1/").content.decode()
    assert "Board 1: 1-0 corrected to 0-1." in round_page
    assert "players swapped colours" in round_page
    assert f"{entries[0].player.name}</bdi>: place 1 → 3, points 1 → 0" in round_page
    standings = client.get(f"/en/events/{event.slug}/").content.decode()
    assert "BH became SB. Reason: the regulations said SB" in text_of(standings)


def test_match_card_page_warns_about_a_player_not_on_the_roster(client):
    from tests.helpers import team_match

    _event, match, games, (home, _away) = team_match()
    client.force_login(home)
    page = client.get(f"/en/manage/matches/{match.pk}/")
    assert page.status_code == 200
    assert f"Board 1: {games[0].white_player.name} is not on the team&#x27;s roster." in page.content.decode()


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_organiser_draws_a_division_schedule_once(client):
    from leagues.models import Entry, Team, TeamMatch
    from tests.factories import EventFactory

    event = EventFactory(kind=Event.Kind.TEAM, system=Event.System.ROUND_ROBIN, rounds_count=3, boards=2)
    for number in range(1, 5):
        team = Team.objects.create(event=event, club=ClubFactory(), name=f"Team {number}")
        Entry.objects.create(event=event, start_number=number, team=team)
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/fixtures/"
    assert client.post(url).status_code == 302
    assert TeamMatch.objects.filter(round__event=event).count() == 6  # four teams: six pairings
    game = Game.objects.filter(round__event=event).first()
    assert game is not None and game.match_id is not None
    from leagues.services.match_cards import match_card_submit

    match_card_submit(
        match_id=game.match_id, results={game.pk: (Result.DRAW, 0)}, user=organiser_of(event.league), expected_version=0
    )
    refused = client.post(url)
    assert refused.status_code == 400
    assert TeamMatch.objects.filter(round__event=event).count() == 6


def test_login_is_throttled_after_repeated_failures(client, settings):
    settings.LOGIN_ATTEMPTS = 3
    user = UserFactory(username="secretary-x")
    for _ in range(3):
        assert client.post("/en/accounts/login/", {"username": "secretary-x", "password": "wrong"}).status_code == 200
    refused = client.post("/en/accounts/login/", {"username": "secretary-x", "password": "pw"})
    assert refused.status_code == 429  # even the right password waits now
    assert "Too many failed attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session
    other = client.post("/en/accounts/login/", {"username": user.username.upper() + "-other", "password": "pw"})
    assert other.status_code == 200


def test_production_settings_pass_the_deploy_check():
    import os
    import subprocess
    import sys

    from django.conf import settings

    secret = "deploy-check-9f2Qz7LmX4vB1nR8sT6wY3kH0pJ5cE2aU7dG4fZ1xV9bN3mK6"  # a test value, not a real key
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "SECRET_KEY": secret,
        "DATABASE_URL": "sqlite:////tmp/deploy-check.sqlite3",
        "ALLOWED_HOSTS": "league.example.org",
        "CELERY_BROKER_URL": settings.REDIS_URL,  # this test process's own Redis database
        "DEBUG": "false",
    }
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_standings_are_marked_provisional_until_the_card_is_confirmed(client):
    from leagues.services.match_cards import match_card_confirm, match_card_submit
    from tests.helpers import team_match

    event, match, games, (home, away) = team_match()
    match_card_submit(match_id=match.pk, results={games[0].pk: (Result.WHITE_WINS, 0)}, user=home, expected_version=0)
    page = client.get(f"/en/events/{event.slug}/").content.decode()
    assert "Provisional: these match cards are not confirmed by both clubs yet." in page
    # which card, between whom, and where it stands
    assert f"<bdi>{match.home}</bdi> – <bdi>{match.away}</bdi> ({match.Status.SUBMITTED.label})" in page
    match_card_confirm(match_id=match.pk, user=away, expected_version=1)
    assert "Provisional" not in client.get(f"/en/events/{event.slug}/").content.decode()


def test_policy_page_warns_when_rating_criteria_meet_unrated_players(client):
    event, entries, _games = swiss_event(players=4, tiebreak_criteria=["ARO", "BH"])
    entries[1].rating = None
    entries[1].save()
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/policy/"
    assert "1 player has no rating" in client.get(url).content.decode()
    Event.objects.filter(pk=event.pk).update(unrated_rating=1400)
    assert "has no rating" not in client.get(url).content.decode()


@pytest.mark.parametrize("lang", ["el", "tr", "he", "nb"])
def test_policy_page_names_the_rule_sets_in_the_readers_language(client, lang):
    from django.utils import translation
    from django.utils.html import escape

    event, _entries, _games = swiss_event(players=4)
    client.force_login(organiser_of(event.league))
    page = client.get(f"/{lang}/manage/events/{event.slug}/policy/").content.decode()
    with translation.override(lang):
        native = translation.gettext("FIDE 2026 (C.07, from 1 March 2026)")
    assert native != "FIDE 2026 (C.07, from 1 March 2026)"
    assert f">{escape(native)}</option>" in page
