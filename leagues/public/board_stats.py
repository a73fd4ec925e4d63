"""Board statistics of a team division: each player's score and performance, per board and overall.

Rules (exact: Fraction for points, integers for ratings):

* Only boards with a recorded result count; "not played yet" and "result not known" do not.
* ``games`` and ``points`` are games played over the board (1-0, ½-½, 0-1) scored with the
  event's game scoring. Forfeits are not games: a forfeit win counts in ``forfeits_won`` and adds
  a win's points to ``total_points`` (what the board gave the team); a forfeit loss (also a double
  forfeit) counts in ``forfeits_lost`` and scores nothing.
* Performance: the engine's TPR and ARO (tiebreaks.engine.rating) over the games played over the
  board only, each opponent with the rating of that round (services.ratings.TeamRatings: ratings per round):
  ``opponents_rating`` = mean opponents' rating rounded half up, ``performance`` =
  that + dp(percentage) from FIDE's table 8.1(a). An unrated opponent counts with
  ``event.unrated_rating``; without it (or without a named opponent) the player's values are None,
  as are they without games.
* A player is counted for the team whose side they sat on; a player who played for two teams
  has a row for each.
* Order: per-board rows first (board, then total points, performance, games, name), then the
  overall rows (``board`` None; total points, performance, games, name).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from tiebreaks.engine.rating import average_rating, performance_rating

from ..models import Event, Game, Player, Result
from ..services.ratings import TeamRatings

# result -> (white's halves, black's halves) on the 1/½/0 scale, for games over the board
_OTB_HALVES: dict[str, tuple[int, int]] = {Result.WHITE_WINS: (2, 0), Result.DRAW: (1, 1), Result.BLACK_WINS: (0, 2)}
# result -> (white won by forfeit?, black won by forfeit?)
_FORFEITS: dict[str, tuple[bool, bool]] = {
    Result.WHITE_WINS_FORFEIT: (True, False),
    Result.BLACK_WINS_FORFEIT: (False, True),
    Result.DOUBLE_FORFEIT: (False, False),
}


@dataclass(frozen=True)
class BoardStat:
    player_id: int
    player_name: str
    rating: int | None
    entry_id: int
    board: int | None  # None: all boards
    games: int
    points: Fraction
    forfeits_won: int
    forfeits_lost: int
    total_points: Fraction
    opponents_rating: int | None
    performance: int | None


@dataclass
class _Tally:
    halves: int = 0
    points: Fraction = Fraction(0)
    forfeits_won: int = 0
    forfeits_lost: int = 0
    opponents: list[int | None] = field(default_factory=list)


def board_statistics(*, event: Event) -> list[BoardStat]:
    """Every player's score and performance per board and over all boards of the event."""
    win, draw, loss = Fraction(event.points_win), Fraction(event.points_draw), Fraction(event.points_loss)
    scoring = {2: win, 1: draw, 0: loss}
    tallies: dict[tuple[int, int, int | None], _Tally] = defaultdict(_Tally)
    rows = list(
        Game.objects.filter(round__event=event, match__isnull=False)
        .exclude(result__in=[Result.PENDING, Result.UNKNOWN])
        .values_list("board", "white_id", "black_id", "white_player_id", "black_player_id", "result", "round__number")
    )
    player_ids = {p for row in rows for p in row[3:5] if p is not None}
    players = {p.pk: p for p in Player.objects.filter(pk__in=player_ids)}
    ratings = TeamRatings(event, set(player_ids))
    fallback = event.unrated_rating

    def rating_of(player_id: int | None, number: int) -> int | None:
        if player_id is None:
            return None
        rating = ratings.in_round(players[player_id], number)
        return rating if rating is not None else fallback

    for board, white, black, white_player, black_player, result, number in rows:
        sides = ((white, white_player, black_player, 0), (black, black_player, white_player, 1))
        for entry_id, player_id, opponent_id, index in sides:
            if player_id is None or entry_id is None:
                continue
            for key in ((player_id, entry_id, board), (player_id, entry_id, None)):
                tally = tallies[key]
                if result in _OTB_HALVES:
                    halves = _OTB_HALVES[result][index]
                    tally.halves += halves
                    tally.points += scoring[halves]
                    tally.opponents.append(rating_of(opponent_id, number))
                elif result in _FORFEITS:
                    if _FORFEITS[result][index]:
                        tally.forfeits_won += 1
                    else:
                        tally.forfeits_lost += 1
    stats = []
    for (player_id, entry_id, on_board), tally in tallies.items():
        opponents = tally.opponents
        opponent_ratings = [rating for rating in opponents if rating is not None]
        rated = len(opponent_ratings) == len(opponents)
        player = players[player_id]
        stats.append(
            BoardStat(
                player_id=player_id,
                player_name=player.name,
                rating=ratings.in_round(player, 1),
                entry_id=entry_id,
                board=on_board,
                games=len(opponents),
                points=tally.points,
                forfeits_won=tally.forfeits_won,
                forfeits_lost=tally.forfeits_lost,
                total_points=tally.points + win * tally.forfeits_won,
                opponents_rating=average_rating(opponent_ratings) if rated else None,
                performance=performance_rating(opponent_ratings, tally.halves) if rated else None,
            )
        )
    stats.sort(
        key=lambda s: (
            s.board is None,
            s.board or 0,
            -s.total_points,
            -(s.performance if s.performance is not None else -10_000),
            -s.games,
            s.player_name,
            s.player_id,
        )
    )
    return stats
