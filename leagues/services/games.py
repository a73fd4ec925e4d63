"""The moves of games, for every door (the attach page, a PGN file of a round or a match, the live boards' API).

A PGN is read with python-chess: an illegal move refuses the whole text, naming the game and the move. The games of
a file are matched to the boards by the players' FIDE ids or names (and the board number when several boards fit);
what does not match is listed for a decision, and the chosen games are attached in one transaction. A game's
result is the site's: moves ending otherwise are kept with the difference shown, never changing the result. The
headers of every PGN the site writes come from its own data.

Each attach or PUT is a new version of the game's moves (GamePgn) with the time it arrived; while a game runs,
readers of an event with a transmission delay see the version that had arrived that many minutes ago."""

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import chess
import chess.pgn
from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import DEFAULT_PERMISSION_MESSAGE, Conflict, NotFound, PermissionDenied, ServiceError
from ..models import Event, Game, GamePgn, Player, Result, Transmission
from ..page_cache import pages_changed
from ..permissions import AnyUser, acting_user, can_attach_moves, is_league_organiser
from .webhooks import game_pgn_updated

#: the longest PGN text read at once (a big open's round with clocks is far below)
PGN_MAX_CHARS = 5_000_000
MAX_DELAY_MINUTES = 240
# what a board's headers and matching read: the event, the entries' players and teams, a match board's players
BOARD_RELATIONS = (
    "round__event",
    "white__player",
    "black__player",
    "white__team",
    "black__team",
    "white_player",
    "black_player",
)
PGN_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: a long job's report of its step: (step, done, total)
Progress = Callable[[str, int, int], None]
PROGRESS_EVERY = 50  # games read or saved between two reports
# the site's result as PGN writes it; anything else (no result yet, unknown, double forfeit) is "*"
SITE_RESULT_PGN: dict[str, str] = {
    Result.WHITE_WINS: "1-0",
    Result.BLACK_WINS: "0-1",
    Result.DRAW: "1/2-1/2",
    Result.WHITE_WINS_FORFEIT: "1-0",
    Result.BLACK_WINS_FORFEIT: "0-1",
}


@dataclass
class FileGame:
    """One game of a PGN text as python-chess read it."""

    number: int  # its place in the text, from 1
    headers: dict[str, str]
    movetext: str  # no headers; ends with "*"
    result: str
    start_fen: str
    half_moves: int

    @property
    def white(self) -> str:
        return self.headers.get("White", "?")

    @property
    def black(self) -> str:
        return self.headers.get("Black", "?")

    @property
    def round(self) -> int | None:
        """The round its Round header names ("3", "3.1" and lichess's "3.12" are round 3), or None."""
        found = re.match(r"\s*(\d+)(?:\.\d+)?\s*$", self.headers.get("Round", ""))
        return int(found.group(1)) if found else None


@dataclass
class Matched:
    file_game: FileGame
    game: Game
    difference: str = ""


@dataclass
class Unmatched:
    file_game: FileGame
    reason: str
    choices: list[Game] = field(default_factory=list)  # the boards a decision may choose from (its round's, if any)


@dataclass
class PgnPlan:
    """What attaching a text would do: the games matched to boards, the ones waiting for a decision, and the
    boards a decision may choose from."""

    matched: list[Matched] = field(default_factory=list)
    unmatched: list[Unmatched] = field(default_factory=list)
    boards: list[Game] = field(default_factory=list)


