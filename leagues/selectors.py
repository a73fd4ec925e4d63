"""Reads for pages and the API: they show the latest snapshot and never run the engine.

Round-by-round tables (crosstables, a player's rounds, the score race) are read from the stored
games: adding up points per round is bookkeeping, not tie-break computation, so it stays here.
"""

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from django.db.models import Count, Exists, F, Func, JSONField, OuterRef, Prefetch, Q

from tiebreaks.engine.compact import expand, is_compact
from tiebreaks.explanations import fmt

from .models import (
    TRF_CODES,
    Club,
    ClubMembership,
    Entry,
    Event,
    Game,
    GamePgn,
    League,
    PairingSettings,
    Player,
    Result,
    ResultChange,
    Round,
    Season,
    StandingsSnapshot,
    Team,
    TeamMatch,
)
from .models.league import initials
from .permissions import organised_league_ids, secretary_club_ids

if TYPE_CHECKING:
    from .models import Cup


@dataclass
class EventStandings:
    event: Event
    snapshot: StandingsSnapshot | None
    entries: dict[int, Entry] = field(default_factory=dict)  # start number -> entry (pages only)
    # start number -> the entry as a plain row (the big tables: standings, crosstable), instead of `entries`
    entry_rows: "dict[int, EntryRow]" = field(default_factory=dict)
    traces: dict[int, dict] = field(default_factory=dict)  # number -> its traces by criterion, as read so far

    @property
    def being_updated(self) -> bool:
        """True while results are newer than the standings shown."""
        stored = self.snapshot.version if self.snapshot else 0
        return self.event.results_version > stored

    @property
    def rows(self) -> list[dict]:
        return self.snapshot.rows if self.snapshot else []

    @property
    def table(self) -> list[dict]:
        """Rows with their tiebreak values in the published order (jsonb does not keep key order),
        the place as shown (shared places as "3–4"), and the entry (club, link) when loaded: its plain row when
        the entries were read as rows (`entry_rows`), else its model instance."""
        entries: dict = self.entry_rows or self.entries
        places = shared_places([row["rank"] for row in self.rows])
        out = []
        for row, place in zip(self.rows, places, strict=True):
            number = row_number(row)
            out.append(
                {
                    **row,
                    "number": number,
                    "place": place,
                    "shared": "–" in place,
                    "entry": entries.get(number),
                    "cells": [row["values"].get(code) for code in self.criteria],
                }
            )
        return out

    @property
    def criteria(self) -> list[str]:
        return self.snapshot.criteria if self.snapshot else list(self.event.tiebreak_criteria)

    @property
    def notes(self) -> list[dict]:
        return self.snapshot.notes if self.snapshot else []

    def with_traces(self, numbers: Iterable[int]) -> "EventStandings":
        """The same standings with the traces of the participants `numbers` (read together, from the same snapshot
        version); other participants' traces are read when asked for."""
        standings = replace(self, traces={})
        numbers = list(numbers)
        if self.snapshot and numbers:
            standings.traces = self._read_traces(numbers)
        return standings

    def _read_traces(self, numbers: list[int]) -> dict[int, dict]:
        """The participants' traces, read together from this snapshot's version."""
        if self.snapshot is None:
            raise RuntimeError("traces are read from the event's snapshot")
        snapshot = StandingsSnapshot.objects.filter(pk=self.snapshot.pk, version=self.snapshot.version)
        return _traces_of(snapshot, numbers)

    def row_of(self, number: int) -> dict | None:
        return next((row for row in self.rows if row_number(row) == number), None)

    def trace(self, number: int, code: str) -> dict | None:
        """One participant's trace of one criterion; a participant's traces not read with the standings are read
        then, that participant's only, from the same snapshot version."""
        if not self.snapshot:
            return None
        if number not in self.traces:
            self.traces[number] = self._read_traces([number]).get(number, {})
        return self.traces[number].get(code)


def row_number(row: dict) -> int:
    """A snapshot row's participant: the start number (players) or the team number (teams)."""
    return row["start_number"] if "start_number" in row else row["team_number"]


def shared_places(ranks: list[int]) -> list[str]:
    """Competition ranks (1, 2, 2, 4) as places a reader understands: 1, 2–3, 2–3, 4."""
    counts: dict[int, int] = defaultdict(int)
    for rank in ranks:
        counts[rank] += 1
    return [str(rank) if counts[rank] == 1 else f"{rank}–{rank + counts[rank] - 1}" for rank in ranks]


def leagues_with_events():
    listed = Event.objects.public().filter(archived=False)  # an archived event is read at its address only
    return League.objects.prefetch_related(Prefetch("events", queryset=listed.select_related("season")))


