"""A knock-out cup of 12 teams run to its final through the API (draw, match cards, advance, decider): four byes in
round 1 to the best seeds by rating, a 2-2 match decided by board count, a 2-2 match still level on board count
decided by an Armageddon game recorded on its card (a draw: Black's team goes through), and the next round's
matches made when a round's ties are all decided. Every expected value is worked out by hand below."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.errors import ServiceError
from leagues.models import Cup, CupTie, Event, Game, Role, TeamMatch
from leagues.services.cups import bracket_order, cup_draw, tie_outcome
from leagues.services.events import event_save
from leagues.services.match_cards import match_card_confirm, match_card_submit, match_cards_auto_confirm
from leagues.services.round_pairings import round_pair
from leagues.services.schedule import fixtures_generate
from leagues.services.team_swiss import is_team_swiss
from tests.factories import (
    EntryFactory,
    EventFactory,
    RoleFactory,
    TeamFactory,
    TeamMemberFactory,
    UserFactory,
    organiser_of,
)
from tests.helpers import present

pytestmark = pytest.mark.django_db

# start number -> the team's rating: the seeds by rating are 4, 11, 6, 2, 8, 3, 9, 1, 10, 5, 12, 7
RATINGS = {
    1: 1900,
    2: 2100,
    3: 2000,
    4: 2300,
    5: 1800,
    6: 2200,
    7: 1700,
    8: 2050,
    9: 1950,
    10: 1850,
    11: 2250,
    12: 1750,
}
WIN, DRAW, LOSS = 1, "½", 0


def _cup(teams=12, boards=4, **kwargs):
    event = EventFactory(
        kind=Event.Kind.TEAM, system=Event.System.KNOCKOUT, rounds_count=1, boards=boards, **kwargs
    )  # fmt: skip
    for number in range(1, teams + 1):
        team = TeamFactory(event=event, name=f"Team {number:02d}")
        for board in range(1, boards + 1):
            TeamMemberFactory(team=team, board_order=board, player__rating=RATINGS.get(number, 2000) - board)
        EntryFactory(event=event, start_number=number, player=None, team=team, rating=RATINGS.get(number))
    return event


def _client(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def _home_code(home_white: bool, home: object) -> str:
    """The board's result code for the home team's score on it (1, ½ or 0)."""
    if home == DRAW:
        return "1/2-1/2"
    home_wins = home == WIN
    return "1-0" if home_wins == home_white else "0-1"


def _play(client, match_id, home_scores):
    """The organiser enters the card, board by board the home team's score: the card is confirmed at once."""
    card = client.get(f"/api/v1/matches/{match_id}/").json()
    home = card["home"]
    boards = [
        {
            "game": g["id"],
            "version": g["version"],
            "result": _home_code(g["white"] == home, home_scores[g["board"] - 1]),
        }
        for g in card["games"]
    ]
    answer = client.post(f"/api/v1/matches/{match_id}/card/", {"version": card["version"], "boards": boards}, "json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == TeamMatch.Status.CONFIRMED


def _ties(bracket, number):
    return [
        (t["home"]["start_number"], t["away"]["start_number"] if t["away"] else None)
        for t in bracket["rounds"][number - 1]["ties"]
    ]


def _match(bracket, number, home):
    return next(t["match"] for t in bracket["rounds"][number - 1]["ties"] if t["home"]["start_number"] == home)


def test_bracket_order_meets_the_best_seeds_last():
    assert bracket_order(2) == [1, 2]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_a_cup_of_twelve_teams_runs_to_its_final(client):
    event = _cup()
    organiser = _client(organiser_of(event.league))
    public = APIClient()
    draw = organiser.post(
        f"/api/v1/events/{event.slug}/cup/draw/",
        {"seeding": "rating", "tie_resolution": ["board_count", "decider"], "starts_on": "2027-01-09"},
        "json",
    )
    assert draw.status_code == 201, draw.json()
    bracket = draw.json()
    # 12 teams: a bracket of 16, four rounds; seeds 1-4 (teams 4, 2, 11, 6 by rating) have a bye in round 1
    assert [r["name"] for r in bracket["rounds"]] == ["Round 1", "Quarter-finals", "Semi-finals", "Final"]
    assert [r["date"] for r in bracket["rounds"]] == ["2027-01-09", "2027-01-16", "2027-01-23", "2027-01-30"]
    assert _ties(bracket, 1) == [(4, None), (1, 10), (2, None), (8, 7), (11, None), (9, 5), (6, None), (3, 12)]
    byes = [t for t in bracket["rounds"][0]["ties"] if t["away"] is None]
    assert [(t["home"]["seed"], t["decided_by"], t["home"]["goes_through"]) for t in byes] == [
        (1, "bye", True), (4, "bye", True), (2, "bye", True), (3, "bye", True),
    ]  # fmt: skip
    assert TeamMatch.objects.filter(round__event=event).count() == 4
    assert Game.objects.filter(round__event=event).count() == 16  # four boards each
    # the quarter-finals wait for round 1: advancing now decides nothing and makes nothing
    waiting = organiser.post(f"/api/v1/events/{event.slug}/cup/advance/").json()
    assert sorted(w["position"] for w in waiting["waiting"]) == [2, 4, 6, 8]
    assert _ties(waiting, 2) == [(None, None)] * 4

    # round 1: 1 beats 10 3-1; 8 and 7 draw 2-2, board count 4+1.5+1+0 = 6.5 against 0+1.5+1+1 = 3.5 for 8;
    # 5 wins at 9 3-1; 3 beats 12 2½-1½
    _play(organiser, _match(bracket, 1, 1), [WIN, WIN, DRAW, DRAW])
    _play(organiser, _match(bracket, 1, 8), [WIN, DRAW, DRAW, LOSS])
    _play(organiser, _match(bracket, 1, 9), [LOSS, DRAW, DRAW, LOSS])
    _play(organiser, _match(bracket, 1, 3), [WIN, DRAW, LOSS, WIN])
    # the round's last confirmed card made the quarter-finals, with no advance asked for
    bracket = public.get(f"/api/v1/events/{event.slug}/bracket/").json()
    board_count = next(t for t in bracket["rounds"][0]["ties"] if t["home"]["start_number"] == 8)
    assert (board_count["decided_by"], board_count["home"]["points"], board_count["away"]["points"]) == (
        "board_count", "2", "2",
    )  # fmt: skip
    assert board_count["home"]["goes_through"] and not board_count["away"]["goes_through"]
    # quarter-finals: the winner of tie 2p-1 at home against the winner of tie 2p
    assert _ties(bracket, 2) == [(4, 1), (2, 8), (11, 5), (6, 3)]

    # quarter-finals: 2 and 8 draw 2-2 and board count is level too (4+1 against 3+2): Armageddon decides
    _play(organiser, _match(bracket, 2, 4), [WIN, WIN, WIN, LOSS])
    _play(organiser, _match(bracket, 2, 2), [WIN, LOSS, LOSS, WIN])
    _play(organiser, _match(bracket, 2, 11), [WIN, WIN, DRAW, LOSS])
    _play(organiser, _match(bracket, 2, 6), [LOSS, DRAW, WIN, LOSS])
    bracket = organiser.post(f"/api/v1/events/{event.slug}/cup/advance/").json()
    assert bracket["waiting"] == [{"position": 2, "for": "decider"}]
    assert _ties(bracket, 3) == [(None, None)] * 2  # the semi-finals wait for the decider
    level = _match(bracket, 2, 2)
    # refused, nothing recorded: a drawn play-off game that is no Armageddon, a decider of a match already decided,
    # and anyone but the organiser or the arbiter
    drawn = organiser.post(f"/api/v1/matches/{level}/decider/", {"white": "home", "result": "1/2-1/2"}, "json")
    assert (drawn.status_code, drawn.json()["code"]) == (400, "bad_result")
    decided = organiser.post(
        f"/api/v1/matches/{_match(bracket, 2, 4)}/decider/", {"white": "home", "result": "1-0"}, "json"
    )
    assert (decided.status_code, decided.json()["code"]) == (400, "not_level")
    stranger = _client(UserFactory()).post(f"/api/v1/matches/{level}/decider/", {"white": "home", "result": "1-0"})
    assert stranger.status_code == 403
    assert not CupTie.objects.exclude(decider_result="").exists()
    # the Armageddon game: 2's player has White and draws, so Black's team, 8, goes through
    bracket = organiser.post(
        f"/api/v1/matches/{level}/decider/", {"white": "home", "result": "1/2-1/2", "armageddon": True}, "json"
    ).json()
    armageddon = bracket["rounds"][1]["ties"][1]
    assert armageddon["decided_by"] == "decider"
    assert armageddon["decider"] == {
        "white": 2, "result": "1/2-1/2", "armageddon": True, "white_player": None, "black_player": None,
    }  # fmt: skip
    assert armageddon["away"]["goes_through"] and not armageddon["home"]["goes_through"]
    assert _ties(bracket, 3) == [(4, 8), (11, 3)]  # recording the decider made the semi-finals

    # semi-finals: 8 wins at 4 1-3, 11 beats 3 4-0; the final: 11 wins at 8 1½-2½
    _play(organiser, _match(bracket, 3, 4), [LOSS, WIN, LOSS, LOSS])
    _play(organiser, _match(bracket, 3, 11), [WIN, WIN, WIN, WIN])
    bracket = public.get(f"/api/v1/events/{event.slug}/bracket/").json()
    assert _ties(bracket, 4) == [(8, 11)]
    assert bracket["champion"] is None
    _play(organiser, _match(bracket, 4, 8), [DRAW, LOSS, WIN, LOSS])
    # advancing again changes nothing: the final is decided
    assert organiser.post(f"/api/v1/events/{event.slug}/cup/advance/").json()["waiting"] == []

    seen = public.get(f"/api/v1/events/{event.slug}/bracket/").json()
    assert seen["champion"] == 11
    assert [t["home"]["seed"] for t in seen["rounds"][3]["ties"]] == [5]  # team 8 was seeded fifth
    # the rounds' dates in the event's calendar feed
    feed = client.get(f"/en/events/{event.slug}/rounds.ics").content.decode()
    assert [line for line in feed.splitlines() if line.startswith("DTSTART")] == [
        "DTSTART;VALUE=DATE:20270109", "DTSTART;VALUE=DATE:20270116",
        "DTSTART;VALUE=DATE:20270123", "DTSTART;VALUE=DATE:20270130",
    ]  # fmt: skip


def test_the_draw_is_the_organisers_and_a_played_cup_is_not_drawn_again():
    event = _cup(teams=4)
    stranger = _client(UserFactory())
    assert stranger.post(f"/api/v1/events/{event.slug}/cup/draw/", {}, "json").status_code == 403
    organiser = _client(organiser_of(event.league))
    bad = organiser.post(f"/api/v1/events/{event.slug}/cup/draw/", {"seeding": "order", "order": [1, 2, 3]}, "json")
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_order")
    assert not Cup.objects.filter(event=event).exists()
    bracket = organiser.post(
        f"/api/v1/events/{event.slug}/cup/draw/", {"seeding": "order", "order": [3, 1, 4, 2]}, "json"
    ).json()
    assert _ties(bracket, 1) == [(3, 2), (1, 4)]  # seeds 1-4, 2-3
    _play(organiser, _match(bracket, 1, 3), [WIN, WIN, WIN, WIN])
    again = organiser.post(f"/api/v1/events/{event.slug}/cup/draw/", {}, "json")
    assert (again.status_code, again.json()["code"]) == (400, "cup_played")
    assert _ties(APIClient().get(f"/api/v1/events/{event.slug}/bracket/").json(), 1) == [(3, 2), (1, 4)]


def test_bottom_board_elimination_and_rating_decide_in_the_cups_order():
    event = _cup(teams=2, boards=4)
    user = organiser_of(event.league)
    cup = cup_draw(event=event, user=user, seeding="order", tie_resolution=["bottom_board", "rating"])
    tie = cup.ties.get()
    games = {g.board: g for g in present(tie.match).games.all()}

    def card(home_scores):
        for board, score in enumerate(home_scores, start=1):
            game = games[board]
            game.result = _home_code(game.white_id == tie.home_id, score)
            game.save()
        TeamMatch.objects.filter(pk=present(tie.match_id)).update(status=TeamMatch.Status.CONFIRMED)
        assert tie.match is not None
        tie.match.refresh_from_db()
        return tie_outcome(event, cup, tie)

    # 2-2; without board 4 (home lost it) home leads 2-1: team 1 goes through
    outcome = card([WIN, LOSS, WIN, LOSS])
    assert (outcome.winner_id, outcome.decided_by) == (tie.home_id, "bottom_board")
    # every board drawn: bottom boards separate nobody, the side of the lower average rating on the card goes
    # through: team 1 (1899, 1898, 1897, 1896: 1897.5) against team 2 (2099 ... 2096: 2097.5)
    outcome = card([DRAW, DRAW, DRAW, DRAW])
    assert (outcome.winner_id, outcome.decided_by) == (tie.home_id, "rating")


def test_a_cup_takes_neither_the_swiss_pairing_nor_the_round_robin_schedule(client):
    event = _cup(teams=4)
    user = organiser_of(event.league)
    cup_draw(event=event, user=user)
    with pytest.raises(ServiceError) as refused:
        round_pair(event=event, round_number=1, user=user)
    assert refused.value.code == "knockout"
    with pytest.raises(ServiceError) as refused:
        fixtures_generate(event=event, user=user)
    assert refused.value.code == "knockout"
    assert not event.is_round_robin and not is_team_swiss(event)
    assert _client(user).get(f"/api/v1/events/{event.slug}/rounds/1/pairing/").status_code == 404
    assert client.get(f"/en/events/{event.slug}/pairings/").status_code == 404
    assert TeamMatch.objects.filter(round__event=event).count() == 2  # the draw's, untouched
    event_save(
        league=event.league, user=user,
        fields={"name": "Cup of players", "slug": "cup-of-players", "kind": "individual", "system": "ko",
                "rounds_count": 3},
    )  # fmt: skip
    assert Event.objects.get(slug="cup-of-players").is_knockout  # a cup of individual games (issue 32)


def test_the_clubs_cards_advance_the_cup_without_the_organiser():
    """Semi-finals of four teams: one card submitted by the home club and confirmed by the other club, one confirmed
    by itself after the league's days; the final is made by the second, with no click of the organiser."""
    event = _cup(teams=4)
    event.league.clubs.add(*[entry.team.club for entry in event.entries.all()])
    cup_draw(event=event, user=organiser_of(event.league), seeding="order")
    first, second = CupTie.objects.filter(cup__event=event).order_by("position")
    home, away = (
        RoleFactory(kind=Role.Kind.SECRETARY, league=None, club=present(t.team).club).user
        for t in (present(first.home), present(first.away))
    )

    def submit(tie, user):
        results = {
            g.pk: ("1-0" if g.white_id == tie.home_id else "0-1", g.version) for g in tie.match.games.all()
        }  # the home team wins every board
        match_card_submit(match_id=tie.match_id, results=results, user=user, expected_version=tie.match.version)

    submit(first, home)
    assert TeamMatch.objects.get(pk=present(first.match_id)).status == TeamMatch.Status.SUBMITTED
    first.refresh_from_db()
    assert first.winner_id is None  # a submitted card decides nothing
    match_card_confirm(match_id=present(first.match_id), user=away, expected_version=1)
    first.refresh_from_db()
    assert (first.winner_id, first.decided_by) == (first.home_id, "score")
    assert second.home.team is not None
    second_home = RoleFactory(kind=Role.Kind.SECRETARY, league=None, club=second.home.team.club).user
    submit(second, second_home)
    assert not CupTie.objects.filter(cup__event=event, round_number=2).exists()
    later = timezone.now() + timedelta(days=event.league.auto_confirm_days + 1)
    assert match_cards_auto_confirm(now=later) == 1
    final = CupTie.objects.get(cup__event=event, round_number=2)
    assert (final.home_id, final.away_id) == (first.home_id, second.home_id)
    assert final.match is not None
    assert final.match.games.count() == 4
