"""Eligibility warnings for team match cards: data for the card form and the organiser's report.

Warnings never block a card; they say what an organiser should look at. Each is a
:class:`CardWarning` with a stable ``code``, the board, the player, the side and ``params``
(numbers and ids, no prose; the pages word them).

Codes:

* ``not_on_roster``: the player is not on the team's roster. params: ``entry``.
* ``board_order``: the player sits below a team-mate rated more than ``board_order_tolerance``
  points lower (every such pair, the warning on the lower board). params: ``above_board``,
  ``above_player``, ``rating``, ``above_rating``, ``difference``, ``tolerance``. Unrated players
  are not compared.
* ``player_twice_on_card``: the same player on two boards of one card. params: ``boards``.
* ``played_for_higher_team``: the player has played, in an earlier round of this division, for a
  higher team of the same club. params: ``other_entry``, ``rounds``.
* ``two_teams_of_club``: the player also plays for another team of the same club in this
  division (any other appearance: a lower team, a later round, or another card of the same
  round, even an unplayed one). params: ``other_entry``, ``rounds``.

Decisions:

* "Played" means named on a board whose result is recorded, except a board the player's own
  side lost by forfeit (the player did not appear). Cards of the same round count even
  unplayed: one player cannot play for two teams on one match day.
* Which team of a club is higher: the number at the end of the team's name ("Oslo SK 1" above
  "Oslo SK 2"; Roman numerals too; no number = 1); teams with the same number: the stronger
  roster (mean rating of its first ``event.boards`` rated players) is higher; then start number.
* The tolerance is a keyword (default 100 rating points) for a league without its own rule: a league (or a
  division) that sets a board-order rule (services.league_rules: its tolerance or a fixed order, a warning or a
  block) has the card pages word the board order by that rule only.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..models import Entry, Event, Game, Player, Result, Team, TeamMatch

NOT_ON_ROSTER = "not_on_roster"
BOARD_ORDER = "board_order"
PLAYER_TWICE_ON_CARD = "player_twice_on_card"
PLAYED_FOR_HIGHER_TEAM = "played_for_higher_team"
TWO_TEAMS_OF_CLUB = "two_teams_of_club"

DEFAULT_BOARD_ORDER_TOLERANCE = 100

HOME, AWAY = "home", "away"

#: a player named on a proposed line-up: the Player, their id (a form's text too) or nobody
LineupPlayer = Player | int | str | None


@dataclass(frozen=True)
class CardWarning:
    code: str
    board: int | None
    player_id: int | None
    entry_id: int | None
    side: str | None  # "home" or "away"
    match_id: int | None = None
    params: dict[str, object] = field(default_factory=dict, hash=False)


# a side that lost the board by forfeit did not appear there
_OWN_FORFEIT = {
    "white": {Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT},
    "black": {Result.WHITE_WINS_FORFEIT, Result.DOUBLE_FORFEIT},
}

_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10}


def team_level(name: str) -> int:
    """The number at the end of a team's name: "Oslo SK 2" -> 2, "Oslo SK II" -> 2, "Oslo SK" -> 1."""
    match = re.search(r"(\d+)\s*$", name)
    if match:
        return int(match.group(1))
    match = re.search(r"\b([IVX]+)\s*$", name)
    if match and match.group(1) in _ROMAN:
        return _ROMAN[match.group(1)]
    return 1


@dataclass
class _Appearance:
    player_id: int
    entry_id: int
    round_number: int
    match_id: int | None
    played: bool  # result recorded and not the player's own forfeit


@dataclass
class _Division:
    event: Event
    entries: dict[int, Entry]
    roster: dict[int, list[int]]
    club: dict[int, int]
    rank: dict[int, tuple[int, int, int]]
    appearances: dict[int, list[_Appearance]]  # by player


def _team(entry: Entry) -> Team:
    if entry.team is None:
        raise RuntimeError("a division's entries are teams")
    return entry.team


def _division(event: Event) -> _Division:
    entries = {
        e.pk: e
        for e in Entry.objects.filter(event=event, team__isnull=False)
        .select_related("team")
        .prefetch_related("team__members__player")
    }
    roster = {pk: [m.player_id for m in _team(e).members.all()] for pk, e in entries.items()}
    club = {pk: _team(e).club_id for pk, e in entries.items()}

    def strength(entry: Entry) -> int:
        rated = [m.player.rating for m in _team(entry).members.all() if m.player.rating is not None][: event.boards]
        return sum(rated) // len(rated) if rated else 0

    rank = {pk: (team_level(_team(e).name), -strength(e), e.start_number) for pk, e in entries.items()}
    appearances: dict[int, list[_Appearance]] = defaultdict(list)
    rows = Game.objects.filter(round__event=event, match__isnull=False).values_list(
        "round__number", "match_id", "white_id", "black_id", "white_player_id", "black_player_id", "result"
    )
    for number, match_id, white, black, white_player, black_player, result in rows:
        for colour, entry_id, player_id in (("white", white, white_player), ("black", black, black_player)):
            if player_id is None or entry_id is None:
                continue
            played = result not in (Result.PENDING, Result.UNKNOWN) and result not in _OWN_FORFEIT[colour]
            appearances[player_id].append(_Appearance(player_id, entry_id, number, match_id, played))
    return _Division(event, entries, roster, club, rank, appearances)