def event_standings(*, slug: str, with_entries: bool = False, with_rows: bool = False) -> EventStandings:
    """The event's standings, without the explanation traces (a 1,000-player open's are about 10 MB of JSON): a
    participant's are read on their own when asked for (`with_traces`, `trace`), as one key of the snapshot's.
    `with_entries`: with the entries as model instances (`entries`); `with_rows`: as plain rows (`entry_rows`)."""
    # the registration settings too: the standings page offers the entry form while registration is open
    event = Event.objects.public().select_related("league", "season", "registration_settings").get(slug=slug)
    snapshot = StandingsSnapshot.objects.filter(event=event).defer("explanations").first()
    standings = EventStandings(event=event, snapshot=snapshot)
    if with_entries:
        standings.entries = {entry.start_number: entry for entry in entries_with_clubs(event)}
    if with_rows:
        standings.entry_rows = {entry.start_number: entry for entry in entry_rows(event)}
    return standings


class JSONKey(Func):
    """One key of a JSON object column, read by the database, the key always as text: Django's KeyTransform
    reads an all-digits key as an array index (PostgreSQL `-> 3`, SQLite `$[3]`), and the traces are keyed by
    the start number."""

    output_field = JSONField()

    def __init__(self, column: str, key: str):
        super().__init__(F(column))
        self.key = key

    def as_postgresql(self, compiler, connection, **extra):
        column, params = compiler.compile(self.source_expressions[0])
        return f"({column} -> %s::text)", (*params, self.key)

    def as_sqlite(self, compiler, connection, **extra):
        column, params = compiler.compile(self.source_expressions[0])
        return f"JSON_EXTRACT({column}, %s)", (*params, "$." + json.dumps(self.key))


def _trace_keys(numbers: list[int]) -> dict[str, JSONKey]:
    """Annotations reading participants' traces (keyed by the number as text) out of the explanations column."""
    return {f"traces_{number}": JSONKey("explanations", str(number)) for number in numbers}


def _traces_of(snapshots, numbers: list[int]) -> dict[int, dict]:
    row = snapshots.annotate(**_trace_keys(numbers)).values(*_trace_keys(numbers)).first()
    return {number: stored_traces(row[f"traces_{number}"]) for number in numbers} if row else {}


def stored_traces(stored) -> dict:
    """A participant's traces by criterion as the snapshot keeps them: the compact form of a recompute's, one JSON
    text (read as the engine's Trace.to_dict gives them), or the traces themselves (older snapshots, team events)."""
    if isinstance(stored, str):
        stored = json.loads(stored)
    if is_compact(stored):
        return expand(stored)
    return stored or {}


def _jsonb_order(keys) -> tuple[str, ...]:
    return tuple(sorted(keys, key=lambda key: (len(key.encode()), key.encode())))


# a trace's and an element's keys (tiebreaks.engine.explain: Trace.to_dict, TraceElement.to_dict) in jsonb order
_TRACE_KEYS = _jsonb_order(
    ["start_number", "criterion", "value", "elements", "terms", "total", "divisor", "rounding", "reason", "details"]
)
_ELEMENT_KEYS = _jsonb_order(
    [
        "adjustments",
        "round",
        "opponent",
        "dummy",
        "value",
        "points",
        "contribution",
        "reason",
        "article",
        "vur",
        "removed",
    ]
)


def _traces_as_jsonb(traces: dict) -> dict:
    """A participant's traces (as Trace.to_dict gives them) with every object's keys in jsonb order."""
    out = {}
    for code in _jsonb_order(traces):
        trace = traces[code]
        ordered = {key: trace[key] for key in _TRACE_KEYS}
        ordered["details"] = _as_jsonb(trace["details"])
        ordered["elements"] = [
            {key: (_as_jsonb(element[key]) if key == "adjustments" else element[key]) for key in _ELEMENT_KEYS}
            for element in trace["elements"]
        ]
        out[code] = ordered
    return out


