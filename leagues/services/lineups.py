"""Line-ups of team match cards: the players a club may name at a board, and writing them onto the card.

A club's players for one team are its roster in board order: the first ``event.boards`` are the
team's regular players, the rest its reserves; then the club's other players, who may play but draw
the eligibility warning "not on the team's roster". Warnings never block a card
(:mod:`leagues.services.eligibility`); naming a player of another club does.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..models import Entry, Game, Player, TeamMatch


@dataclass(frozen=True)
class LineupChoice:
    player: Player
    group: str  # "roster", "reserve" or "club"
    board_order: int | None


def lineup_choices(entry: Entry) -> list[LineupChoice]:
    """Who a team may put at a board: roster (board order), reserves, then the club's other players."""
    boards = entry.event.boards
    team = entry.team
    if team is None:
        raise RuntimeError("line-ups are for team events")
    members = list(team.members.select_related("player").order_by("board_order"))
    choices = [
        LineupChoice(m.player, "roster" if index < boards else "reserve", m.board_order)
        for index, m in enumerate(members)
    ]
    on_roster = {m.player_id for m in members}
    choices += [LineupChoice(p, "club", None) for p in team.club.players.order_by("name") if p.pk not in on_roster]
    return choices


def home_is_white(game: Game, match: TeamMatch) -> bool:
    return game.white_id == match.home_id


def lineup_apply(match: TeamMatch, lineup: dict[int, tuple[int | None, int | None]]) -> None:
    """Write ``lineup`` = {board: (home player id, away player id)} onto the card's games.

    Call inside the card's transaction, with the match locked. Raises ServiceError (nothing written
    by the caller's transaction) for a board not on the card or a player who is not of the team's club.
    """
    games = {g.board: g for g in match.games.select_for_update()}
    allowed = {}
    for side, entry in (("home", match.home), ("away", match.away)):
        allowed[side] = {c.player.pk for c in lineup_choices(entry)}
    for board, (home_id, away_id) in sorted(lineup.items()):
        game = games.get(board)
        if game is None:
            raise ServiceError(_("Board %(board)s is not on this match card.") % {"board": board}, code="bad_board")
        for side, player_id in (("home", home_id), ("away", away_id)):
            if player_id is not None and player_id not in allowed[side]:
                team = match.home if side == "home" else match.away
                raise ServiceError(
                    _("Board %(board)s: this player does not play for %(team)s's club.")
                    % {"board": board, "team": team.name},
                    code="player_not_of_club",
                )
        white_id, black_id = (home_id, away_id) if home_is_white(game, match) else (away_id, home_id)
        if (game.white_player_id, game.black_player_id) != (white_id, black_id):
            game.white_player_id, game.black_player_id = white_id, black_id
            game.save(update_fields=["white_player", "black_player"])
