"""Issue 32: a knock-out cup of individual games, run to its final through the API as the team cups are: six
players seeded by rating (byes to the two best), each tie a mini-match of two games (the player higher in the
bracket has White in game 1), a level tie decided by an Armageddon game recorded on the tie (a draw: Black goes
through), the next round made by the round's last result, a corrected game of round 1 that makes the semi-final
again with the new winner, and the bracket page, TRF export and iCal feed of the cup. Every expected value is
worked out by hand below."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from leagues.errors import ServiceError
from leagues.models import CupTie, CupTieChange, Event, Game
from leagues.services.cups import cup_draw
from leagues.services.trf import event_export_trf
from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory, organiser_of
from tests.helpers import present, text_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

# start number -> rating: the seeds by rating are 2 (2400), 4 (2200), 5 (2100), 1 (2000), 6 (1900), 3 (1800).
# 8 places (order 1-8, 4-5, 2-7, 3-6): tie 1 seed 1 (no. 2) has a bye, tie 2 seed 4 (no. 1) - seed 5 (no. 6),
# tie 3 seed 2 (no. 4) has a bye, tie 4 seed 3 (no. 5) - seed 6 (no. 3).
RATINGS = {1: 2000, 2: 2400, 3: 1800, 4: 2200, 5: 2100, 6: 1900}


def _cup():
    event = EventFactory(kind=Event.Kind.INDIVIDUAL, system=Event.System.KNOCKOUT, rounds_count=1, slug="open-cup")
    for number, rating in RATINGS.items():
        EntryFactory(event=event, start_number=number, player=PlayerFactory(rating=rating), rating=rating)
    return event


def _client(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def _ties(bracket, number):
    """A round's ties as (home, away) start numbers (None: a bye, or not known yet)."""
    rnd = next(r for r in bracket["rounds"] if r["number"] == number)
    return [(t["home"] and t["home"]["start_number"], t["away"] and t["away"]["start_number"]) for t in rnd["ties"]]


def _tie(bracket, number, position):
    rnd = next(r for r in bracket["rounds"] if r["number"] == number)
    return rnd["ties"][position - 1]


def _games(tie):
    """The tie's games as (white, black) start numbers in order."""
    games = Game.objects.filter(pk__in=tie["games"]).select_related("white", "black").order_by("board")
    return [(present(g.white).start_number, present(g.black).start_number) for g in games]


def _result(client, game_id, result, **extra):
    return client.post(f"/api/v1/games/{game_id}/result/", {"result": result, **extra}, format="json")


