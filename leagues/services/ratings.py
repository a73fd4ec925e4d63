"""A player's rated games, points, performance and rating change per event: one rule for the player pages and
the profile. The arithmetic is FIDE's (tiebreaks.engine.rating_change); this module says which games count.

Rated: a game played over the board (1-0, ½-½, 0-1; never a forfeit or a bye) against a rated opponent, by a
rated player, each with the rating of that round: the rating at the start of the event until a newer rating list
applied (an individual event's ``EntryRating`` rows, FIDE's 2026 checklist: ratings per round). A team event's
board players have theirs in ``MemberRating`` rows (from round 1: the rating at the start, recorded with the
roster; later rounds: a newer list); a player without one counts with the registry's rating under the event's
rating method.
K (tiebreaks.engine.rating_change.development_coefficient):
the K the registry copied from FIDE's list when it has one; else 40 for a new player (fewer than 30 games on
FIDE's list, the registry's `fide_games`), 10 from 2400 (and for GM and IM titles, which need 2400), 40 up to
the year of the 18th birthday below 2300 (the birth year stays private: only K shows it), else 20; limited to
700 / games. A player whose rated games the registry does not know counts as established (30 games or more),
and the pages say so next to K.
"""

import dataclasses
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import cast

from tiebreaks.engine import EngineError
from tiebreaks.engine.criteria import RATING_CRITERIA, parse_criterion
from tiebreaks.engine.rating_change import (
    DevelopmentCoefficient,
    EventRating,
    RatedGame,
    development_coefficient,
    event_rating,
    game_change,
)

from ..models import TRF_CODES, Entry, EntryRating, Event, Game, MemberRating, Player, Result
from ..selectors import player_games

SCORES = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0)}
POINTS_2400 = {Player.Title.GM, Player.Title.IM}


@dataclass
class PlayedGame:
    """One of the player's games of an event, as the profile lists it."""

    game: Game
    round: int
    colour: str  # "w" / "b"
    opponent_name: str
    opponent_entry: Entry | None  # individual events: the opponent's entry (for the link)
    opponent_rating: int | None  # the opponent's rating in that round
    code: str  # the player's TRF code: 1 = 0 + - ...
    change: Fraction | None = None  # rating change of this game (rated games only)
    own_rating: int | None = None  # the player's rating in that round
    newer_list: bool = False  # the player's or the opponent's rating in that round is from a newer list

    @property
    def symbol(self) -> str:
        return {"1": "1", "=": "½", "0": "0", "+": "+", "-": "−"}.get(self.code, "")


@dataclass
class EventRecord:
    """The player's event: entry (individual) or team, games, points, performance and rating change."""

    event: Event
    entry: Entry | None
    team_name: str
    games: list[PlayedGame] = field(default_factory=list)
    points: Decimal = Decimal(0)
    rating: int | None = None  # at the start of the event
    rating_changes: list[tuple[int, int | None]] = field(default_factory=list)  # (from round, rating): newer lists
    result: EventRating | None = None
    k: DevelopmentCoefficient | None = None  # the K of `result`, and why


def rating_by_method(player: Player, method: str) -> int | None:
    """The player's rating an event takes from the registry under its rating method (TRF-26 record 172): FIDE,
    national (NRO), FIDE else national (FIDON), national else FIDE (NIDOF), the higher (HBFN) or the lower
    (LBFN) of the two; None: unrated under that method."""
    return rating_chosen(method, player.rating, player.rating_national)


def rating_chosen(method: str, fide: int | None, national: int | None) -> int | None:
    """The rating `method` (Event.RatingMethod, TRF-26 record 172) takes from a FIDE and a national rating (0 or
    None: none)."""
    fide, national = fide or None, national or None
    if method == Event.RatingMethod.NRO:
        return national
    if method == Event.RatingMethod.FIDON:
        return fide if fide is not None else national
    if method == Event.RatingMethod.NIDOF:
        return national if national is not None else fide
    if method in (Event.RatingMethod.HBFN, Event.RatingMethod.LBFN):
        known = [r for r in (fide, national) if r is not None]
        if not known:
            return None
        return max(known) if method == Event.RatingMethod.HBFN else min(known)
    return fide