def _as_jsonb(value):
    """`value` with every object's keys in PostgreSQL's jsonb order (shorter first, then by their bytes), as the
    explanations read as text always came out."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: (len(key.encode()), key.encode()))
        return {key: _as_jsonb(value[key]) for key in keys}
    if isinstance(value, list):
        return [_as_jsonb(item) for item in value]
    return value


def explanations_text(stored: str) -> str:
    """The API's `explanations` (JSON text) from the snapshot's column read as text: every participant's traces as
    they read before they were stored in the compact form, byte for byte."""
    explanations = json.loads(stored)
    if not any(isinstance(traces, str) or is_compact(traces) for traces in explanations.values()):
        return stored
    return json.dumps(
        {
            number: _traces_as_jsonb(stored_traces(traces)) if isinstance(traces, str) or is_compact(traces) else traces
            for number, traces in explanations.items()
        },
        ensure_ascii=False,
    )


def public_event(*, slug: str) -> Event:
    return Event.objects.public().select_related("league", "season").get(slug=slug)


def entries_with_clubs(event: Event) -> list[Entry]:
    """The event's entries, each with `club_display`, its club: a team's club, or the club of the
    player's first recorded membership (None without one). Pages, the API and the prizes use this rule."""
    entries = list(event.entries.select_related("player", "team__club"))
    first_club: dict[int, Club] = {}  # player id -> the club of the player's first membership
    memberships = ClubMembership.objects.filter(player__in=event.entries.values("player_id")).select_related("club")
    for membership in memberships.order_by("id"):
        first_club.setdefault(membership.player_id, membership.club)
    for entry in entries:
        if entry.team is not None:
            entry.club_display = entry.team.club
        else:
            if entry.player_id is None:
                raise RuntimeError("an entry is a player's or a team's")
            entry.club_display = first_club.get(entry.player_id)
    return entries


@dataclass(frozen=True, slots=True)
class ClubRow:
    """A club as the big tables show it (a plain row, not a model instance)."""

    pk: int
    slug: str
    name: str
    short_name: str

    @property
    def id(self) -> int:
        return self.pk


@dataclass(eq=False, slots=True)
class PlayerRow:
    """An entry's player as the big tables and the category badges read it (a plain row)."""

    pk: int
    title: str
    federation: str
    birth_year: int | None
    sex: str

    @property
    def id(self) -> int:
        return self.pk

    def get_title_display(self) -> str:
        """The title's name in the current language, as Player.get_title_display gives it."""
        return str(dict(Player.Title.choices).get(self.title, self.title))


@dataclass(eq=False, slots=True)
class EntryRow:
    """An entry as the big tables read it: a plain row, not three model instances (a 1,000-player open's standings
    and wallchart have a thousand). The same attributes as an Entry read by entries_with_clubs, as far as those
    pages read them; two rows are the same entry only if they are the same object (one read)."""

    pk: int
    start_number: int
    rating: int | None
    withdrawn_after_round: int | None
    player_id: int | None
    team_id: int | None
    name: str  # the public name: a player's (initials when anonymised) or the team's
    player: PlayerRow | None
    club_display: ClubRow | None

    @property
    def id(self) -> int:
        return self.pk


def entry_rows(event: Event) -> list[EntryRow]:
    """The event's entries as plain rows, in start order, each with its club as entries_with_clubs gives it (a
    team's club, or the club of the player's first recorded membership)."""
    clubs: dict[int, ClubRow] = {}

    def club_row(pk: int | None, slug: str, name: str, short_name: str) -> ClubRow | None:
        if pk is None:
            return None
        club = clubs.get(pk)
        if club is None:
            club = clubs[pk] = ClubRow(pk, slug, name, short_name)
        return club

    first_club: dict[int, ClubRow | None] = {}  # player id -> the club of the player's first membership
    memberships = ClubMembership.objects.filter(player__in=event.entries.values("player_id")).order_by("id")
    club_fields = ("club_id", "club__slug", "club__name", "club__short_name")
    for player_id, *club in memberships.values_list("player_id", *club_fields):
        if player_id not in first_club:
            first_club[player_id] = club_row(*club)
    fields = [
        *("pk", "start_number", "rating", "withdrawn_after_round", "player_id", "team_id", "player__name"),
        *("player__anonymised", "player__title", "player__federation", "player__birth_year", "player__sex"),
        *("team__name", "team__club_id", "team__club__slug", "team__club__name", "team__club__short_name"),
    ]
    out = []
    for row in event.entries.order_by("start_number").values_list(*fields):
        pk, number, rating, withdrawn, player_id, team_id, player_name, anonymised, title, federation = row[:10]
        birth_year, sex, team_name, *team_club = row[10:]
        if team_id is not None:
            player, name, club = None, team_name, club_row(*team_club)
        elif player_id is not None:
            player = PlayerRow(player_id, title, federation, birth_year, sex)
            name, club = (initials(player_name) if anonymised else player_name), first_club.get(player_id)
        else:
            raise RuntimeError("an entry is a player's or a team's")
        out.append(EntryRow(pk, number, rating, withdrawn, player_id, team_id, name, player, club))
    return out


# ---------------------------------------------------------------------------------------- results


def _points(code: str | None, event: Event) -> Decimal:
    if code in ("1", "+", "F", "U"):
        return event.points_win
    if code in ("=", "H", "?"):
        return event.points_draw
    return event.points_loss if code == "0" else Decimal(0)