class _Builder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's reader, keeping its errors on the game without logging them."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def _illegal_move(number: int, headers: chess.pgn.Headers, error: Exception) -> ServiceError:
    players = {"number": number, "white": headers.get("White", "?"), "black": headers.get("Black", "?")}
    if not isinstance(error, (chess.IllegalMoveError, chess.InvalidMoveError, chess.AmbiguousMoveError)):
        return ServiceError(
            _("Game %(number)s (%(white)s – %(black)s) cannot be read: %(error)s") % (players | {"error": error}),
            code="bad_pgn",
        )
    text = str(error)
    san = re.search(r"'([^']*)'", text)
    fen = re.search(r" in (\S+ [wb] \S+ \S+ \d+ \d+)", text)
    move = san.group(1) if san else "?"
    if fen:
        parts = fen.group(1).split()
        move = f"{parts[5]}{'.' if parts[1] == 'w' else '...'} {move}"
    return ServiceError(
        _("Game %(number)s (%(white)s – %(black)s): move %(move)s is not a legal move.") % (players | {"move": move}),
        code="illegal_move",
    )


def _end_games_without_moves(text: str) -> str:
    """Give a game of headers only (a broadcast's pairings, e.g. lichess's export) its termination marker, so the
    next game's headers start a new game instead of continuing this one."""
    lines: list[str] = []
    in_headers = blank_after_headers = False
    result = "*"
    for line in text.splitlines():
        stripped = line.strip()
        if re.fullmatch(r'\[[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\]', stripped):
            if in_headers and blank_after_headers:
                lines += [result, ""]
                result = "*"
            in_headers, blank_after_headers = True, False
            found = re.match(r'\[Result\s+"([^"]*)"\]', stripped)
            if found and found.group(1) in PGN_RESULTS:
                result = found.group(1)
        elif not stripped:
            blank_after_headers = in_headers
        elif not stripped.startswith("%"):
            in_headers = blank_after_headers = False
            result = "*"
        lines.append(line)
    return "\n".join(lines) + "\n"


def pgn_read(text: str, progress: Progress | None = None) -> list[FileGame]:
    """Every game of a PGN text; raises ServiceError for an empty or too long text or an illegal move. `progress`
    is told ("reading", characters read, characters) as the games are read."""
    if len(text) > PGN_MAX_CHARS:
        raise ServiceError(_("The PGN is too long to read at once."), code="pgn_too_long")
    prepared = _end_games_without_moves(text.lstrip("\ufeff"))
    stream = io.StringIO(prepared)
    games: list[FileGame] = []
    while True:
        if progress is not None and len(games) % PROGRESS_EVERY == 0:
            progress("reading", stream.tell(), len(prepared))
        try:
            parsed = chess.pgn.read_game(stream, Visitor=_Builder)
        except ValueError as error:
            raise ServiceError(_("The PGN cannot be read: %(error)s") % {"error": error}, code="bad_pgn") from None
        if parsed is None:
            break
        number = len(games) + 1
        if parsed.errors:
            raise _illegal_move(number, parsed.headers, parsed.errors[0])
        result = parsed.headers.get("Result", "*")
        parsed.headers["Result"] = "*"
        movetext = parsed.accept(chess.pgn.StringExporter(headers=False, columns=None))
        games.append(
            FileGame(
                number=number,
                headers=dict(parsed.headers),
                movetext=movetext,
                result=result if result in PGN_RESULTS else "*",
                start_fen=parsed.headers.get("FEN", "") if "FEN" in parsed.headers else "",
                half_moves=len(list(parsed.mainline_moves())),
            )
        )
    if not games or (len(games) == 1 and _empty(games[0]) and text.strip() not in PGN_RESULTS):
        raise ServiceError(_("No game was found in the PGN."), code="no_games")  # "5" or "{ ..." is no game
    return games


def _empty(file_game: FileGame) -> bool:
    """No moves and no headers of its own: what python-chess makes of text that is not PGN."""
    roster_defaults = {"?", "????.??.??", "*"}
    return file_game.half_moves == 0 and all(value in roster_defaults for value in file_game.headers.values())


def _name_key(name: str) -> tuple[str, ...]:
    """ "Carlsen, Magnus", "Magnus Carlsen" and "CARLSEN Magnus" are one name."""
    return tuple(sorted(re.findall(r"\w+", name.casefold())))