def national_federation(event: Event) -> str:
    """The federation the event's TRF record 172 names (the league's), "" when the league names none."""
    federation = (event.league.federation or "").strip().upper()
    return federation if len(federation) == 3 and federation.isalpha() else ""


def rating_comment_lines(event: Event) -> list[str]:
    """What TRF-26 cannot hold, as ``###`` lines of the event's TRF files: the rating method when it is not FIDE's,
    the rating the rating-based tie-breaks read when it is each round's, and every newer rating from a round on
    (start number, round, rating, the list's date)."""
    lines = []
    if event.rating_method != Event.RatingMethod.FIDE and not national_federation(event):  # else record 172
        lines.append(f"### rating method: {event.rating_method}")
    if event.tiebreak_ratings == Event.TiebreakRatings.ROUND:
        lines.append("### rating-based tie-breaks: rating of each round")
    for number, from_round, rating, list_date in (
        EntryRating.objects.filter(entry__event=event)
        .order_by("entry__start_number", "from_round")
        .values_list("entry__start_number", "from_round", "rating", "list_date")
    ):
        listed = f" (list of {list_date:%Y-%m-%d})" if list_date else ""
        lines.append(f"### rating from round {from_round}: {number:4d} {rating or 0:4d}{listed}")
    return lines


def tiebreaks_written(codes: list[str], unrated_rating: int | None) -> list[str]:
    """A tie-break list as the event's TRF files (and FIDE's checker) get it: a rating-based criterion without its
    own rating for unrated players takes the event's (``/U<r>``), so FIDE's checker and another program compute
    what the site does (C.07 Article 10)."""
    if unrated_rating is None:
        return list(codes)
    written = []
    for code in codes:
        try:
            criterion = parse_criterion(code)
        except EngineError:
            written.append(code)
            continue
        if criterion.name in RATING_CRITERIA and criterion.unrated_rating is None:
            code = dataclasses.replace(criterion, unrated_rating=unrated_rating).code
        written.append(code)
    return written


def _k(player: Player, rating: int, year: int | None, games: int) -> DevelopmentCoefficient:
    return development_coefficient(
        rating=rating,
        games=games,
        games_rated=player.fide_games,
        birth_year=player.birth_year,
        year=year,
        reached_2400=player.title in POINTS_2400,
        listed_k=player.k_factor,
    )


def _points(code: str, event: Event) -> Decimal:
    if code in ("1", "+", "U", "F"):
        return event.points_win
    if code in ("=", "H"):
        return event.points_draw
    return event.points_loss if code in ("0", "-") else Decimal(0)


