"""Ranking lists, gender and licence rules through the API (issue #32): a club's secretary submits a team's ranking
list by the season's deadline, adds players at its end until the nomination deadline, then no more; the rule reads
the lists (only listed players, in the lists' order, a lower team's player as a reserve, none nominated late); a
board reserved for a woman, most men on a card; a licence valid on the match date, set by the club or organiser.

The season (tests.league_rules_data): Fjord SK 1 lists Player1, Player2; Fjord SK 2 F4, F5; Bosporus SK 2 B4, B5.
Days are set around today, since the service dates each nomination with the day it is made."""

import datetime

import pytest
from django.utils import timezone

from leagues.errors import PermissionDenied, ServiceError
from leagues.models import Game, RankingListEntry, ResultChange, RuleViolation, Season, TeamMatch
from leagues.services.league_rules import rule_save, stored_lineup, violation_penalise
from leagues.services.leagues import season_save
from leagues.services.ranking_lists import ranking_list_set
from tests.helpers import present
from tests.integration.test_league_rules import _api, _card_body, _secretary
from tests.league_rules_data import CASES, F4, F5, F6, P1, season_of_two_divisions

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

NEW_KINDS = ["licence_date", "woman_board", "max_men", "ranking_list"]


def _english(day: datetime.date) -> str:
    """A day as the English pages write it (day-month-year, the month's short name), e.g. 5 Jan 2026."""
    return f"{day.day} {day.strftime('%b')} {day.year}"


def _deadlines(s, due: datetime.date, closed: datetime.date) -> None:
    season = Season.objects.get(league=s.d.league)
    fields = {"name": season.name, "slug": season.slug, "starts_on": season.starts_on, "ends_on": season.ends_on}
    season_save(
        league=s.d.league,
        user=s.d.organiser,
        season=season,
        fields=fields | {"ranking_deadline": due, "nomination_deadline": closed},
    )


def _fjord_two(s):
    return s.match.home.team if s.fjord_home else s.match.away.team


def _listed(team) -> list[str]:
    return list(RankingListEntry.objects.filter(team=team).order_by("position").values_list("player__name", flat=True))


def _check(s, fjord, user=None):
    client = _api(user or _secretary(s))
    return client.post(f"/api/v1/matches/{s.match.pk}/check/", _card_body(s, fjord), format="json").json()


# ---------------------------------------------------------------- submitting a list, by the deadlines


def test_the_secretary_submits_and_reorders_the_list_before_the_deadline_through_the_api():
    s = season_of_two_divisions()
    today = timezone.localdate()
    _deadlines(s, today, today + datetime.timedelta(days=7))
    team, p = _fjord_two(s), s.players
    body = {"players": [p[F5].pk, p[F4].pk, p[F6].pk]}
    answer = _api(_secretary(s)).put(f"/api/v1/teams/{team.pk}/ranking-list/", body, format="json")
    assert answer.status_code == 200, answer.json()
    assert [(e["position"], e["player_name"]) for e in answer.json()["entries"]] == [(1, F5), (2, F4), (3, F6)]
    assert _listed(team) == [F5, F4, F6]


def test_after_the_deadline_a_player_is_added_at_the_end_only_and_after_the_nomination_deadline_not_at_all():
    s = season_of_two_divisions()
    today = timezone.localdate()
    _deadlines(s, today - datetime.timedelta(days=1), today)
    team, p, client = _fjord_two(s), s.players, _api(_secretary(s))
    url = f"/api/v1/teams/{team.pk}/ranking-list/"

    moved = client.put(url, {"players": [p[F5].pk, p[F4].pk]}, format="json")
    assert moved.status_code == 400 and moved.json()["code"] == "late_list_changed"
    assert _listed(team) == [F4, F5]

    added = client.put(url, {"players": [p[F4].pk, p[F5].pk, p[F6].pk]}, format="json")
    assert added.status_code == 200, added.json()
    assert [e["nominated_on"] for e in added.json()["entries"]][2] == today.isoformat()
    assert _listed(team) == [F4, F5, F6]

    _deadlines(s, today - datetime.timedelta(days=2), today - datetime.timedelta(days=1))
    closed = client.put(url, {"players": [p[F4].pk, p[F5].pk]}, format="json")
    assert closed.status_code == 400 and closed.json()["code"] == "nominations_closed"
    assert _listed(team) == [F4, F5, F6]


def test_a_list_holds_the_clubs_members_once_in_the_season_and_only_the_club_submits_it():
    s = season_of_two_divisions()
    team, p = _fjord_two(s), s.players
    with pytest.raises(ServiceError) as elsewhere:
        ranking_list_set(team=team, user=s.d.organiser, players=[p[F4], p[P1]])
    assert elsewhere.value.code == "on_another_list" and "Fjord SK 1" in elsewhere.value.message
    with pytest.raises(ServiceError) as stranger:
        ranking_list_set(team=team, user=s.d.organiser, players=[p[F4], p["Bosporus, Four"]])
    assert stranger.value.code == "not_member" and "Bosporus, Four" in stranger.value.message
    with pytest.raises(PermissionDenied):
        ranking_list_set(team=team, user=s.d.secretaries[1], players=[p[F4]])  # Bosporus's secretary
    assert _listed(team) == [F4, F5]