def players_of(game: Game) -> tuple[Player | None, Player | None]:
    """The players at the board: the team players of a match's board, else the entries' players."""
    if game.match_id is not None:
        return game.white_player, game.black_player
    return (
        game.white.player if game.white else None,
        game.black.player if game.black else None,
    )


def _same_player(player: Player | None, name: str, fide_id: str) -> bool:
    if player is None:
        return False
    if fide_id.strip().isdecimal() and player.fide_id:
        return int(fide_id) == player.fide_id
    return _name_key(player.name) == _name_key(name)


class _Seats:
    """The boards by who sits at them, so each game of a 2,000-game file finds its board at once: the same answer
    as asking every board _same_player for both colours."""

    def __init__(self, boards: list[Game]) -> None:
        self.order = {game.pk: n for n, game in enumerate(boards)}
        self.by_id: list[dict[int, set[int]]] = [{}, {}]  # per colour: FIDE id → boards
        self.by_name: list[dict[tuple[str, ...], set[int]]] = [{}, {}]  # name → boards
        self.by_name_no_id: list[dict[tuple[str, ...], set[int]]] = [{}, {}]  # name → boards, player without FIDE id
        self.games = {game.pk: game for game in boards}
        for game in boards:
            for side, player in enumerate(players_of(game)):
                if player is None:
                    continue
                key = _name_key(player.name)
                self.by_name[side].setdefault(key, set()).add(game.pk)
                if player.fide_id:
                    self.by_id[side].setdefault(player.fide_id, set()).add(game.pk)
                else:
                    self.by_name_no_id[side].setdefault(key, set()).add(game.pk)

    def _side(self, side: int, name: str, fide_id: str) -> set[int]:
        key = _name_key(name)
        if fide_id.strip().isdecimal():
            return self.by_id[side].get(int(fide_id), set()) | self.by_name_no_id[side].get(key, set())
        return self.by_name[side].get(key, set())

    def playing(self, white: tuple[str, str], black: tuple[str, str]) -> list[Game]:
        found = self._side(0, *white) & self._side(1, *black)
        return [self.games[pk] for pk in sorted(found, key=self.order.__getitem__)]


def _unnamed(file_game: FileGame) -> bool:
    return all(file_game.headers.get(colour, "?").strip() in ("", "?") for colour in ("White", "Black"))


def site_result_pgn(game: Game) -> str:
    return SITE_RESULT_PGN.get(game.result, "*")


def result_difference(game: Game, moves_result: str) -> str:
    """ "" when the moves end as the site's result says, else the difference in words."""
    recorded = site_result_pgn(game)
    if moves_result == recorded:
        return ""
    if recorded == "*":
        return _("The moves end %(moves)s; no result is recorded yet.") % {"moves": moves_result}
    return _("The moves end %(moves)s; the recorded result is %(recorded)s.") % {
        "moves": moves_result,
        "recorded": recorded,
    }


def pgn_plan(boards: list[Game], file_games: list[FileGame]) -> PgnPlan:
    """Match each game of the file to a board by its players (FIDE id, else name), the round and then the board
    number settling several; a board takes one game of the file."""
    plan = PgnPlan(boards=boards)
    seats = _Seats(boards)
    by_round: dict[int, list[Game]] = {}
    for game in boards:
        by_round.setdefault(game.round.number, []).append(game)
    taken: dict[int, int] = {}
    for file_game in file_games:
        h = file_game.headers
        white = (h.get("White", ""), h.get("WhiteFideId", ""))
        black = (h.get("Black", ""), h.get("BlackFideId", ""))
        candidates = seats.playing(white, black)
        if not candidates and len(boards) == 1 and len(file_games) == 1 and _unnamed(file_game):
            candidates = boards  # the moves of one game, pasted for that game without its headers
        if len(candidates) > 1 and file_game.round is not None:
            candidates = [game for game in candidates if game.round.number == file_game.round]
        board = h.get("Board", "").strip()
        if len(candidates) > 1 and board.isdecimal():
            candidates = [game for game in candidates if game.board == int(board)]
        if len(candidates) == 1 and candidates[0].pk not in taken:
            game = candidates[0]
            taken[game.pk] = file_game.number
            plan.matched.append(Matched(file_game, game, result_difference(game, file_game.result)))
            continue
        if len(candidates) == 1:
            reason = _("Game %(other)s of the file is already matched to board %(board)s.") % {
                "other": taken[candidates[0].pk],
                "board": candidates[0].board,
            }
        elif candidates:
            reason = _("Several boards have these players; choose one.")
        elif reversed_colours := seats.playing(black, white):
            reason = _("These players are on board %(board)s with the colours reversed.") % {
                "board": reversed_colours[0].board
            }
        else:
            reason = _("No board has these players.")
        choices = by_round.get(file_game.round, boards) if file_game.round is not None else boards
        plan.unmatched.append(Unmatched(file_game, reason, choices))
    return plan


