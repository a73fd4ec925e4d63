"""A published round not yet played is in the event's TRF export as its pairings (opponent and
colour, no result), so another program reads the current boards; importing the file gives them back."""

import pytest
from gacrux.trf2json import trf2json

from leagues.models import Entry, Game, Result
from leagues.services.round_pairings import bye_request, pairing_publish
from leagues.services.trf import event_export_trf, event_import_trf
from pairings import PairingError
from pairings.checker import check_event
from pairings.trf import read_event
from tests.factories import LeagueFactory, organiser_of
from tests.helpers import present
from tests.integration.test_round_pairings import _event, _pair, _play_all
from tiebreaks.trf import read_trf, write_trf

pytestmark = pytest.mark.django_db


def _boards(event, number):
    games = Game.objects.filter(round__event=event, round__number=number, black__isnull=False)
    return {(present(g.white).start_number, present(g.black).start_number) for g in games}


def _published_round_two(django_capture_on_commit_callbacks):
    """Eight players: round 1 played, round 2 published (with its PAB and a requested half-point bye)."""
    event, user = _event(players=8, rounds=5)
    pairing_publish(pairing=_pair(event, user, 1, django_capture_on_commit_callbacks), user=user)
    _play_all(event, 1, user)
    bye_request(
        event=event, round_number=2, entry=Entry.objects.get(event=event, start_number=3), kind="half", user=user
    )
    pairing_publish(pairing=_pair(event, user, 2, django_capture_on_commit_callbacks), user=user)
    return event, user


def test_gacrux_reads_the_published_round_as_its_boards_without_results(django_capture_on_commit_callbacks):
    event, _user = _published_round_two(django_capture_on_commit_callbacks)
    boards = _boards(event, 2)
    assert len(boards) == 3
    text = event_export_trf(event=event)
    for white, black in boards:
        white_line = next(line for line in text.splitlines() if line.startswith(f"001 {white:4d}"))
        assert white_line[99:109] == f"  {black:4d} w  "  # round 2: opponent, colour, blank result
    reader = trf2json()
    reader.parse_file(text, 0)
    data = reader.chessjson
    assert data["status"]["code"] < 400, data["status"]  # the points columns agree: a pending game scores nothing
    games = data["event"]["tournaments"][0]["gameList"]
    round_two = {(g["white"]["cid"], g["black"]["cid"]) for g in games if g["round"] == 2 and g["black"] is not None}
    assert round_two == boards
    assert not any(g["played"] for g in games if g["round"] == 2 and g["black"] is not None)
    pab = present(Game.objects.get(round__event=event, round__number=2, result=Result.PAIRING_BYE).white).start_number
    assert any(g["round"] == 2 and g["black"] is None and g["white"]["cid"] == pab for g in games)


def test_the_export_read_again_gives_the_same_pairings(django_capture_on_commit_callbacks):
    event, _user = _published_round_two(django_capture_on_commit_callbacks)
    text = event_export_trf(event=event)
    tournament = read_trf(text)
    assert write_trf(tournament, "2016").count(" w  \r\n") == text.count(" w  \r\n")  # TRF-16 keeps the blocks
    # FIDE's free pairings checker replays round 2 from the file: the site's pairing is the engine's
    checks = check_event(read_event(text))
    assert [c.round for c in checks] == [1, 2] and all(c.same for c in checks)
    with pytest.raises(PairingError, match="no result"):
        read_event(text).state(3)  # round 3 waits for round 2's results
    league = LeagueFactory()
    again = event_import_trf(
        league=league, name="Again", slug="again", data=text.encode(), user=organiser_of(league), rule_set="fide-2026"
    )
    assert _boards(again, 2) == _boards(event, 2)
    imported = Game.objects.filter(round__event=again, round__number=2)
    assert {g.result for g in imported if g.black_id} == {Result.PENDING}
    byes = {(present(g.white).start_number, g.result) for g in imported if not g.black_id}
    assert byes == {
        (present(g.white).start_number, g.result)
        for g in Game.objects.filter(round__event=event, round__number=2, black=None)
    }
    assert _boards(again, 1) == _boards(event, 1)
