"""An open played on the site and its games as a PGN file written by python-chess (issue #34): the big PGN files
of the tests come from the boards of a real event, each game's headers from the site's data as a broadcast would
write them (some names first-name first, FIDE ids for half of the players) and legal moves played by a seeded
random mover."""

import random

import chess
import chess.pgn

from leagues.models import Entry, Event, Game, Player, Result, Round
from leagues.services.games import game_headers, games_with_moves, pgn_read, site_result_pgn
from tests.factories import EventFactory, SeasonFactory

GIVEN = ["Anna", "Boris", "Chen", "Dilnoza", "Elif", "Fabiano", "Giorgos", "Hanna", "Ingrid", "Javokhir"]
FAMILY = ["Aronian", "Berg", "Costa", "Demir", "Eriksen", "Fischer", "Galanis", "Hansen", "Ivanova", "Jensen"]
RESULTS = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]


def played_open(players: int = 400, rounds: int = 10, seed: int = 34) -> Event:
    """A running open of `players` (even) entries and `rounds` rounds, every board paired (circle method) and
    played; half of the players have a FIDE id."""
    draw = random.Random(seed)
    season = SeasonFactory()
    event = EventFactory(
        league=season.league, season=season, rounds_count=rounds, status=Event.Status.RUNNING, results_version=1
    )
    people = Player.objects.bulk_create(
        Player(
            name=f"{FAMILY[n % 10]}{n // 10}, {GIVEN[(n * 7) % 10]}",
            fide_id=91_000_000 + n if n % 2 else None,
            rating=2600 - n,
        )
        for n in range(players)
    )
    entries = Entry.objects.bulk_create(
        Entry(event=event, start_number=n, player=person, rating=person.rating)
        for n, person in enumerate(people, start=1)
    )
    rounds_made = Round.objects.bulk_create(Round(event=event, number=n) for n in range(1, rounds + 1))
    circle, games = entries[:], []
    for rnd in rounds_made:
        for board in range(1, players // 2 + 1):
            white, black = circle[board - 1], circle[-board]
            if (rnd.number + board) % 2:
                white, black = black, white
            games.append(Game(round=rnd, board=board, white=white, black=black, result=draw.choice(RESULTS)))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    Game.objects.bulk_create(games)
    return event


def _random_games(draw: random.Random, count: int, plies: tuple[int, int]) -> list[str]:
    """`count` games of random legal moves, as PGN movetext without the result."""
    out = []
    for _game in range(count):
        board, written = chess.Board(), chess.pgn.Game()
        node: chess.pgn.GameNode = written
        for _ply in range(draw.randint(*plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = draw.choice(moves)
            node = node.add_variation(move)
            board.push(move)
        out.append(written.accept(chess.pgn.StringExporter(headers=False)).rsplit(" ", 1)[0])
    return out


def event_pgn(event: Event, seed: int = 34, plies: tuple[int, int] = (20, 60)) -> str:
    """Every board of the event as one PGN file: the site's headers (an even board's names first-name first, no
    FIDE id header for a player without one), the result recorded, and one of 60 games of random legal moves
    played by python-chess."""
    draw = random.Random(seed)
    pool = _random_games(draw, 60, plies)
    out = []
    for game in games_with_moves(Game.objects.filter(round__event=event)):
        headers = game_headers(game)
        for colour in ("White", "Black"):
            if game.board % 2 == 0 and ", " in headers[colour]:
                family, given = headers[colour].split(", ", 1)
                headers[colour] = f"{given} {family}"
        tags = "".join(f'[{name} "{value}"]\n' for name, value in headers.items())
        out.append(f"{tags}\n{draw.choice(pool)} {site_result_pgn(game)}\n")
    return "\n".join(out)


SITE_RESULT = {"1-0": Result.WHITE_WINS, "0-1": Result.BLACK_WINS, "1/2-1/2": Result.DRAW, "*": Result.PENDING}


def event_from_pgn(text: str, **event_fields) -> Event:
    """The event a real PGN file records, as the site would hold it: its players (names as in the file, FIDE ids
    when given), each game in the round its Round header names (else its place in the file) on the next board,
    the file's results."""
    event = EventFactory(status=Event.Status.RUNNING, **event_fields)
    entries: dict[str, Entry] = {}
    rounds: dict[int, Round] = {}
    games: list[Game] = []
    for file_game in pgn_read(text):
        sides = []
        for colour in ("White", "Black"):
            name, fide_id = file_game.headers[colour], file_game.headers.get(f"{colour}FideId", "")
            if name not in entries:
                player = Player.objects.create(name=name, fide_id=int(fide_id) if fide_id.isdecimal() else None)
                entries[name] = Entry.objects.create(event=event, start_number=len(entries) + 1, player=player)
            sides.append(entries[name])
        number = file_game.round or file_game.number
        rnd = rounds.get(number) or rounds.setdefault(number, Round.objects.create(event=event, number=number))
        board = sum(1 for game in games if game.round_id == rnd.pk) + 1
        games.append(Game(round=rnd, board=board, white=sides[0], black=sides[1], result=SITE_RESULT[file_game.result]))
    Game.objects.bulk_create(games)
    Event.objects.filter(pk=event.pk).update(rounds_count=max(rounds))
    event.refresh_from_db()
    return event