def attach_boards(games: QuerySet[Game], user: AnyUser) -> list[Game]:
    """The games (no byes) of an event, a round, a match or one game that `user` may attach moves to, in the order
    of the rounds and their boards."""
    ordered = games.select_related(*BOARD_RELATIONS).order_by("round__number", "match_id", "board")
    boards = [game for game in ordered if not game.is_bye]
    if not boards:
        raise NotFound(_("There are no games to attach moves to."), code="no_games")
    allowed = [game for game in boards if can_attach_moves(user, game)]
    if not allowed:
        raise PermissionDenied(DEFAULT_PERMISSION_MESSAGE)
    return allowed


def pgn_preview(*, games: QuerySet[Game], text: str, user: AnyUser) -> PgnPlan:
    """What attaching `text` to these games would do; changes nothing."""
    return pgn_plan(attach_boards(games, user), pgn_read(text))


def pgn_attach(
    *,
    games: QuerySet[Game],
    text: str,
    user: AnyUser,
    decisions: dict[int, int | None] | None = None,
    source: str = GamePgn.Source.FORM,
) -> list[GamePgn]:
    """Attach the games of `text` to the boards they match, and each unmatched game to the board its decision
    names (file game number → game id, None to leave it out). One transaction: all of it or nothing."""
    file_games = pgn_read(text)
    with transaction.atomic():
        plan = pgn_plan(attach_boards(games.select_for_update(of=("self",)), user), file_games)
        return attach_planned(plan, decisions or {}, user, source)


def attach_planned(
    plan: PgnPlan, decisions: dict[int, int | None], user: AnyUser, source: str, progress: Progress | None = None
) -> list[GamePgn]:
    """Save the moves of a plan made inside the caller's transaction (its boards locked): the matched games and
    the decided ones; a game without a decision refuses it all. `progress` is told ("saving", done, total)."""
    by_id = {game.pk: game for game in plan.boards}
    chosen = [(m.file_game, m.game) for m in plan.matched]
    for waiting in plan.unmatched:
        number = waiting.file_game.number
        if number not in decisions:
            raise ServiceError(
                _("Game %(number)s of the file (%(white)s – %(black)s) needs a decision: %(reason)s")
                % {
                    "number": number,
                    "white": waiting.file_game.white,
                    "black": waiting.file_game.black,
                    "reason": waiting.reason,
                },
                code="decision_needed",
            )
        game_id = decisions[number]
        if game_id is None:
            continue
        if game_id not in by_id:
            raise ServiceError(_("Choose one of the boards listed."), code="unknown_board")
        chosen.append((waiting.file_game, by_id[game_id]))
    seen: set[int] = set()
    for _file_game, game in chosen:
        if game.pk in seen:
            raise ServiceError(
                _("Two games of the file are attached to board %(board)s.") % {"board": game.board},
                code="board_twice",
            )
        seen.add(game.pk)
    newest = {
        version.game_id: version
        for version in GamePgn.objects.filter(game__in=seen).order_by("game_id", "-version").distinct("game_id")
    }
    saved = []
    for done, (file_game, game) in enumerate(chosen):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress("saving", done, len(chosen))
        saved.append(_save(game, file_game, user, source, newest.get(game.pk)))
    return saved


