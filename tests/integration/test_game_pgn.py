"""The moves of games (issue #34): attaching a PGN to a round's boards, matched by the players, validated with
python-chess, all of it or nothing; the site's result is never changed by the moves."""

import io
from pathlib import Path

import chess.pgn
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from leagues.errors import PermissionDenied, ServiceError
from leagues.models import Game, GamePgn, Result, Role
from leagues.services.games import pgn_attach, pgn_decode, pgn_preview
from tests.factories import (
    EntryFactory,
    EventFactory,
    GameFactory,
    PlayerFactory,
    RoleFactory,
    RoundFactory,
    UserFactory,
    organiser_of,
    swiss_event,
)
from tests.helpers import present

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pgn"


def two_player_round(white_name, black_name, *, white_fide=None, black_fide=None, result=""):
    event = EventFactory(rounds_count=6)
    white = EntryFactory(event=event, start_number=1, player=PlayerFactory(name=white_name, fide_id=white_fide))
    black = EntryFactory(event=event, start_number=2, player=PlayerFactory(name=black_name, fide_id=black_fide))
    rnd = RoundFactory(event=event, number=1)
    game = GameFactory(round=rnd, board=1, white=white, black=black, result=result)
    return event, game


def test_a_real_match_file_is_attached_to_the_board_its_players_sit_at_and_the_rest_waits_for_a_decision():
    event, game = two_player_round("Kasparov, Garry", "Deep Blue (Computer)", result=Result.WHITE_WINS)
    organiser = organiser_of(event.league)
    text = pgn_decode((FIXTURES / "kasparov-deep-blue-1997.pgn").read_bytes())
    games = Game.objects.filter(round__event=event, round__number=1)

    plan = pgn_preview(games=games, text=text, user=organiser)

    assert [(m.file_game.number, m.game.pk, m.difference) for m in plan.matched] == [(1, game.pk, "")]
    reasons = {u.file_game.number: u.reason for u in plan.unmatched}
    assert reasons[2] == "These players are on board 1 with the colours reversed."
    assert reasons[3] == "Game 1 of the file is already matched to board 1."
    with pytest.raises(ServiceError) as refused:
        pgn_attach(games=games, text=text, user=organiser)
    assert refused.value.code == "decision_needed"
    assert not GamePgn.objects.exists()

    saved = pgn_attach(games=games, text=text, user=organiser, decisions=dict.fromkeys(range(2, 7)))
    assert [v.game_id for v in saved] == [game.pk]
    moves = chess.pgn.read_game(io.StringIO(saved[0].movetext))
    assert len(list(present(moves).mainline_moves())) == 89


def test_an_illegal_move_refuses_the_whole_file_naming_the_game_and_the_move():
    event, game = two_player_round("McDonnell", "La Bourdonnais")
    organiser = organiser_of(event.league)
    text = pgn_decode((FIXTURES / "immortal-games-first-three.pgn").read_bytes())  # Windows-1252, CRLF

    with pytest.raises(ServiceError) as refused:
        pgn_attach(games=Game.objects.filter(pk=game.pk), text=text, user=organiser, decisions={1: None, 3: None})

    assert refused.value.message == "Game 1 (Pillsbury – Tarasch): move 5... Nd7 is not a legal move."
    assert not GamePgn.objects.exists()


def test_moves_ending_otherwise_than_the_recorded_result_are_kept_with_the_difference_and_the_result_stays():
    event, game = two_player_round("Carlsen, Magnus", "Caruana, Fabiano", result=Result.DRAW)
    organiser = organiser_of(event.league)
    text = '[White "Magnus Carlsen"]\n[Black "Fabiano Caruana"]\n[Result "1-0"]\n\n'
    text += "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"

    plan = pgn_preview(games=Game.objects.filter(pk=game.pk), text=text, user=organiser)
    assert plan.matched[0].difference == "The moves end 1-0; the recorded result is 1/2-1/2."
    pgn_attach(games=Game.objects.filter(pk=game.pk), text=text, user=organiser)

    game.refresh_from_db()
    assert game.result == Result.DRAW
    assert GamePgn.objects.get(game=game).result == "1-0"


def test_fide_ids_match_a_board_whatever_the_names_and_the_board_number_settles_two_boards():
    event, game = two_player_round("Nepomniachtchi, Ian", "Ding, Liren", white_fide=4168119, black_fide=8603677)
    organiser = organiser_of(event.league)
    text = '[White "Nepo"]\n[Black "Liren, Ding"]\n[WhiteFideId "4168119"]\n[BlackFideId "8603677"]\n\n1. e4 e5 *\n'
    plan = pgn_preview(games=Game.objects.filter(pk=game.pk), text=text, user=organiser)
    assert [m.game.pk for m in plan.matched] == [game.pk]


