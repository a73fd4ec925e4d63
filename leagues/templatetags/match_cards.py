"""A public team match card read from the home team's side: each board's home and away player, its result with the
home team's score first, and whether the match has any result yet."""

from django import template

from ..models import Result
from ..text import home_result_labels

register = template.Library()

_HOME_WHITE = {
    Result.WHITE_WINS: "home_win",
    Result.DRAW: "draw",
    Result.BLACK_WINS: "away_win",
    Result.WHITE_WINS_FORFEIT: "home_forfeit_win",
    Result.BLACK_WINS_FORFEIT: "away_forfeit_win",
    Result.DOUBLE_FORFEIT: "double_forfeit",
}
_SWAPPED = {"home_win": "away_win", "away_win": "home_win", "home_forfeit_win": "away_forfeit_win"}
_SWAPPED |= {value: key for key, value in _SWAPPED.items()}


@register.filter
def home_plays_white(game, match) -> bool:
    return game.white_id == match.home_id


@register.filter
def home_result(game, match) -> str:
    """'1-0' when the home player won, whatever their colour; '' while the board has no result."""
    if game.result == Result.PENDING:
        return ""
    key = _HOME_WHITE.get(game.result)
    if key is None:
        return game.get_result_display()
    if not home_plays_white(game, match):
        key = _SWAPPED.get(key, key)
    return home_result_labels()[key]


@register.filter
def has_results(card) -> bool:
    """A match with a result on at least one board (before that, no score: not 0-0)."""
    return any(game.result != Result.PENDING for game in card.games)
