"""A knock-out cup's TRF export (issue #32). TRF-26 names a team knock-out in record 192 (CUSTOM_TEAM_KNOCKOUT,
spec trf-format.md §8.3), so a cup is exported, not refused: its board games in the 001 records, its teams in 310
records with their points, and what TRF cannot hold (the bracket: byes, who went through and why, the decider game,
which is no board of a card) in ### lines. FIDE's reader (gacrux) reads it without error or warning, as a
knock-out, and its games equal the cards.

Six teams in the organiser's order, 4 boards; team n's board b plays at rating RATINGS[n] - b (test_cups). The
bracket has 8 places: seeds 1 and 2 have byes; round 1 is 4-5 and 3-6 (the higher seed at home). Cards, board by
board, the home team's points: 4-5 1, 1, ½, 0 (2½-1½, team 4); 3-6 1, 0, 0, 1 (2-2, board count 4+1 = 3+2, level:
an Armageddon game, team 6's player White, drawn, so Black's team 3 goes through). Round 2: 1-4 and 2-3; 1-4 is
played 1, 1, 1, 0 (3-1, team 1)."""

from fractions import Fraction

import pytest
from gacrux.trf2json import trf2json

from leagues.models import CupTie, Event
from leagues.services.cups import cup_draw
from tests.factories import organiser_of
from tests.helpers import present
from tests.integration.test_cup_corrections import DRAW, HOME_LOSES, HOME_WINS, _card, _client
from tests.integration.test_cups import RATINGS, _cup

pytestmark = pytest.mark.django_db

HALF = Fraction(1, 2)
#: (round, home, away) -> the home team's points board by board
CARDS: dict[tuple[int, int, int], list[int | Fraction]] = {
    (1, 4, 5): [1, 1, HALF, 0],
    (1, 3, 6): [1, 0, 0, 1],
    (2, 1, 4): [1, 1, 1, 0],
}
OUTCOME = {1: HOME_WINS, HALF: DRAW, 0: HOME_LOSES}


def _tie(event, number, home):
    return CupTie.objects.get(cup__event=event, round_number=number, home__start_number=home)


def test_a_cups_trf_export_is_read_by_fides_reader_with_the_cards_games(client):
    event = _cup(teams=6)
    organiser = organiser_of(event.league)
    cup_draw(event=event, user=organiser, seeding="order")
    api = _client(organiser)
    for number, home, _away in [(1, 4, 5), (1, 3, 6)]:
        outcomes = [OUTCOME[p] for p in CARDS[(number, home, _away)]]
        assert _card(api, _tie(event, number, home).match_id, outcomes).status_code == 200
    level = _tie(event, 1, 3)
    decider = {"white": "away", "result": "1/2-1/2", "armageddon": True}
    assert api.post(f"/api/v1/matches/{level.match_id}/decider/", decider, "json").status_code == 200
    final_four = [
        (present(t.home).start_number, present(t.away).start_number)
        for t in CupTie.objects.filter(cup__event=event, round_number=2)
    ]
    assert sorted(final_four) == [(1, 4), (2, 3)]
    assert _card(api, _tie(event, 2, 1).match_id, [OUTCOME[p] for p in CARDS[(2, 1, 4)]]).status_code == 200
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)

    client.force_login(organiser)
    text = client.get(f"/en/manage/events/{event.slug}/export.trf").content.decode()
    lines = text.splitlines()
    assert "192 CUSTOM_TEAM_KNOCKOUT" in lines and "142 3" in lines  # 8 places: 3 rounds
    assert "### cup round 1 tie 1: 1 Team 01 has a bye and goes through" in lines
    assert "### cup round 1 tie 4: 3 Team 03 - 6 Team 06; 3 Team 03 goes through (decider)" in lines
    assert "### cup round 1 tie 4: decider game (Armageddon): 6 Team 06 had White, 1/2-1/2" in lines

    reader = trf2json()
    reader.parse_file(text, 0)
    status = reader.chessjson["status"]
    assert status["code"] < 400 and not status.get("error") and not status.get("info"), status
    tournament = reader.chessjson["event"]["tournaments"][0]
    assert tournament["format"] == "knokout" and tournament["teamTournament"]  # gacrux's spelling
    rating = {p["cid"]: p["rating"]["rating"] for team in tournament["competitors"] for p in team["cplayers"]}
    points = {"W": 1, "D": HALF, "L": 0}
    read = {
        (g["round"], rating[g["white"]["cid"]], points[g["white"]["result"]])
        for g in tournament["gameList"]
        if g["played"]
    } | {
        (g["round"], rating[g["black"]["cid"]], points[g["black"]["result"]])
        for g in tournament["gameList"]
        if g["played"]
    }
    expected = set()
    for (number, home, away), scores in CARDS.items():
        for board, score in enumerate(scores, start=1):
            expected |= {(number, RATINGS[home] - board, score), (number, RATINGS[away] - board, 1 - score)}
    assert read == expected  # 12 games: every board of the three cards, each player's points as on the card