def _scorer(event: Event) -> Callable[[str | None], Decimal]:
    """The points of a TRF code in an individual event: the pairing-allocated bye is worth what the event's
    pairing settings say (an imported file's BBU or 162, the organiser's setting), read once, when one is met."""
    pab: list[Decimal | None] = []

    def points(code: str | None) -> Decimal:
        if code != "U":
            return _points(code, event)
        if not pab:
            pab.append(PairingSettings.objects.filter(event_id=event.pk).values_list("pab_points", flat=True).first())
        return event.points_win if pab[0] is None else pab[0]

    return points


@dataclass(frozen=True, slots=True)
class CellGame:
    """A round cell's game as the pages read it: its id (the game's page) and its result (a bye's kind), a plain
    row, not a model instance (a 1,000-player open's wallchart has thousands)."""

    pk: int
    result: str

    @property
    def id(self) -> int:
        return self.pk

    def get_result_display(self) -> str:
        """The result's name in the current language, as Game.get_result_display gives it."""
        return str(dict(Result.choices).get(self.result, self.result))


@dataclass
class RoundCell:
    """One round of one entry: opponent (or none), colour, the result as its own score."""

    round: int
    code: str  # the entry's TRF code: 1 = 0 + - U F H Z ?
    result: str  # the stored result code
    points: Decimal
    opponent: "Entry | EntryRow | None" = None  # a row when the page read the entries as rows
    colour: str = ""  # "w" / "b" / ""
    game: CellGame | None = None
    moves: bool = False  # the game has moves (a PGN): its result links to the game's page

    @property
    def symbol(self) -> str:
        return {"1": "1", "=": "½", "0": "0", "+": "+", "-": "−", "?": "?", "U": "+", "F": "+", "H": "½", "Z": "0"}.get(
            self.code, ""
        )

    @property
    def is_bye(self) -> bool:
        return self.opponent is None

    @property
    def pending(self) -> bool:
        return self.code == ""

    @property
    def is_forfeit(self) -> bool:
        return self.code in ("+", "-")


def individual_rounds(
    event: Event, entries: Iterable[Entry | EntryRow] | None = None, *, of_entry: int | None = None
) -> tuple[list[Round], dict[int, dict[int, RoundCell]]]:
    """Every round of an individual event and, per entry id, its cell of each played round (`of_entry`: the
    cells of the games of the entry of that id only). The opponents are the given entries (with their players;
    model instances or plain rows) when the caller has them already, else read once: one row per game, not five
    model instances per game (a 1,000-player open has thousands)."""
    rounds = list(event.rounds.order_by("number"))
    round_of = {rnd.pk: rnd for rnd in rounds}
    if entries is None:
        entries = event.entries.select_related("player")
    entry_of = {entry.pk: entry for entry in entries}
    # a cell's game is read for its result only (a bye's kind): one plain row each, not a model instance
    games = (
        Game.objects.filter(round__event=event)
        .annotate(has_moves=Exists(GamePgn.objects.filter(game=OuterRef("pk"))))
        .order_by("round__number", "board")
    )
    if of_entry is not None:
        games = games.filter(Q(white_id=of_entry) | Q(black_id=of_entry))
    cells: dict[int, dict[int, RoundCell]] = defaultdict(dict)
    points = _scorer(event)
    rows = games.values_list("pk", "round_id", "white_id", "black_id", "result", "has_moves")
    black_code: str | None
    for pk, round_id, white_id, black_id, result, moves in rows:
        game = CellGame(pk, result)
        white = entry_of[white_id]
        number = round_of[round_id].number
        if result == Result.PENDING:
            # paired, not played yet: readers look up tonight's opponent before the result exists
            white_code = black_code = ""
        else:
            white_code, black_code = TRF_CODES[result]
        if black_id is None:
            cells[white_id][number] = RoundCell(number, white_code, result, points(white_code), game=game)
            continue
        black = entry_of[black_id]
        if black_code is None:
            raise RuntimeError("a game with two players has a code for each")
        cells[white_id][number] = RoundCell(
            number, white_code, result, points(white_code), opponent=black, colour="w", game=game, moves=moves
        )
        cells[black_id][number] = RoundCell(
            number, black_code, result, points(black_code), opponent=white, colour="b", game=game, moves=moves
        )
    return rounds, cells


def player_games(player: Player) -> Q:
    """The filter of the games `player` played: as an individual event's entry (white or black) or on a team's
    board. The player's entries are read first, so each side is found by its column's index (a join to the entries
    in the filter read every game of the site, a player's page slowing as the site's history grows)."""
    entries = list(Entry.objects.filter(player=player).order_by().values_list("pk", flat=True))
    return Q(white_id__in=entries) | Q(black_id__in=entries) | Q(white_player=player) | Q(black_player=player)