def test_a_secretary_attaches_only_to_boards_whose_results_they_may_change():
    event, _entries, _games = swiss_event(players=4)
    outsider = UserFactory()
    with pytest.raises(PermissionDenied):
        pgn_preview(games=Game.objects.filter(round__event=event), text="1. e4 *", user=outsider)


def test_the_round_page_previews_an_uploaded_file_and_attaches_it_after_the_decisions():
    event, game = two_player_round("Kasparov, Garry", "Deep Blue (Computer)", result=Result.WHITE_WINS)
    client = Client()
    client.force_login(organiser_of(event.league))
    address = f"/en/manage/events/{event.slug}/rounds/1/moves/"
    raw = (FIXTURES / "kasparov-deep-blue-1997.pgn").read_bytes()

    preview = client.post(address, {"pgn_file": SimpleUploadedFile("match.pgn", raw)})
    page = preview.content.decode()
    assert preview.status_code == 200 and "Games waiting for a decision" in page
    assert "These players are on board 1 with the colours reversed." in page
    assert not GamePgn.objects.exists()

    decisions = {f"decision_{n}": "" for n in range(2, 7)}
    attached = client.post(address, {"pgn": raw.decode(), "attach": "1", **decisions})
    assert attached.status_code == 302
    assert list(GamePgn.objects.values_list("game_id", flat=True)) == [game.pk]


def test_only_the_organiser_sets_the_transmission_delay_on_its_page():
    event, _game = two_player_round("Fischer, Robert", "Spassky, Boris")
    arbiter = RoleFactory(kind=Role.Kind.ARBITER, league=None, event=event).user
    organiser = organiser_of(event.league)
    address = f"/en/manage/events/{event.slug}/transmission/"
    moves_page = Client()
    moves_page.force_login(organiser)
    assert address in moves_page.get(f"/en/manage/events/{event.slug}/rounds/1/moves/").content.decode()

    refused = Client()
    refused.force_login(arbiter)
    assert refused.post(address, {"delay_minutes": "0"}).status_code == 403
    assert moves_page.post(address, {"delay_minutes": "15"}).status_code == 302
    assert event.transmission.delay_minutes == 15
    assert moves_page.post(address, {"delay_minutes": "600"}).status_code == 200  # more than 240: refused
    event.transmission.refresh_from_db()
    assert event.transmission.delay_minutes == 15


def test_a_broadcast_file_of_the_whole_event_matches_round_one_by_fide_ids_and_shows_a_result_difference():
    """lichess's export names players its own way ("Praggnanandhaa R"); the FIDE ids find them. Only round 1's five
    games are this round's; the other 40 wait for a decision, and the one recorded result that differs is shown."""
    event = EventFactory(rounds_count=9)
    rnd = RoundFactory(event=event, number=1)
    boards = [
        ("Chithambaram, Aravindh", 5072786, "Rameshbabu, Praggnanandhaa", 25059530, Result.DRAW),
        ("Yakubboev, Nodirbek", 14203987, "Arjun, Erigaisi", 35009192, Result.BLACK_WINS),
        ("Maghsoodloo, Parham", 12539929, "Rapport, Richard", 738590, Result.DRAW),
        ("Nepomniachtchi, Ian", 4168119, "Sindarov, Javokhir", 14205483, Result.BLACK_WINS),
        ("Abdusattorov, Nodirbek", 14204118, "Vokhidov, Shamsiddin", 14204223, Result.DRAW),  # the file: 1-0
    ]
    games = []
    for board, (white, white_id, black, black_id, result) in enumerate(boards, start=1):
        entries = [
            EntryFactory(event=event, start_number=2 * board - 1 + side, player=PlayerFactory(name=name, fide_id=fide))
            for side, (name, fide) in enumerate(((white, white_id), (black, black_id)))
        ]
        games.append(GameFactory(round=rnd, board=board, white=entries[0], black=entries[1], result=result))
    organiser = organiser_of(event.league)
    text = pgn_decode((FIXTURES / "uzchesscup-2025-lichess.pgn").read_bytes())
    round_games = Game.objects.filter(round=rnd)

    plan = pgn_preview(games=round_games, text=text, user=organiser)

    assert [(m.file_game.headers["Round"], m.game.board) for m in plan.matched] == [(f"1.{b}", b) for b in range(1, 6)]
    assert [m.difference for m in plan.matched if m.difference] == [
        "The moves end 1-0; the recorded result is 1/2-1/2."
    ]
    assert len(plan.unmatched) == 40
    saved = pgn_attach(games=round_games, text=text, user=organiser, decisions=dict.fromkeys(range(6, 46)))
    assert sorted(v.game_id for v in saved) == [g.pk for g in games]
    assert Game.objects.get(pk=games[4].pk).result == Result.DRAW