def test_the_lists_are_public_once_the_first_deadline_has_passed():
    s = season_of_two_divisions()
    today = timezone.localdate()
    season = Season.objects.get(league=s.d.league)
    anonymous = _api(s.d.organiser)
    anonymous.credentials()  # no token: a reader
    _deadlines(s, today, today)
    assert anonymous.get(f"/api/v1/teams/{_fjord_two(s).pk}/ranking-list/").status_code in (401, 403)
    assert anonymous.get(f"/api/v1/seasons/{season.pk}/ranking-lists/").status_code == 403
    organiser = _api(s.d.organiser).get(f"/api/v1/seasons/{season.pk}/ranking-lists/")
    assert {row["team_name"]: len(row["entries"]) for row in organiser.json()} == {
        "Fjord SK 1": 2,
        "Bosporus SK 1": 0,
        "Fjord SK 2": 2,
        "Bosporus SK 2": 2,
    }
    _deadlines(s, today - datetime.timedelta(days=1), today)
    public = anonymous.get(f"/api/v1/seasons/{season.pk}/ranking-lists/")
    assert public.status_code == 200
    one_list = anonymous.get(f"/api/v1/teams/{_fjord_two(s).pk}/ranking-list/")
    assert [e["player_name"] for e in one_list.json()["entries"]] == [F4, F5]
    fjord_two = next(row for row in public.json() if row["team_name"] == "Fjord SK 2")
    assert [e["player_name"] for e in fjord_two["entries"]] == [F4, F5]


# ---------------------------------------------------------------- the rule's checks


@pytest.mark.parametrize(
    ("value", "fjord", "board", "sentence"),
    [
        # F4 is first on Fjord SK 2's list, F5 second
        (
            None,
            (F5, F4),
            2,
            f"Board 2: {F4} sits below {F5} (board 1), who comes after them on the club's ranking lists.",
        ),
        (None, (P1, F5), 1, f"Board 1: {P1} is on the ranking list of Fjord SK 1, a higher team of the club."),
    ],
)
def test_the_ranking_list_rule_reads_the_order_and_the_higher_teams_list(value, fjord, board, sentence):
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="ranking_list", severity="block", value=value)
    answer = _check(s, fjord)
    assert answer["blocked"] is True
    assert [(v["board"], v["message"]) for v in answer["violations"]] == [(board, f"Not allowed: {sentence}")]


def test_a_lower_teams_player_plays_for_a_higher_team_below_its_own_players_and_within_the_leagues_number():
    """Fjord SK 1's card (Division One): F4 of Fjord SK 2's list as a reserve."""
    s = season_of_two_divisions()
    one = TeamMatch.objects.get(pk=s.d.match().pk)
    fjord_home = present(one.home.team).club_id == s.d.clubs[0].pk
    fjord_side = "home" if fjord_home else "away"

    def check(first, second):
        lineup = []
        for board, (home, away) in sorted(stored_lineup(one).items()):  # Bosporus as stored
            ours = s.players[(first, second)[board - 1]].pk
            home, away = (ours, away) if fjord_home else (home, ours)
            lineup.append({"board": board, "home_player": home, "away_player": away})
        url = f"/api/v1/matches/{one.pk}/check/"
        found = _api(s.d.organiser).post(url, {"lineup": lineup}, format="json").json()["violations"]
        return [v for v in found if v["side"] == fjord_side]  # Bosporus SK 1 has no list: not this test's

    rule_save(league=s.d.league, user=s.d.organiser, kind="ranking_list", severity="block")
    assert [v for v in check(P1, F4) if v["rule"] == "ranking_list"] == []  # any number of reserves, below
    below = [v["message"] for v in check(F4, P1) if v["rule"] == "ranking_list"]
    assert below == [
        f"Not allowed: Board 2: {P1} sits below {F4} (board 1), who comes after them on the club's ranking lists."
    ]
    rule_save(league=s.d.league, user=s.d.organiser, kind="ranking_list", severity="block", value=0)
    none_allowed = [v["message"] for v in check(P1, F4) if v["rule"] == "ranking_list"]
    assert none_allowed == [
        f"Not allowed: Board 2: {F4} is a reserve from the list of Fjord SK 2 beyond the 0 the league allows."
    ]