def player_events(player: Player, event: Event | None = None) -> list[EventRecord]:
    """Every published event the player played in (or only `event`), oldest first, with games and rating results."""
    entries = Entry.objects.filter(player=player, event__status__in=_PUBLIC)
    games = Game.objects.filter(round__event__status__in=_PUBLIC)
    if event is None:
        entries = entries.select_related("event")
        sides = ("white__player", "black__player", "white_player", "black_player", "white__team", "black__team")
        games = games.select_related("round__event__season", "round__event__league", *sides).order_by(
            "round__event__starts_on", "round__event_id", "round__number"
        )
    else:  # one event's (its player page): the event as the caller has it, not read again with every game, and
        # only the sides of its kind (each join less is less of the database's planning, most of this read's cost)
        entries, games = entries.filter(event=event), games.filter(round__event=event)
        team = ("white_player", "black_player", "white__team", "black__team")
        games = games.select_related("round", *(team if event.is_team else ("white__player", "black__player")))
        games = games.order_by("round__number")
    by_event = {e.event_id: e for e in entries.order_by()}
    played = list(games.filter(player_games(player)).exclude(result=Result.PENDING))
    if event is not None:
        for entry in by_event.values():
            entry.event = event
        for game in played:
            game.round.event = event
    entry_ids = {e.pk for e in by_event.values()} | {
        side for g in played if not g.match_id for side in (g.white_id, g.black_id) if side is not None
    }
    newer = newer_ratings_of(entry_ids)
    team_events = {g.round.event_id for g in played if g.match_id}
    boards = {p for g in played if g.match_id for p in (g.white_player_id, g.black_player_id)}
    members = member_ratings_of(team_events, boards) if team_events else {}
    records: dict[int, EventRecord] = {}
    for event_id, entry in by_event.items():
        records[event_id] = EventRecord(
            event=entry.event, entry=entry, team_name="", rating=entry.rating, rating_changes=newer.get(entry.pk, [])
        )
    for game in played:
        game_event = game.round.event
        if game_event.pk not in records:  # a team event: the player's rating of its first round, then the newer ones
            own = members.get((game_event.pk, player.pk), [])
            records[game_event.pk] = EventRecord(
                event=game_event,
                entry=None,
                team_name="",
                rating=team_rating_in_round(player, game_event, own, 1),
                rating_changes=[(r, rating) for r, rating in own if r >= 2],
            )
        record = records[game_event.pk]
        record.games.append(_played(game, player, newer, members))
        if not record.team_name and game.match_id:
            side = game.white if game.white_player_id == player.pk else game.black
            record.team_name = side.team.name if side is not None and side.team is not None else ""
    out = sorted(records.values(), key=lambda r: (r.event.starts_on is None, r.event.starts_on, r.event.pk))
    for record in out:
        _rate(record, player)
    return out


_PUBLIC = [Event.Status.PUBLISHED, Event.Status.RUNNING, Event.Status.FINISHED]


def newer_ratings_of(entry_ids: set[int]) -> dict[int, list[tuple[int, int | None]]]:
    """The entries' newer ratings, (from round, rating) in round order (entries without one left out)."""
    out: dict[int, list[tuple[int, int | None]]] = {}
    for entry_id, from_round, rating in (
        EntryRating.objects.filter(entry_id__in=entry_ids)
        .order_by("entry_id", "from_round")
        .values_list("entry_id", "from_round", "rating")
    ):
        out.setdefault(entry_id, []).append((from_round, rating))
    return out


def member_ratings_of(
    event_ids: set[int], player_ids: set[int | None]
) -> dict[tuple[int, int], list[tuple[int, int | None]]]:
    """Team events' players' ratings from a round on, (from round, rating) in round order, by (event, player)."""
    out: dict[tuple[int, int], list[tuple[int, int | None]]] = {}
    for event_id, player_id, from_round, rating in (
        MemberRating.objects.filter(event_id__in=event_ids, player_id__in=player_ids)
        .order_by("event_id", "player_id", "from_round")
        .values_list("event_id", "player_id", "from_round", "rating")
    ):
        out.setdefault((event_id, player_id), []).append((from_round, rating))
    return out


def team_rating_in_round(
    player: Player, event: Event, changes: list[tuple[int, int | None]], number: int
) -> int | None:
    """A team event's player's rating in round `number`: from the player's ``MemberRating`` rows (`changes`), before
    the first of them the registry's rating under the event's rating method."""
    return rating_in_round(rating_by_method(player, event.rating_method), changes, number)


class TeamRatings:
    """Every player's rating of one team event, round by round (the standings' crosstable, the board statistics,
    the rating report)."""

    def __init__(self, event: Event, player_ids: set[int | None]):
        self.event = event
        self.changes = {p: c for (_e, p), c in member_ratings_of({event.pk}, player_ids).items()}

    def in_round(self, player: Player, number: int) -> int | None:
        return team_rating_in_round(player, self.event, self.changes.get(player.pk, []), number)

    def newer(self, player: Player) -> list[tuple[int, int | None]]:
        """The player's ratings from a later round on (a newer rating list), (from round, rating)."""
        return [(r, rating) for r, rating in self.changes.get(player.pk, []) if r >= 2]