def _player_id(player: LineupPlayer) -> int | None:
    if player is None:
        return None
    return player.pk if isinstance(player, Player) else int(player)


def _current_lineup(match: TeamMatch) -> dict[int, tuple[int | None, int | None]]:
    lineup = {}
    for game in match.games.all():
        if game.white_id == match.home_id:
            lineup[game.board] = (game.white_player_id, game.black_player_id)
        else:
            lineup[game.board] = (game.black_player_id, game.white_player_id)
    return lineup


def _card_warnings(
    division: _Division, match: TeamMatch, lineup: Mapping[int, tuple[LineupPlayer, LineupPlayer]], tolerance: int
) -> list[CardWarning]:
    ids = {board: (_player_id(h), _player_id(a)) for board, (h, a) in lineup.items()}
    everyone = {p for pair in ids.values() for p in pair if p is not None}
    ratings = dict(Player.objects.filter(pk__in=everyone).values_list("pk", "rating"))
    round_number = match.round.number
    warnings: list[CardWarning] = []
    for side, index, entry_id in ((HOME, 0, match.home_id), (AWAY, 1, match.away_id)):
        boards = sorted((board, player) for board, pair in ids.items() if (player := pair[index]) is not None)

        def warn(
            code: str, board: int, player_id: int, _side: str = side, _entry: int = entry_id, **params: object
        ) -> None:
            warnings.append(CardWarning(code, board, player_id, _entry, _side, match.pk, params))

        roster = set(division.roster.get(entry_id, []))
        seen: dict[int, list[int]] = defaultdict(list)
        for board, player_id in boards:
            seen[player_id].append(board)
        for board, player_id in boards:
            if player_id not in roster:
                warn(NOT_ON_ROSTER, board, player_id, entry=entry_id)
            if len(seen[player_id]) > 1 and board != seen[player_id][0]:
                warn(PLAYER_TWICE_ON_CARD, board, player_id, boards=seen[player_id])
        for i, (board, player_id) in enumerate(boards):
            rating = ratings.get(player_id)
            if rating is None:
                continue
            for above_board, above_id in boards[:i]:
                above = ratings.get(above_id)
                if above is not None and rating - above > tolerance:
                    warn(
                        BOARD_ORDER,
                        board,
                        player_id,
                        above_board=above_board,
                        above_player=above_id,
                        rating=rating,
                        above_rating=above,
                        difference=rating - above,
                        tolerance=tolerance,
                    )
        for board, player_id in boards:
            if board != seen[player_id][0]:
                continue
            _club_warnings(division, match, round_number, entry_id, board, player_id, warn)
    return warnings


def _club_warnings(
    division: _Division,
    match: TeamMatch,
    round_number: int,
    entry_id: int,
    board: int,
    player_id: int,
    warn: Callable[..., None],
) -> None:
    club = division.club.get(entry_id)
    higher: dict[int, set[int]] = defaultdict(set)
    other: dict[int, set[int]] = defaultdict(set)
    for a in division.appearances.get(player_id, []):
        if a.match_id == match.pk or a.entry_id == entry_id or division.club.get(a.entry_id) != club:
            continue
        if a.round_number == round_number or a.played:
            if a.played and a.round_number < round_number and division.rank[a.entry_id] < division.rank[entry_id]:
                higher[a.entry_id].add(a.round_number)
            else:
                other[a.entry_id].add(a.round_number)
    for other_entry, rounds in sorted(higher.items()):
        warn(PLAYED_FOR_HIGHER_TEAM, board, player_id, other_entry=other_entry, rounds=sorted(rounds))
    for other_entry, rounds in sorted(other.items()):
        if other_entry in higher:
            rounds = rounds - higher[other_entry]
            if not rounds:
                continue
        warn(TWO_TEAMS_OF_CLUB, board, player_id, other_entry=other_entry, rounds=sorted(rounds))


def match_card_warnings(
    *,
    match: TeamMatch,
    lineup: Mapping[int, tuple[LineupPlayer, LineupPlayer]] | None = None,
    board_order_tolerance: int = DEFAULT_BOARD_ORDER_TOLERANCE,
) -> list[CardWarning]:
    """Warnings for one match card: ``lineup`` = proposed {board: (home player, away player)}
    (Player, id or None), or the card's current games when not given."""
    match = TeamMatch.objects.select_related("round__event").get(pk=match.pk)
    division = _division(match.round.event)
    if lineup is None:
        lineup = _current_lineup(match)
    return _card_warnings(division, match, lineup, board_order_tolerance)


def division_warnings(*, event: Event, board_order_tolerance: int = DEFAULT_BOARD_ORDER_TOLERANCE) -> list[CardWarning]:
    """Every card's warnings in the division, by round and match (the organiser's report)."""
    division = _division(event)
    warnings: list[CardWarning] = []
    matches = (
        TeamMatch.objects.filter(round__event=event)
        .select_related("round")
        .prefetch_related("games")
        .order_by("round__number", "pk")
    )
    for match in matches:
        warnings.extend(_card_warnings(division, match, _current_lineup(match), board_order_tolerance))
    return warnings