def test_a_player_the_organiser_nominates_after_the_nomination_deadline_breaks_the_rule():
    s = season_of_two_divisions()
    today = timezone.localdate()
    closed = today - datetime.timedelta(days=1)
    _deadlines(s, today - datetime.timedelta(days=2), closed)
    RankingListEntry.objects.update(nominated_on=today - datetime.timedelta(days=10))  # the lists came in time
    team, p = _fjord_two(s), s.players
    ranking_list_set(team=team, user=s.d.organiser, players=[p[F4], p[F5], p[F6]])  # the organiser may, late
    rule_save(league=s.d.league, user=s.d.organiser, kind="ranking_list", severity="warning")
    answer = _check(s, (F4, F6))
    assert answer["blocked"] is False
    assert [v["message"] for v in answer["violations"]] == [
        f"Warning: Board 2: {F6} was nominated on {_english(today)}, after the last day of nominations "
        f"({_english(closed)})."
    ]


# ---------------------------------------------------------------- gender and licences


def test_an_empty_board_reserved_for_a_woman_keeps_the_rule_and_a_woman_on_it_too():
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="woman_board", severity="block", value=2)
    body = _card_body(s, (F4, F5))
    for row in body["lineup"]:
        if row["board"] == 2:  # Fjord leaves board 2 empty, Bosporus names Bosporus, Four (a woman) there
            row["home_player" if s.fjord_home else "away_player"] = None
            row["away_player" if s.fjord_home else "home_player"] = s.players["Bosporus, Four"].pk
        else:
            row["away_player" if s.fjord_home else "home_player"] = s.players["Bosporus, Five"].pk
    answer = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/check/", body, format="json").json()
    assert answer == {"blocked": False, "violations": []}


def test_a_licence_without_a_valid_until_date_breaks_the_rule_and_the_club_sets_it_through_the_api():
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="licence_date", severity="block")
    f6 = s.players[F6]
    url = f"/api/v1/players/{f6.pk}/licence/"
    cleared = _api(_secretary(s)).put(url, {"licence_until": None}, format="json")
    assert cleared.status_code == 200 and cleared.json() == {"licence_until": None}
    assert [v["message"] for v in _check(s, (F4, F6))["violations"]] == [
        f"Not allowed: Board 2: {F6} has no licence valid-until date on record."
    ]
    other_club = _api(s.d.secretaries[1]).put(url, {"licence_until": "2026-06-30"}, format="json")
    assert other_club.status_code == 403
    renewed = _api(_secretary(s)).put(url, {"licence_until": "2026-01-05"}, format="json")  # the match's day
    assert renewed.status_code == 200 and renewed.json() == {"licence_until": "2026-01-05"}
    assert _check(s, (F4, F6)) == {"blocked": False, "violations": []}
    by_organiser = _api(s.d.organiser).put(url, {"licence_until": "2026-01-04"}, format="json")
    assert by_organiser.status_code == 200
    assert [v["board"] for v in _check(s, (F4, F6))["violations"]] == [2]


def test_a_licence_renewed_after_the_card_was_saved_takes_the_violation_out_of_the_inbox():
    _value, fjord, board, _sentence = CASES["licence_date"]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind="licence_date", severity="warning")
    saved = _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/card/", _card_body(s, fjord), format="json")
    assert saved.status_code == 200
    assert list(RuleViolation.objects.filter(match=s.match).values_list("board", flat=True)) == [board]
    url = f"/api/v1/players/{s.players[F6].pk}/licence/"
    assert _api(s.d.organiser).put(url, {"licence_until": "2026-12-31"}, format="json").status_code == 200
    assert not RuleViolation.objects.filter(match=s.match).exists()


# ---------------------------------------------------------------- the penalty, once and audited


@pytest.mark.parametrize("kind", NEW_KINDS)
def test_the_penalty_of_a_new_rule_is_applied_once_through_the_result_service_and_audited(kind):
    value, fjord, board, _sentence = CASES[kind]
    s = season_of_two_divisions()
    rule_save(league=s.d.league, user=s.d.organiser, kind=kind, value=value, penalty="board_default")
    body = _card_body(s, fjord, ("1-0", "1-0"))
    assert _api(_secretary(s)).post(f"/api/v1/matches/{s.match.pk}/card/", body, format="json").status_code == 200
    violation = RuleViolation.objects.get(match=s.match)
    violation_penalise(violation_id=violation.pk, user=s.d.organiser)
    game = Game.objects.get(match=s.match, board=board or 2)  # the whole card's rule: the bottom board
    assert game.white is not None
    assert game.white.team is not None
    fjord_white = game.white.team.club_id == s.d.clubs[0].pk
    expected = "-/+" if fjord_white else "+/-"
    game.refresh_from_db()
    assert game.result == expected
    once = (game.version, TeamMatch.objects.get(pk=s.match.pk).version, ResultChange.objects.count())
    violation_penalise(violation_id=violation.pk, user=s.d.organiser)
    game.refresh_from_db()
    assert (game.version, TeamMatch.objects.get(pk=s.match.pk).version, ResultChange.objects.count()) == once
    (change,) = ResultChange.objects.filter(game=game, after=expected)
    assert change.before == "1-0" and change.reason_shown == "penalty under the league's rules"
    assert change.user == s.d.organiser
