"""Open data: every public event as TRF, as Chess-JSON (FIDE TEC's JSON format for chess data, made from
the event's TRF by gacrux's own converter, so what gacrux reads is what it wrote, each game with its PGN as
readers may see it now), its standings and crosstable as CSV and XLSX, and a season's events in one zip."""

import csv
import io
import json
import zipfile
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import Any

from gacrux.trf2json import trf2json
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell

from .. import selectors
from ..errors import ServiceError
from ..models import Event, Game, Season
from ..text import csv_cell, one_line
from .games import game_pgn, games_with_moves, shown_moves
from .standings import team_player_numbers
from .trf import event_export_trf

#: a table of cells (text, numbers, None) for CSV and XLSX, header row first
Table = list[list[Any]]


def event_chess_json(*, event: Event, now: datetime | None = None) -> dict[str, Any]:
    """The event in Chess-JSON ("filetype": "Event"): profiles, competitors, games and matches by round; each game
    carries its PGN ("pgn") as its download gives it `now`: a game played under the event's transmission delay
    has the moves of that many minutes ago, never newer."""
    reader = trf2json()
    reader.parse_file(event_export_trf(event=event), 0)
    data = reader.chessjson
    if data["status"]["code"] >= 400:
        raise ServiceError("; ".join(map(str, data["status"]["error"])), code="export_failed")
    plain: dict[str, Any] = json.loads(json.dumps(data, default=_number))
    withdrawn = _withdrawn(event)
    for tournament in plain.get("event", {}).get("tournaments", []):
        _add_pgn(event, tournament.get("gameList") or [], now)
        for competitor in tournament.get("competitors") or []:
            if competitor.get("cid") in withdrawn:  # a withdrawn player is no longer present (Chess-JSON)
                competitor["present"] = False
    return plain


def _withdrawn(event: Event) -> dict[int, int]:
    """Start number -> the round a withdrawn player (team) withdrew after."""
    rows = event.entries.filter(withdrawn_after_round__isnull=False).values_list(
        "start_number", "withdrawn_after_round"
    )
    return {number: after for number, after in rows if after is not None}


def _add_pgn(event: Event, game_list: list[dict[str, Any]], now: datetime | None) -> None:
    """Each Chess-JSON game of the list gets the PGN of the site's game it is: the same round, white and black
    (an individual event's numbers are start numbers; a team event's, its players' numbers in the TRF)."""
    games = list(games_with_moves(Game.objects.filter(round__event=event)))
    key: Callable[[Game], tuple[int, int | None, int | None]]
    if event.is_team:
        entries = list(
            event.entries.select_related("player", "team").prefetch_related("team__members").order_by("start_number")
        )
        board_games = list(Game.objects.filter(round__event=event).order_by("round__number", "board"))  # as the TRF
        _members, number = team_player_numbers(board_games, entries)

        def key(game: Game) -> tuple[int, int | None, int | None]:
            white, black = game.white_player_id, game.black_player_id
            return game.round.number, number.get(white) if white else None, number.get(black) if black else None

    else:

        def key(game: Game) -> tuple[int, int | None, int | None]:
            white, black = game.white, game.black
            return game.round.number, white.start_number if white else None, black.start_number if black else None

    by_key: dict[tuple[Any, ...], Game] = {key(game): game for game in games}
    for item in game_list:
        white, black = item.get("white") or {}, item.get("black") or {}
        game = by_key.get((item.get("round"), white.get("cid"), black.get("cid")))
        if game is not None:
            item["pgn"] = game_pgn(game, shown_moves(game, now))


def _number(value: object) -> int | float:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def standings_table(*, event: Event) -> Table:
    """Header and one row per place: rank, number, name, points, each tiebreak in the published order."""
    standings = selectors.event_standings(slug=event.slug)
    number = "team_number" if event.is_team else "start_number"
    rows: Table = [["rank", number, "name", "points", *standings.criteria, "withdrawn_after_round"]]
    withdrawn = _withdrawn(event)
    for row in standings.table:
        out = withdrawn.get(row["number"])
        rows.append([row["rank"], row["number"], row["name"], row["points"], *row["cells"], out])
    return rows


