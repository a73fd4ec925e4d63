"""Issue 38: a player's page gives, after each round, the place the player had in the standings then, with the
event's tie-breaks (not the best place among those on equal points), in its table and its place chart."""

import re

import pytest

from leagues.models import Event, Game, Result, Round, StandingsSnapshot
from leagues.recompute import store_snapshot
from leagues.services.results import result_record
from tests.factories import GameFactory, RoundFactory, organiser_of, swiss_event
from tests.helpers import engine_snapshot

pytestmark = pytest.mark.django_db

# Four players, three rounds, one tie-break: the number of wins (WIN). Start numbers 1-4.
#   round 1: 1-3 1-0, 2-4 ½-½   -> 1: 1, 2: ½, 4: ½, 3: 0     2 and 4 tied (no win each): both place 2
#   round 2: 1-2 0-1, 3-4 ½-½   -> 2: 1½, 1: 1, 4: 1, 3: ½    1 and 4 on 1 point: 1 has a win, 4 none: 4 is 3rd
#   round 3: 1-4 ½-½, 2-3 1-0   -> 2: 2½, 1: 1½, 4: 1½, 3: ½  1 and 4 on 1½: 1 has a win, 4 none: 4 is 3rd
# Player 4's places: 2, 3, 3. By points alone round 2 gave 2 (the best place among the two on 1 point).
PLAYER_4_PLACES = ["2–3", "3", "3"]  # after round 1 the place shared with player 2, as the standings write it


@pytest.fixture
def event():
    event, entries, (board1, board2) = swiss_event(players=4, rounds=3, tiebreak_criteria=["WIN"])
    board1.result, board2.result = Result.WHITE_WINS, Result.DRAW  # 1-3 1-0, 2-4 ½-½
    Game.objects.bulk_update([board1, board2], ["result"])
    one, two, three, four = entries
    for number, pairs in (
        (2, [(one, two, Result.BLACK_WINS), (three, four, Result.DRAW)]),
        (3, [(one, four, Result.DRAW), (two, three, Result.WHITE_WINS)]),
    ):
        rnd = RoundFactory(event=event, number=number)
        for board, (white, black, result) in enumerate(pairs, start=1):
            GameFactory(round=rnd, board=board, white=white, black=black, result=result)
    Event.objects.filter(pk=event.pk).update(results_version=5)
    assert Round.objects.filter(event=event).count() == 3
    store_snapshot(event.pk, 5, engine_snapshot(event), 0)  # as the recompute stores it
    return event


def _round_places(page: str) -> list[str]:
    body = page[page.index("<tbody>", page.index('<abbr title="Place')) :].split("</tbody>")[0]
    cell = r'<td class="num opt"><bdi dir="ltr">([^<]*)</bdi></td>'
    return [re.findall(cell, row)[1] for row in body.split("</tr>") if re.findall(cell, row)]


def test_each_round_gives_the_place_with_the_tie_breaks_of_then(client, event):
    page = client.get(f"/en/events/{event.slug}/players/4/").content.decode()
    assert _round_places(page) == PLAYER_4_PLACES
    assert "Place in the standings after the round, tie-breaks included" in page


def test_the_place_chart_plots_the_places_with_tie_breaks(client, event):
    page = client.get(f"/en/events/{event.slug}/players/4/").content.decode()
    chart = page[page.index("<title", page.index("Place after each round") - 200) :].split("</svg>")[0]
    assert re.findall(r"<title>Place after each round: (\d) → (\d+)</title>", chart) == [
        ("1", "2"),
        ("2", "3"),
        ("3", "3"),
    ]
    assert "Place by points" not in page


@pytest.mark.usefixtures("on_commit_runs")
def test_the_recompute_shows_the_places_with_the_explanations_after_the_standings(client, event, monkeypatch):
    """The standings of a new result are stored without waiting for the standings after each round (one per round
    played); the recompute's second phase stores them with the explanation traces, and the player's page shows them
    from then on: until then it says its places are by points."""
    from leagues import recompute

    later, second_phase = [], recompute.store_explanations
    monkeypatch.setattr(recompute, "store_explanations", lambda *args: later.append(args))
    Event.objects.filter(pk=event.pk).update(results_version=6)  # as a result saved would
    assert recompute.standings_recompute_event(event.pk)
    page = client.get(f"/en/events/{event.slug}/players/4/").content.decode()
    assert "Place by points after each round" in page  # the standings first, the places by points meanwhile
    assert _round_places(page) == ["2", "2", "3"]  # by points after round 2: the best of those on 1 point

    second_phase(*later[0])
    page = client.get(f"/en/events/{event.slug}/players/4/").content.decode()
    assert _round_places(page) == PLAYER_4_PLACES
    assert "Place by points" not in page
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.rows == engine_snapshot(Event.objects.get(pk=event.pk))["rows"]


@pytest.mark.usefixtures("on_commit_runs")
def test_a_correction_of_an_earlier_round_moves_the_places_after_it(client, event):
    """The recompute keeps the places of the rounds whose results did not change since it last computed them, and
    computes again those from a corrected round on."""
    from leagues.recompute import standings_recompute_event

    Event.objects.filter(pk=event.pk).update(results_version=6)
    assert standings_recompute_event(event.pk)
    game = Game.objects.get(round__event=event, round__number=2, board=2)
    result_record(  # 3-4 0-1, not ½-½
        game_id=game.pk,
        result=Result.BLACK_WINS,
        user=organiser_of(event.league),
        reason="Scoresheets checked",
        later_pairing="keep",
    )
    # after round 2: 2 and 4 on 1½ with a win each share the first place; after round 3: 2 (2½), 4 (2, 1 win),
    # 1 (1½): 4 is 2nd
    page = client.get(f"/en/events/{event.slug}/players/4/").content.decode()
    assert _round_places(page) == ["2–3", "1–2", "2"]
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.version == 7
    assert snapshot.rows == engine_snapshot(Event.objects.get(pk=event.pk))["rows"]
