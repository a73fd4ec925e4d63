"""Ranking lists and licences on the pages (issue #32): the secretary reaches the team's list from the dashboard and
submits it (places 1, 2, ...), adds players at its end after the deadline; the organiser sets the season's days and
sees every list; the public reads the lists once the first day has passed, linked from the league's rules; the
organiser edits a player's licence valid-until date on the player's page."""

import datetime
import html

import pytest
from django.utils import timezone

from leagues.models import Player, RankingListEntry, Season
from leagues.services.league_rules import rule_save
from leagues.services.players import player_fields
from tests.league_rules_data import F4, F5, F6, season_of_two_divisions

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _season_form(season, due, closed) -> dict:
    return {
        "name": season.name,
        "slug": season.slug,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": "",
        "ranking_deadline": due.isoformat() if due else "",
        "nomination_deadline": closed.isoformat() if closed else "",
    }


def _set_days(client, s, due, closed):
    season = Season.objects.get(league=s.d.league)
    client.force_login(s.d.organiser)
    return client.post(f"/en/manage/leagues/{s.d.league.slug}/seasons/{season.pk}/", _season_form(season, due, closed))


def _fjord_two(s):
    return s.match.home.team if s.fjord_home else s.match.away.team


def _listed(team) -> list[str]:
    return list(RankingListEntry.objects.filter(team=team).order_by("position").values_list("player__name", flat=True))


def test_the_secretary_submits_the_list_from_the_dashboard_in_two_clicks(client):
    s = season_of_two_divisions()
    today = timezone.localdate()
    due, closed = today + datetime.timedelta(days=3), today + datetime.timedelta(days=10)
    assert _set_days(client, s, due, closed).status_code == 302
    team, p = _fjord_two(s), s.players
    url = f"/en/manage/teams/{team.pk}/ranking-list/"

    client.force_login(s.d.secretaries[0])
    dashboard = _text(client.get("/en/manage/"))
    assert "Ranking lists to submit" in dashboard and url in dashboard  # click 1: the team's list
    page = client.get(url)
    assert page.status_code == 200 and "Give each player who may play for the team a place" in _text(page)
    # fill the places, click 2: save
    saved = client.post(url, {f"place_{p[F6].pk}": "1", f"place_{p[F4].pk}": "2", f"place_{p[F5].pk}": ""}, follow=True)
    assert "Ranking list saved." in _text(saved)
    assert _listed(team) == [F6, F4]

    twice = client.post(url, {f"place_{p[F6].pk}": "1", f"place_{p[F4].pk}": "1"})
    assert twice.status_code == 400 and "Two players have the same place." in _text(twice)
    assert _listed(team) == [F6, F4]

    client.force_login(s.d.secretaries[1])  # Bosporus's secretary
    assert client.get(url).status_code == 403


def test_after_the_deadline_the_page_adds_at_the_end_only(client):
    s = season_of_two_divisions()
    today = timezone.localdate()
    assert _set_days(client, s, today - datetime.timedelta(days=1), today).status_code == 302
    team, p = _fjord_two(s), s.players
    url = f"/en/manage/teams/{team.pk}/ranking-list/"
    client.force_login(s.d.secretaries[0])
    assert "late nominations until" in _text(client.get("/en/manage/"))

    moved = client.post(url, {f"place_{p[F4].pk}": "2", f"place_{p[F5].pk}": "1"})
    assert moved.status_code == 400
    assert "players may only be added at the end of the list" in _text(moved)
    assert _listed(team) == [F4, F5]

    added = client.post(url, {f"place_{p[F4].pk}": "1", f"place_{p[F5].pk}": "2", f"place_{p[F6].pk}": "3"})
    assert added.status_code == 302
    assert _listed(team) == [F4, F5, F6]


def test_the_organiser_sets_the_days_with_the_season_and_sees_every_list(client):
    s = season_of_two_divisions()
    today = timezone.localdate()
    wrong = _set_days(client, s, today, today - datetime.timedelta(days=1))
    assert wrong.status_code == 400
    assert "Late nominations end on or after the day the ranking lists are due." in _text(wrong)
    assert Season.objects.get(league=s.d.league).ranking_deadline is None

    season = Season.objects.get(league=s.d.league)
    overview_url = f"/en/manage/leagues/{s.d.league.slug}/seasons/{season.pk}/ranking-lists/"
    assert overview_url in _text(client.get(f"/en/manage/leagues/{s.d.league.slug}/"))
    overview = _text(client.get(overview_url))
    assert "No day is set for the ranking lists" in overview
    for name in ("Fjord SK 1", "Fjord SK 2", "Bosporus SK 2", F4, F5, "Bosporus, Four"):
        assert name in overview
    client.force_login(s.d.secretaries[0])
    assert client.get(overview_url).status_code == 403


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "Ranking lists of the season 2026"),
        ("el", "Κατάλογοι σειράς δύναμης της αγωνιστικής περιόδου 2026"),
        ("tr", "2026 sezonunun sıra listeleri"),
        ("he", "הרשימות המדורגות של העונה 2026"),
        ("nb", "Ranglister for sesongen 2026"),
    ],
)
def test_the_lists_are_public_once_the_first_day_has_passed(client, language, heading):
    s = season_of_two_divisions()
    today = timezone.localdate()
    rule_save(league=s.d.league, user=s.d.organiser, kind="ranking_list", severity="block")
    public = f"/{language}/leagues/{s.d.league.slug}/seasons/2026/ranking-lists/"
    rules = f"/{language}/leagues/{s.d.league.slug}/rules/"
    _set_days(client, s, today, today)
    client.logout()
    assert client.get(public).status_code == 404
    assert public not in _text(client.get(rules))

    _set_days(client, s, today - datetime.timedelta(days=1), today)
    client.logout()
    listed = _text(client.get(rules))
    assert public in listed and heading in listed
    page = _text(client.get(public))
    assert page.index(F4) < page.index(F5)  # in the list's order
    assert "Bosporus, Four" in page and "Fjord, Player1" in page


def test_the_organiser_edits_a_players_licence_on_the_players_page_and_the_rule_reads_it(client):
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="licence_date", severity="block")
    f6 = s.players[F6]
    lineup = s.lineup((F4, F6))
    query = {}
    for game in s.match.games.all():
        query[f"home_{game.pk}"], query[f"away_{game.pk}"] = lineup[game.board]
    warnings_url = f"/en/manage/matches/{s.match.pk}/warnings/"
    client.force_login(s.d.secretaries[0])
    expired = f"Not allowed: Board 2: the licence of {F6} ran out on 31 Dec 2025, before the match on 5 Jan 2026."
    assert expired in client.get(warnings_url, query).json()["warnings"]

    client.force_login(s.d.organiser)
    url = f"/en/manage/leagues/{s.d.league.slug}/players/{f6.pk}/"
    assert "licence valid until" in _text(client.get(url)).lower()
    form = {name: getattr(f6, name) if getattr(f6, name) is not None else "" for name in player_fields()}
    form.update({"licence_until": "2027-06-30", "anonymised": ""})
    assert client.post(url, form).status_code == 302
    assert Player.objects.get(pk=f6.pk).licence_until == datetime.date(2027, 6, 30)

    client.force_login(s.d.secretaries[0])
    assert not [w for w in client.get(warnings_url, query).json()["warnings"] if "licence" in w]
