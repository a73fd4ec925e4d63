"""A match card and its form (line-ups from the clubs' rosters, results), for the card and dispute pages."""

from django.shortcuts import get_object_or_404

from ..models import TeamMatch
from ..services.lineups import lineup_choices
from .forms import MatchCardForm


def card_of(match_id) -> TeamMatch:
    return get_object_or_404(
        TeamMatch.objects.select_related(
            "round__event__league", "home__team__club", "away__team__club", "submitted_by", "confirmed_by", "settled_by"
        ),
        pk=match_id,
    )


def card_form(match, data=None) -> MatchCardForm:
    games = list(match.games.select_related("white_player", "black_player").order_by("board"))
    return MatchCardForm(
        data,
        match=match,
        games=games,
        home_choices=lineup_choices(match.home),
        away_choices=lineup_choices(match.away),
    )