def crosstable_table(*, event: Event) -> Table:
    """Header and one row per entry in standings order: each round as opponent number, colour (w/b; for
    teams h/a) and the entry's own score ("7w1", "3b½", "+" for a bye); a pending game as its opponent only."""
    standings = selectors.event_standings(slug=event.slug)
    rounds = event.rounds.order_by("number").values_list("number", flat=True)
    rows: Table = [["rank", "number", "name", "points", *(f"R{n}" for n in rounds), "withdrawn_after_round"]]
    cells = _team_cells(event) if event.is_team else _individual_cells(event)
    withdrawn = _withdrawn(event)
    for row in standings.table:
        mine = cells.get(row["number"], {})
        rows.append(
            [
                row["rank"],
                row["number"],
                row["name"],
                row["points"],
                *(mine.get(n, "") for n in rounds),
                withdrawn.get(row["number"]),
            ]
        )
    return rows


_SYMBOL = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "-", "U": "+", "F": "+", "H": "½", "Z": "0", "?": "?"}


def _individual_cells(event: Event) -> dict[int, dict[int, str]]:
    _rounds, cells = selectors.individual_rounds(event)
    numbers = dict(event.entries.values_list("pk", "start_number"))
    out: dict[int, dict[int, str]] = {}
    for entry_id, by_round in cells.items():
        out[numbers[entry_id]] = {
            n: (f"{cell.opponent.start_number}{cell.colour}" if cell.opponent else "") + _SYMBOL.get(cell.code, "")
            for n, cell in by_round.items()
        }
    return out


def _team_cells(event: Event) -> dict[int, dict[int, str]]:
    """Team events: the opponent's number, h/a, and the game points the team scored ("4h2½")."""
    out: dict[int, dict[int, str]] = {}
    for card in selectors.match_cards(event):
        n = card.match.round.number
        home, away = card.home.start_number, card.away.start_number
        pending = not card.finished and not any(game.result for game in card.games)
        out.setdefault(home, {})[n] = f"{away}h" + ("" if pending else card.home_score)
        out.setdefault(away, {})[n] = f"{home}a" + ("" if pending else card.away_score)
    return out


def csv_text(table: Table, title: str) -> str:
    """A table as CSV under a first comment line; text a spreadsheet would run as a formula is quoted."""
    out = io.StringIO()
    out.write("# " + one_line(title) + "\n")
    writer = csv.writer(out)
    for row in table:
        writer.writerow([csv_cell("" if cell is None else cell) for cell in row])
    return out.getvalue()


def xlsx_bytes(sheets: dict[str, Table]) -> bytes:
    """Sheets of tables as one XLSX workbook; every text cell is text (never a formula), numbers stay numbers."""
    book = Workbook(write_only=True)
    for name, table in sheets.items():
        sheet = book.create_sheet(name[:31])
        for row in table:
            sheet.append([_xlsx_cell(sheet, value) for value in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _xlsx_cell(sheet: Any, value: object) -> object:
    if isinstance(value, str):
        number = _as_number(value)
        if number is not None:
            return number
        cell = WriteOnlyCell(sheet, value=value)
        cell.data_type = "s"  # "=HYPERLINK(...)" in a name stays text
        return cell
    return value


def _as_number(text: str) -> int | float | None:
    try:
        number = Decimal(text)
    except ArithmeticError:
        return None
    if not number.is_finite() or text.strip() != text or not text:
        return None
    return int(number) if number == number.to_integral_value() and "." not in text else float(number)


def season_bundle(*, season: Season) -> bytes:
    """A zip of every public event of the season: TRF, Chess-JSON, standings and crosstable (CSV, XLSX)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bundle:
        events = Event.objects.public().filter(season=season).order_by("starts_on", "name")
        listing = []
        for event in events:
            standings, crosstable = standings_table(event=event), crosstable_table(event=event)
            folder = event.slug
            bundle.writestr(f"{folder}/{event.slug}.trf", event_export_trf(event=event))
            bundle.writestr(f"{folder}/{event.slug}.json", json.dumps(event_chess_json(event=event), indent=1))
            bundle.writestr(f"{folder}/standings.csv", csv_text(standings, event.name))
            bundle.writestr(f"{folder}/crosstable.csv", csv_text(crosstable, event.name))
            bundle.writestr(
                f"{folder}/{event.slug}.xlsx", xlsx_bytes({"Standings": standings, "Crosstable": crosstable})
            )
            listing.append({"slug": event.slug, "name": event.name, "status": event.status, "folder": folder})
        manifest = {"league": season.league.slug, "season": season.slug, "name": season.name, "events": listing}
        bundle.writestr("manifest.json", json.dumps(manifest, indent=1, ensure_ascii=False))
    return out.getvalue()
