"""Clubs' ranking lists: a team's list as its club's secretary submits it (each club member gets a place, or none),
and the organiser's view of every list of a season; services.ranking_lists decides what may change when."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import PermissionDenied, ServiceError
from ..models import League, Team
from ..permissions import is_league_organiser
from ..services.league_rules import season_teams
from ..services.ranking_lists import can_edit, club_members_for, ranking_list, ranking_list_set


class RankingListForm(forms.Form):
    """One place field per player the list may hold: 1 for the top, blank for a player not on the list."""

    def __init__(self, *args, players, listed, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        for player in players:
            self.fields[f"place_{player.pk}"] = forms.IntegerField(
                label=player.public_name, required=False, min_value=1, initial=listed.get(player.pk)
            )

    def clean(self):
        data = super().clean()
        if data is None:
            raise RuntimeError("Form.clean returns cleaned_data")
        places = [(data.get(f"place_{p.pk}"), p) for p in self.players]
        chosen = sorted((place, p.name, p) for place, p in places if place is not None)
        numbers = [place for place, _name, _p in chosen]
        if len(set(numbers)) != len(numbers):
            raise forms.ValidationError(gettext_lazy("Two players have the same place."))
        data["players"] = [p for _place, _name, p in chosen]
        return data


@login_required
def team_ranking_list(request, team_id):
    team = get_object_or_404(Team.objects.select_related("event__season", "event__league", "club"), pk=team_id)
    if not can_edit(request.user, team):
        raise DjangoPermissionDenied
    entries = ranking_list(team)
    listed = {e.player_id: e.position for e in entries}
    form = RankingListForm(request.POST or None, players=club_members_for(team), listed=listed)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                ranking_list_set(team=team, user=request.user, players=form.cleaned_data["players"])
            except PermissionDenied:
                raise DjangoPermissionDenied from None
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Ranking list saved."))
                return redirect("manage:ranking-list", team_id=team.pk)
    context = {
        "team": team,
        "league": team.event.league,
        "season": team.event.season,
        "entries": entries,
        "form": form,
        "organiser": is_league_organiser(request.user, team.event.league_id),
    }
    return render(request, "leagues/manage/ranking_list.html", context, status=status)


@login_required
def season_ranking_lists(request, slug, season_id):
    league = get_object_or_404(League, slug=slug)
    if not is_league_organiser(request.user, league.pk):
        raise DjangoPermissionDenied
    season = get_object_or_404(league.seasons, pk=season_id)
    event = season.events.filter(kind="team").first()
    teams = [(team, ranking_list(team)) for team in season_teams(event)] if event is not None else []
    return render(
        request,
        "leagues/manage/ranking_lists.html",
        {"league": league, "season": season, "teams": teams},
    )


urlpatterns = [
    path("teams/<int:team_id>/ranking-list/", team_ranking_list, name="ranking-list"),
    path("leagues/<slug:slug>/seasons/<int:season_id>/ranking-lists/", season_ranking_lists, name="ranking-lists"),
]