def game_ids_with_moves(game_ids: Iterable[int]) -> set[int]:
    """Which of these games have moves (a PGN): their results link to the games' pages."""
    return set(GamePgn.objects.filter(game_id__in=list(game_ids)).values_list("game_id", flat=True).distinct())


def round_points(event: Event) -> dict[int, dict[int, Decimal]]:
    """Per entry id, its points of each round with a result, read as plain rows (no model instances)."""
    out: dict[int, dict[int, Decimal]] = defaultdict(dict)
    points = _scorer(event)
    games = Game.objects.filter(round__event=event).exclude(result=Result.PENDING)
    for number, white, black, result in games.values_list("round__number", "white_id", "black_id", "result"):
        white_code, black_code = TRF_CODES[result]
        out[white][number] = points(white_code)
        if black is not None:
            out[black][number] = points(black_code)
    return out


def running_scores(points: dict[int, Decimal], rounds: int) -> list[Decimal]:
    """The score after each round from the points of each round (a round without a result adds nothing)."""
    total, out = Decimal(0), []
    for number in range(1, rounds + 1):
        total += points.get(number, 0)
        out.append(total)
    return out


def places_by_round(scores: dict[int, list[Decimal]], rounds: int) -> dict[int, list[int]]:
    """Place by points after each round (the best place among those on equal points)."""
    out: dict[int, list[int]] = {key: [] for key in scores}
    for r in range(rounds):
        column = sorted((values[r] for values in scores.values()), reverse=True)
        first: dict[Decimal, int] = {}  # score -> the first place with it
        for place, value in enumerate(column, start=1):
            first.setdefault(value, place)
        for key, values in scores.items():
            out[key].append(first[values[r]])
    return out


def completed_rounds(event: Event) -> int:
    """The last round with at least one result."""
    last = (
        Game.objects.filter(round__event=event)
        .exclude(result=Result.PENDING)
        .order_by("-round__number")
        .values_list("round__number", flat=True)
        .first()
    )
    return last or 0


def round_progress(event: Event) -> tuple[int, bool]:
    """The last round with at least one result, and whether a board of it still waits for its result (the
    standings are then after part of that round, not after it)."""
    waiting = [Result.PENDING, Result.UNKNOWN]
    rounds = (
        Game.objects.filter(round__event=event)
        .values("round__number")
        .annotate(boards=Count("pk"), waiting=Count("pk", filter=Q(result__in=waiting)))
        .order_by("-round__number")
    )
    for row in rounds:
        if row["waiting"] < row["boards"]:
            return row["round__number"], row["waiting"] > 0
    return 0, False


# ----------------------------------------------------------------------------------------- teams


@dataclass
class MatchCard:
    match: TeamMatch
    games: list[Game]
    home_points: Decimal
    away_points: Decimal
    finished: bool

    @property
    def home_score(self) -> str:
        return fmt(self.home_points)

    @property
    def away_score(self) -> str:
        return fmt(self.away_points)

    @property
    def home(self) -> Entry:
        return self.match.home

    @property
    def away(self) -> Entry:
        return self.match.away


def match_cards(
    event: Event,
    *,
    round_number: int | None = None,
    entry: Entry | None = None,
    match_id: int | None = None,
    players: bool = True,
) -> list[MatchCard]:
    """The event's match cards (or a round's, a team's, one match's) with their boards in order. `players=False`:
    the boards without their players, for what counts only the scores (the standings, the grid)."""
    matches = TeamMatch.objects.filter(round__event=event).select_related("round", "home__team", "away__team")
    if match_id is not None:
        matches = matches.filter(pk=match_id)
    if round_number is not None:
        matches = matches.filter(round__number=round_number)
    if entry is not None:
        matches = matches.filter(Q(home=entry) | Q(away=entry))
    boards = Game.objects.select_related("white_player", "black_player") if players else Game.objects.all()
    matches = matches.order_by("round__number", "id").prefetch_related(
        Prefetch("games", queryset=boards.order_by("board"))
    )
    cards = []
    for match in matches:
        games = list(match.games.all())
        home_points = away_points = Decimal(0)
        finished = bool(games)
        for game in games:
            if game.result == Result.PENDING:
                finished = False
                continue
            white_code, black_code = TRF_CODES[game.result]
            white_points, black_points = _points(white_code, event), _points(black_code, event)
            if game.white_id == match.home_id:
                home_points += white_points
                away_points += black_points
            else:
                home_points += black_points
                away_points += white_points
        cards.append(MatchCard(match, games, home_points, away_points, finished))
    return cards