def test_an_individual_cup_of_two_game_ties_runs_to_its_final(client):
    event = _cup()
    user = organiser_of(event.league)
    api = _client(user)
    drawn = api.post(
        f"/api/v1/events/{event.slug}/cup/draw/",
        {"seeding": "rating", "games_per_tie": 2, "starts_on": "2027-01-09"},
        "json",
    )
    assert drawn.status_code == 201, drawn.content
    bracket = drawn.json()
    assert (bracket["games_per_tie"], bracket["tie_resolution"]) == (2, ["decider"])
    assert [r["name"] for r in bracket["rounds"]] == ["Quarter-finals", "Semi-finals", "Final"]
    assert _ties(bracket, 1) == [(2, None), (1, 6), (4, None), (5, 3)]
    assert _ties(bracket, 2) == [(None, None)] * 2  # not known yet
    assert [_tie(bracket, 1, p)["decided_by"] for p in (1, 3)] == ["bye", "bye"]
    second, fourth = _tie(bracket, 1, 2), _tie(bracket, 1, 4)
    assert second["match"] is None
    assert _games(second) == [(1, 6), (6, 1)] and _games(fourth) == [(5, 3), (3, 5)]

    # tie 2: no. 1 wins game 1 and draws game 2 (1½-½); tie 4: each wins with White (1-1), level
    g1, g2 = second["games"]
    g3, g4 = fourth["games"]
    for game, result in ((g1, "1-0"), (g2, "1/2-1/2"), (g3, "1-0"), (g4, "1-0")):
        assert _result(api, game, result).status_code == 200
    bracket = api.get(f"/api/v1/events/{event.slug}/bracket/").json()
    assert (_tie(bracket, 1, 2)["decided_by"], _tie(bracket, 1, 2)["home"]["points"]) == ("score", "1.5")
    assert _tie(bracket, 1, 4)["decided_by"] == ""  # waits for its decider game
    assert _ties(bracket, 2) == [(None, None)] * 2  # the round waits for it

    # refused, nothing recorded: a drawn play-off game that is no Armageddon, a stranger, a tie with a bye
    level = _tie(bracket, 1, 4)["id"]
    refused = api.post(f"/api/v1/cup-ties/{level}/decider/", {"white": "away", "result": "1/2-1/2"}, "json")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_result"
    stranger = _client(UserFactory()).post(f"/api/v1/cup-ties/{level}/decider/", {"white": "away", "result": "1-0"})
    assert stranger.status_code == 403
    bye = _tie(bracket, 1, 1)["id"]
    assert api.post(f"/api/v1/cup-ties/{bye}/decider/", {"white": "home", "result": "1-0"}).status_code == 400
    assert not CupTie.objects.exclude(decider_result="").exists()

    # Armageddon: no. 3 (away) has White, a draw: Black (no. 5) goes through, and the semi-finals are made:
    # the winner of tie 1 (no. 2) at home to the winner of tie 2 (no. 1), tie 3's (no. 4) to tie 4's (no. 5)
    armageddon = api.post(
        f"/api/v1/cup-ties/{level}/decider/", {"white": "away", "result": "1/2-1/2", "armageddon": True}, "json"
    )
    assert armageddon.status_code == 200, armageddon.content
    bracket = armageddon.json()
    assert _tie(bracket, 1, 4)["decided_by"] == "decider"
    assert _tie(bracket, 1, 4)["decider"]["white"] == 3 and _tie(bracket, 1, 4)["away"]["goes_through"] is False
    assert _ties(bracket, 2) == [(2, 1), (4, 5)]
    assert _games(_tie(bracket, 2, 1)) == [(2, 1), (1, 2)]

    # game 1 of tie 2 corrected to a win of no. 6 (½-1½): no. 6 goes through, and the semi-final without a
    # result yet is made again with no. 6 in no. 1's place
    corrected = _result(api, g1, "0-1", reason="the arbiter's scoresheet")
    assert corrected.status_code == 200, corrected.content
    bracket = api.get(f"/api/v1/events/{event.slug}/bracket/").json()
    assert _ties(bracket, 2) == [(2, 6), (4, 5)]
    assert _games(_tie(bracket, 2, 1)) == [(2, 6), (6, 2)]
    change = CupTieChange.objects.get()
    assert (change.before.start_number, change.after.start_number) == (1, 6)

    # the semi-finals: no. 2 and no. 4 win both games; the final: no. 2 wins game 1, game 2 drawn
    for position in (1, 2):
        white_first, black_first = _tie(bracket, 2, position)["games"]
        assert _result(api, white_first, "1-0").status_code == 200  # the higher seed has White in game 1
        assert _result(api, black_first, "0-1").status_code == 200
    bracket = api.get(f"/api/v1/events/{event.slug}/bracket/").json()
    assert _ties(bracket, 3) == [(2, 4)]
    first, last = _tie(bracket, 3, 1)["games"]
    assert _result(api, first, "1-0").status_code == 200
    assert _result(api, last, "1/2-1/2").status_code == 200
    bracket = api.get(f"/api/v1/events/{event.slug}/bracket/").json()
    assert bracket["champion"] == 2

    # a result of a round whose next round is played: refused unless the bracket is kept
    late = _result(api, g2, "0-1", reason="scoresheet")
    assert late.status_code in (400, 409) and late.json()["code"] == "later_round_paired"

    page = text_of(client.get(f"/en/events/{event.slug}/bracket/").content.decode())
    assert "Each tie is a mini-match of 2 games. A level tie is decided by, in this order:" in page
    assert "The 2 games of the round" in page and "Cup winner:" in page
    trf = event_export_trf(event=event)
    assert "192 CUSTOM_KNOCKOUT" in trf
    assert "### cup round 1 tie 4: 5 " in trf and "decider game (Armageddon): 3 " in trf
    ics = client.get(reverse("leagues:event-ics", args=[event.slug]))
    assert ics.status_code == 200 and ics.content.decode().count("BEGIN:VEVENT") == 3  # the three rounds' dates


def test_an_individual_cup_refuses_board_count_and_a_team_cup_refuses_games_per_tie():
    event = _cup()
    user = organiser_of(event.league)
    with pytest.raises(ServiceError) as refused:
        cup_draw(event=event, user=user, tie_resolution=["board_count"])
    assert refused.value.code == "bad_tie_resolution"
    cup_draw(event=event, user=user, tie_resolution=["rating"], games_per_tie=1)
    assert list(event.cup.tie_resolution) == ["rating", "decider"]


def test_the_organiser_draws_an_individual_cup_on_its_page_and_records_a_decider_there(client):
    """Six players, one game a tie: tie 2 (no. 1 - no. 6) drawn, its play-off game recorded on the cup's page (no. 6
    with White wins it): no. 6 goes through; the page links each tie to the round's results sheet."""
    event = _cup()
    user = organiser_of(event.league)
    client.force_login(user)
    page = f"/en/manage/events/{event.slug}/cup/"
    form = {"action": "draw", "draw-seeding": "rating", "draw-first": "decider", "draw-days_between": "7",
            "draw-games_per_tie": "1"}  # fmt: skip
    assert client.post(page, form).status_code == 302
    assert event.cup.games_per_tie == 1
    shown = text_of(client.get(page).content.decode())
    assert "byes in round 1 for the top-seeded players (12 players: the first four)" in shown
    assert shown.count("Enter the results") == 2  # the two ties with a game; the byes have none
    game = Game.objects.get(round__number=1, white__start_number=1)
    _result(_client(user), game.pk, "1/2-1/2")
    tie = CupTie.objects.get(round_number=1, position=2)
    answer = client.post(
        page, {"action": f"decider-{tie.pk}", f"decider-{tie.pk}-white": "away", f"decider-{tie.pk}-result": "1-0"}
    )
    assert answer.status_code == 302
    tie.refresh_from_db()
    assert tie.winner is not None
    assert (tie.winner.start_number, tie.decided_by) == (6, "decider")