def _newest(game: Game) -> GamePgn | None:
    return GamePgn.objects.filter(game=game).order_by("-version").first()


def _save(game: Game, file_game: FileGame, user: AnyUser, source: str, newest: GamePgn | None) -> GamePgn:
    if newest and (newest.movetext, newest.result, newest.start_fen) == (
        file_game.movetext,
        file_game.result,
        file_game.start_fen,
    ):
        return newest  # the same moves again: nothing new
    saved = GamePgn.objects.create(
        game=game,
        version=(newest.version if newest else 0) + 1,
        movetext=file_game.movetext,
        result=file_game.result,
        start_fen=file_game.start_fen,
        updated_by=acting_user(user),
        source=source,
    )
    game_pgn_updated(event_id=game.round.event_id, game_id=game.pk, version=saved.version)
    pages_changed(event_id=game.round.event_id)  # the game's page shows the moves
    return saved


def pgn_put(*, game_id: int, text: str, user: AnyUser, expected_version: int | None = None) -> GamePgn:
    """A live board's moves so far, for one game (the PGN's names are not matched: the address names the game).
    The same moves again change nothing, whatever `expected_version` says; otherwise a stale `expected_version`
    raises Conflict (its `current` the newest version)."""
    file_games = pgn_read(text)
    if len(file_games) != 1:
        raise ServiceError(_("Send the moves of one game."), code="one_game")
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("round__event", "white__player", "black__player")
            .filter(pk=game_id)
            .first()
        )
        if game is None:
            raise NotFound(_("There is no game %(id)s.") % {"id": game_id}, code="unknown_game")
        if game.is_bye:
            raise ServiceError(_("A bye has no moves."), code="bye_has_no_moves")
        if not can_attach_moves(user, game):
            raise PermissionDenied(DEFAULT_PERMISSION_MESSAGE)
        newest = _newest(game)
        file_game = file_games[0]
        same = newest and (newest.movetext, newest.result, newest.start_fen) == (
            file_game.movetext,
            file_game.result,
            file_game.start_fen,
        )
        if not same and expected_version is not None and expected_version != (newest.version if newest else 0):
            raise Conflict(_("Someone changed these moves meanwhile."), current=newest)
        return _save(game, file_game, user, GamePgn.Source.API, newest)


def transmission_delay(event: Event) -> int:
    return Transmission.objects.filter(event=event).values_list("delay_minutes", flat=True).first() or 0


def transmission_delay_set(*, event: Event, minutes: int, user: AnyUser) -> Transmission:
    """The organiser's delay of the event's live boards, in minutes (0: live)."""
    if not is_league_organiser(user, event.league_id):
        raise PermissionDenied(DEFAULT_PERMISSION_MESSAGE)
    if not 0 <= minutes <= MAX_DELAY_MINUTES:
        raise ServiceError(
            _("The delay is from 0 to %(most)s minutes.") % {"most": MAX_DELAY_MINUTES}, code="bad_delay"
        )
    transmission, _created = Transmission.objects.update_or_create(event=event, defaults={"delay_minutes": minutes})
    pages_changed(event_id=event.pk)  # the live boards show the moves with the new delay
    return transmission


def game_finished(game: Game, newest: GamePgn | None) -> bool:
    """A game has ended when the site has its result, or its moves end with one."""
    return game.result not in (Result.PENDING, Result.UNKNOWN) or (newest is not None and newest.result != "*")