def rating_in_round(first: int | None, changes: list[tuple[int, int | None]], number: int) -> int | None:
    """The rating in round `number`: the last newer rating from that round or before, else `first`."""
    rating = first
    for from_round, newer in changes:
        if from_round > number:
            break
        rating = newer
    return rating


def _played(
    game: Game,
    player: Player,
    newer: dict[int, list[tuple[int, int | None]]],
    members: dict[tuple[int, int], list[tuple[int, int | None]]],
) -> PlayedGame:
    white_code, black_code = TRF_CODES[game.result]
    number = game.round.number
    own_rating: int | None
    changed = False
    if game.match_id:  # team event: the board's players, each with the rating of the round
        event = game.round.event
        is_white = game.white_player_id == player.pk
        opponent = game.black_player if is_white else game.white_player
        opponent_entry = None
        opponent_rating = own_rating = None
        for who, is_own in ((opponent, False), (player, True)):
            if who is None:
                continue
            changes = members.get((event.pk, who.pk), [])
            value = team_rating_in_round(who, event, changes, number)
            changed = changed or value != team_rating_in_round(who, event, changes, 1)
            if is_own:
                own_rating = value
            else:
                opponent_rating = value
    else:
        is_white = game.white is not None and game.white.player_id == player.pk
        own_entry = game.white if is_white else game.black
        opponent_entry = game.black if is_white else game.white
        opponent = opponent_entry.player if opponent_entry is not None else None
        opponent_rating = own_rating = None
        for entry, is_own in ((opponent_entry, False), (own_entry, True)):
            if entry is None:
                continue
            changes = newer.get(entry.pk, [])
            value = rating_in_round(entry.rating, changes, number)
            changed = changed or value != entry.rating
            if is_own:
                own_rating = value
            else:
                opponent_rating = value
    return PlayedGame(
        game=game,
        round=game.round.number,
        colour="w" if is_white else "b",
        opponent_name=opponent.public_name if opponent else "",
        opponent_entry=opponent_entry,
        opponent_rating=opponent_rating if opponent else None,
        code=(white_code if is_white else black_code) or "",
        own_rating=own_rating,
        newer_list=changed,
    )


def _rate(record: EventRecord, player: Player) -> None:
    event = record.event
    record.points = sum((_points(g.code, event) for g in record.games), Decimal(0))
    rated = [g for g in record.games if g.code in SCORES and g.opponent_rating and g.opponent_name and g.own_rating]
    if record.rating is None or not rated:
        return
    year = event.starts_on.year if event.starts_on else None
    record.k = _k(player, record.rating, year, len(rated))
    rated_games = [
        RatedGame(
            cast(int, g.opponent_rating),
            SCORES[g.code],
            own_rating=g.own_rating if g.own_rating != record.rating else None,
        )
        for g in rated
    ]
    record.result = event_rating(record.rating, rated_games, record.k.k)
    for played, rated_game in zip(rated, rated_games, strict=True):
        played.change = game_change(record.rating, rated_game, record.k.k)


def event_record(player_id: int, event: Event) -> EventRecord | None:
    """The player's record of one event (the event's player page)."""
    records = player_events(Player.objects.get(pk=player_id), event)
    return records[0] if records else None


#: FIDE publishes a rating list every month: an event longer than this may see a newer list before it ends
LONG_EVENT_DAYS = 30


def long_event_days(event: Event) -> int | None:
    """How many days the event lasts, from its start date (or first round date) to its last round date, when
    that is more than 30 (FIDE's 2026 checklist flags such events: ratings may change during them); else None."""
    dates = [d for d in event.rounds.values_list("date", flat=True) if d is not None]
    if event.starts_on is not None:
        dates.append(event.starts_on)
    if len(dates) < 2:
        return None
    days = (max(dates) - min(dates)).days + 1
    return days if days > LONG_EVENT_DAYS else None