def player_scores(event: Event, cards: list[MatchCard]) -> dict[int, tuple[int, Decimal]]:
    """Board results per player over the given match cards: player id -> (games, points)."""
    out: dict[int, tuple[int, Decimal]] = {}
    for card in cards:
        for game in card.games:
            if game.result == Result.PENDING:
                continue
            white_code, black_code = TRF_CODES[game.result]
            for player_id, code in ((game.white_player_id, white_code), (game.black_player_id, black_code)):
                if player_id is None:
                    continue
                games, points = out.get(player_id, (0, Decimal(0)))
                out[player_id] = (games + 1, points + _points(code, event))
    return out


def team_records(cards: list[MatchCard]) -> dict[int, tuple[int, int, int, int]]:
    """Entry id -> matches (played, won, drawn, lost) over the finished match cards."""
    out: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for card in cards:
        if not card.finished:
            continue
        for team, own, other in (
            (card.match.home_id, card.home_points, card.away_points),
            (card.match.away_id, card.away_points, card.home_points),
        ):
            record = out[team]
            record[0] += 1
            record[1 if own > other else 2 if own == other else 3] += 1
    return {team: (p, w, d, lost) for team, (p, w, d, lost) in out.items()}


def match_point_race(event: Event, cards: list[MatchCard], entries: list[Entry]) -> dict[int, list[Decimal]]:
    """Each team's match points after each round (entry id -> list by round)."""
    rounds = max((card.match.round.number for card in cards), default=0)
    gained: dict[int, dict[int, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    last_finished = 0
    for card in cards:
        if not card.finished:
            continue
        number = card.match.round.number
        last_finished = max(last_finished, number)
        for team, own, other in (
            (card.match.home_id, card.home_points, card.away_points),
            (card.match.away_id, card.away_points, card.home_points),
        ):
            if own > other:
                gained[team][number] += event.match_points_win
            elif own == other:
                gained[team][number] += event.match_points_draw
            else:
                gained[team][number] += event.match_points_loss
    rounds = min(rounds, last_finished)
    out = {}
    for entry in entries:
        total, series = Decimal(0), []
        for number in range(1, rounds + 1):
            total += gained[entry.id][number]
            series.append(total)
        out[entry.id] = series
    return out


# ---------------------------------------------------------------------------------- clubs, seasons


def search_players(query: str, limit: int = 50) -> list[Player]:
    """Players by FIDE id (all digits) or by a part of the name; never a player shown by initials."""
    players = Player.objects.filter(anonymised=False)
    if query.isdecimal():
        players = players.filter(fide_id=int(query)) if len(query) <= 12 else players.none()
    else:
        players = players.filter(name__icontains=query)
    return list(players.order_by("name")[:limit])


def clubs_list():
    return Club.objects.filter(retired=False).order_by("name")


def club_detail(*, slug: str):
    club = Club.objects.get(slug=slug)
    players = Player.objects.filter(clubmembership__club=club).distinct().order_by("name")
    teams = (
        Team.objects.filter(club=club, event__in=Event.objects.public())
        .select_related("event", "entry")
        .order_by("event__name", "name")
    )
    events = (
        Event.objects.public()
        .filter(Q(teams__club=club) | Q(entries__player__clubmembership__club=club))
        .distinct()
        .select_related("league", "season")
    )
    entries = (
        Entry.objects.filter(event__in=Event.objects.public(), player__clubmembership__club=club)
        .select_related("event", "player")
        .order_by("event__name", "start_number")
    )
    return club, list(players), list(teams), list(events), list(entries)


def season_detail(*, league_slug: str, season_slug: str):
    season = Season.objects.select_related("league").get(league__slug=league_slug, slug=season_slug)
    events = list(Event.objects.public().filter(season=season, archived=False).order_by("kind", "name"))
    return season, events


def seasons_list():
    return Season.objects.select_related("league").order_by("league__name", "-starts_on")


@dataclass(eq=False, slots=True)
class BoardEntry:
    """A board's player as a round's page shows it: a plain row (the link to the player's page, the rating)."""

    pk: int
    start_number: int
    rating: int | None
    withdrawn_after_round: int | None
    team_id: int | None
    name: str  # the public name (initials when anonymised)

    @property
    def id(self) -> int:
        return self.pk


@dataclass(eq=False, slots=True)
class BoardRow:
    """A game of a round as its page shows it: a plain row, not five model instances (a 1,000-player open's round
    has 500 boards)."""

    pk: int
    board: int
    result: str
    white_id: int
    black_id: int | None
    white: BoardEntry
    black: BoardEntry | None

    @property
    def id(self) -> int:
        return self.pk

    def get_result_display(self) -> str:
        """The result's name in the current language, as Game.get_result_display gives it."""
        return str(dict(Result.choices).get(self.result, self.result))


def round_boards(rnd: Round) -> list[BoardRow]:
    """A round's games (of an individual event), by board, each with its players, as plain rows."""
    side = ("start_number", "rating", "withdrawn_after_round", "team_id", "player__name", "player__anonymised")
    fields = ["pk", "board", "result", "white_id", "black_id"]
    fields += [f"white__{name}" for name in side] + [f"black__{name}" for name in side]
    entries: dict[int, BoardEntry] = {}

    def entry(pk: int | None, number, rating, withdrawn, team_id, name, anonymised) -> BoardEntry | None:
        if pk is None:
            return None
        known = entries.get(pk)
        if known is None:
            shown = initials(name) if anonymised else name
            known = entries[pk] = BoardEntry(pk, number, rating, withdrawn, team_id, shown)
        return known

    out = []
    for pk, board, result, white_id, black_id, *players in rnd.games.order_by("board").values_list(*fields):
        white = entry(white_id, *players[:6])
        if white is None:
            raise RuntimeError("a game has a white player")
        out.append(BoardRow(pk, board, result, white_id, black_id, white, entry(black_id, *players[6:])))
    return out


def round_corrections(rnd) -> list:
    """Corrected results of a round, newest first, with what each changed in the standings."""
    return list(ResultChange.objects.filter(game__round=rnd).exclude(before="").select_related("game").order_by("-at"))


def round_sheet_games(event: Event, number: int, *, players: bool = True) -> list[Game]:
    """The games of round `number` that are not a match's board, by board, each with its players (entries, people,
    teams; not with `players=False`: a sheet saved reads only its boards' results) and the one round and `event` they
    share: a 500-board sheet read the event once per game before."""
    rnd = Round.objects.filter(event=event, number=number).first()
    if rnd is None:
        return []
    rnd.event = event
    boards = rnd.games.filter(match__isnull=True).order_by("board")
    if players:
        boards = boards.select_related("white__player", "black__player", "white__team", "black__team")
    games = list(boards)
    for game in games:
        game.round = rnd
    return games


def event_stamp(*, slug: str) -> str | None:
    """A stamp that changes with every new snapshot, result or policy change; None if no such event."""
    row = (
        Event.objects.public()
        .filter(slug=slug)
        .values_list(
            "pk",
            "results_version",
            "snapshot__version",
            "snapshot__computed_at",
            "rule_set",
            "tiebreak_criteria",
            "status",
            "name",
        )
        .first()
    )
    if row is None:
        return None
    pk, results_version, version, computed_at, *policy = row
    stamp = computed_at.timestamp() if computed_at else 0
    digest = hashlib.sha1(repr(policy).encode(), usedforsecurity=False).hexdigest()[:12]
    return f"db:{pk}:{results_version}:{version}:{stamp}:{digest}"


def unconfirmed_matches(cards: list[MatchCard]) -> list[TeamMatch]:
    """The cards' team matches entered but not confirmed (yet, or disputed): standings are provisional."""
    return [
        card.match for card in cards if card.match.status in (TeamMatch.Status.SUBMITTED, TeamMatch.Status.DISPUTED)
    ]


def corrections_visible_to(user, limit: int = 50) -> list:
    """Corrections of entered results that someone else made and this user answers for: any game of a league
    they organise, or a game where a club they are secretary of plays (a player's membership or a team).
    The newest first, for the dashboard (and the email once there is one)."""
    if not user or not user.is_authenticated:
        return []
    leagues, clubs = organised_league_ids(user), secretary_club_ids(user)
    if not (leagues or clubs or user.is_superuser):
        return []
    changes = ResultChange.objects.exclude(before="").exclude(user=user)
    if not user.is_superuser:
        changes = changes.filter(
            Q(game__round__event__league__in=leagues)
            | Q(game__white__player__clubmembership__club__in=clubs)
            | Q(game__black__player__clubmembership__club__in=clubs)
            | Q(game__white__team__club__in=clubs)
            | Q(game__black__team__club__in=clubs)
        )
    return list(
        changes.distinct()
        .select_related("user", "game__round__event", "game__white__player", "game__black__player")
        .order_by("-at", "-id")[:limit]
    )


# --- knock-out cups (leagues/services/cups.py draws and advances them) -------------------------------------------


def cup_round_name(number: int, rounds: int) -> str:
    """A cup round's name as cups say it: the final, the semi-finals, the quarter-finals, else its number."""
    from django.utils.translation import gettext as _

    left = rounds - number
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semi-finals")
    if left == 2:
        return _("Quarter-finals")
    return _("Round %(number)s") % {"number": number}


def cup_board_points(event: Event, home_id: int, games: list[Game]) -> list[tuple[Fraction, Fraction]] | None:
    """A cup match's (home, away) game points per board in board order; None until every board has its result."""
    if not games or any(g.result in (Result.PENDING, Result.UNKNOWN) for g in games):
        return None
    win, draw, loss = Fraction(event.points_win), Fraction(event.points_draw), Fraction(event.points_loss)
    worth = {"1": win, "+": win, "=": draw}
    out = []
    for game in sorted(games, key=lambda g: g.board):
        white_code, black_code = TRF_CODES[game.result]
        white, black = worth.get(white_code, loss), worth.get(black_code or "", loss)
        out.append((white, black) if game.white_id == home_id else (black, white))
    return out


@dataclass
class BracketSide:
    entry: Entry | None  # None: not known yet (the winner of an earlier tie), or a bye
    seed: int | None = None
    points: str = ""  # game points on the card, once every board has its result
    goes_through: bool = False


@dataclass
class BracketTie:
    position: int
    home: BracketSide
    away: BracketSide | None  # None: a bye
    match: TeamMatch | None = None
    tie_id: int | None = None
    games: list[Game] = field(default_factory=list)  # an individual cup's tie: its games in board order
    decided_by: str = ""  # CupTie.DecidedBy
    decided_by_label: str = ""
    decider: dict | None = None  # {"white": Entry, "result", "armageddon", "white_player", "black_player"}


@dataclass
class BracketRound:
    number: int
    name: str
    date: object
    ties: list[BracketTie]


@dataclass
class Bracket:
    cup: "Cup | None"  # None before the draw
    rounds: list[BracketRound]
    champion: Entry | None = None


def cup_bracket(event: Event) -> Bracket:
    """The cup's bracket, round by round: each tie's teams with their seeds, the card's score, who goes through and
    why, the decider game; the rounds not made yet with their places ("winner of ..." is not known yet)."""
    from .models import Cup, CupTie

    cup = Cup.objects.filter(event=event).first()
    if cup is None:
        return Bracket(cup=None, rounds=[])
    rounds = list(event.rounds.order_by("number"))
    ties = list(
        CupTie.objects.filter(cup=cup)
        .select_related(
            "home__team",
            "away__team",
            "winner__team",
            "match",
            "decider_white__team",
            "decider_white_player",
            "decider_black_player",
        )
        .order_by("round_number", "position")
    )
    games: dict[object, list[Game]] = defaultdict(list)  # match id, or (round, the two players' entries)
    for game in Game.objects.filter(round__event=event, black__isnull=False).order_by("board"):
        games[game.match_id or (game.round_id, frozenset((game.white_id, game.black_id)))].append(game)
    round_ids = {rnd.number: rnd.pk for rnd in rounds}
    first_round = [t for t in ties if t.round_number == 1]
    labels = dict(CupTie.DecidedBy.choices)
    out: list[BracketRound] = []
    for rnd in rounds:
        places = max(len(first_round) >> (rnd.number - 1), 1)
        made = {t.position: t for t in ties if t.round_number == rnd.number}
        rows = []
        for position in range(1, places + 1):
            tie = made.get(position)
            if tie is None:
                rows.append(BracketTie(position=position, home=BracketSide(None), away=BracketSide(None)))
                continue
            pair = (round_ids.get(rnd.number), frozenset((tie.home_id, tie.away_id)))
            played = games.get(tie.match_id or pair, [])
            points = cup_board_points(event, tie.home_id, played)
            home = BracketSide(tie.home, tie.home_seed, goes_through=tie.winner_id == tie.home_id)
            away = None
            if tie.away_id is not None:
                away = BracketSide(tie.away, tie.away_seed, goes_through=tie.winner_id == tie.away_id)
                if points is not None:
                    home.points = fmt(float(sum(p[0] for p in points)))
                    away.points = fmt(float(sum(p[1] for p in points)))
            decider = None
            if tie.decider_result:
                decider = {
                    "white": tie.decider_white,
                    "result": tie.decider_result,
                    "armageddon": tie.decider_armageddon,
                    "white_player": tie.decider_white_player,
                    "black_player": tie.decider_black_player,
                }
            rows.append(
                BracketTie(
                    position=position,
                    home=home,
                    away=away,
                    match=tie.match,
                    tie_id=tie.pk,
                    games=[] if tie.match_id else played,
                    decided_by=tie.decided_by,
                    decided_by_label=str(labels.get(tie.decided_by, "")) if tie.decided_by else "",
                    decider=decider,
                )
            )
        out.append(BracketRound(rnd.number, cup_round_name(rnd.number, len(rounds)), rnd.date, rows))
    final = [t for t in ties if t.round_number == len(rounds)]
    champion = final[0].winner if len(final) == 1 and final[0].winner_id else None
    return Bracket(cup=cup, rounds=out, champion=champion)