def visible_pgn(game: Game, versions: list[GamePgn], delay_minutes: int, now: datetime | None = None) -> GamePgn | None:
    """The version readers see now: the newest, or while the game runs under a delay, the newest that arrived
    `delay_minutes` ago. `versions` are the game's, any order."""
    if not versions:
        return None
    ordered = sorted(versions, key=lambda v: v.version, reverse=True)
    if not delay_minutes or game_finished(game, ordered[0]):
        return ordered[0]
    shown_until = (now or timezone.now()) - timedelta(minutes=delay_minutes)
    return next((v for v in ordered if v.updated_at <= shown_until), None)


def games_with_moves(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games (no byes) with what their headers and moves need, in the order of a round's boards."""
    return (
        games.exclude(black__isnull=True, match__isnull=True)
        .select_related("round__event__transmission", *BOARD_RELATIONS)
        .prefetch_related(Prefetch("pgn_versions", queryset=GamePgn.objects.order_by("-version")))
        .order_by("round__event_id", "round__number", "match_id", "board")
    )


def shown_moves(game: Game, now: datetime | None = None) -> GamePgn | None:
    """The version of a game from games_with_moves that readers see now."""
    event = game.round.event
    delay = event.transmission.delay_minutes if hasattr(event, "transmission") else 0
    return visible_pgn(game, list(game.pgn_versions.all()), delay, now)


def _date(game: Game) -> str:
    day = game.round.date or game.round.event.starts_on
    return day.strftime("%Y.%m.%d") if day else "????.??.??"


def game_headers(game: Game) -> dict[str, str]:
    """The PGN headers of a game, from the site's data only."""
    event = game.round.event
    headers = {
        "Event": event.name,
        "Site": game.round.place or "?",
        "Date": _date(game),
        "Round": str(game.round.number),
        "Board": str(game.board),
    }
    players = players_of(game)
    for colour, entry, player in (("White", game.white, players[0]), ("Black", game.black, players[1])):
        headers[colour] = player.public_name if player else (entry.team.name if entry and entry.team else "?")
        rating = player.rating if game.match_id is not None and player else (entry.rating if entry else None)
        if rating:
            headers[f"{colour}Elo"] = str(rating)
        if player and player.fide_id and not player.anonymised:
            headers[f"{colour}FideId"] = str(player.fide_id)
        if game.match_id is not None and entry is not None and entry.team is not None:
            headers[f"{colour}Team"] = entry.team.name
    headers["Result"] = site_result_pgn(game)
    return headers


def game_pgn(game: Game, version: GamePgn | None) -> str:
    """One game as PGN: the site's headers and the moves of `version` (none: the headers and the result)."""
    text = version.movetext if version else "*"
    if version and version.start_fen:
        text = f'[FEN "{version.start_fen}"]\n[SetUp "1"]\n\n{text}'
    parsed = chess.pgn.read_game(io.StringIO(text), Visitor=_Builder) or chess.pgn.Game()
    fen = parsed.headers.get("FEN")
    parsed.headers.clear()
    for name, value in game_headers(game).items():
        parsed.headers[name] = value
    if fen:
        parsed.headers["SetUp"] = "1"
        parsed.headers["FEN"] = fen
    return parsed.accept(chess.pgn.StringExporter(headers=True)) + "\n"


def games_pgn(games: QuerySet[Game], now: datetime | None = None) -> str:
    """Every game (no byes) as one PGN file, each as readers see it now."""
    return "\n".join(game_pgn(game, shown_moves(game, now)) for game in games_with_moves(games))


def pgn_decode(raw: bytes) -> str:
    """An uploaded PGN file's text: UTF-8 (with or without a byte order mark), else Windows-1252, the encoding of
    most older PGN files (ISO-8859-1 read the same for letters)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def public_games() -> QuerySet[Game]:
    """The games of every event readers may see (no drafts)."""
    return Game.objects.filter(round__event__in=Event.objects.public())


def pgn_etag(game: Game, version: GamePgn | None) -> str:
    """The ETag of a game's PGN as shown: the version of its moves (what If-Match names), then the version of its
    result (the Result header)."""
    return f'"p{version.version if version else 0}.{game.version}"'
