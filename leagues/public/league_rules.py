"""The public page of a league's rules for match cards: each rule in the reader's language, warning or block,
its penalty and where it applies (services.league_rules words them); and each season's clubs' ranking lists,
public once the day they were due has passed (services.ranking_lists)."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils import timezone

from ..dates import league_dates
from ..models import Event, League, Season
from ..services.league_rules import league_rules, rule_sentence, season_teams
from ..services.ranking_lists import is_public, ranking_list


def league_rules_page(request, league):
    league_ = get_object_or_404(League, slug=league)
    rules = [(rule, rule_sentence(rule)) for rule in league_rules(league_)]
    lists = league_.seasons.filter(ranking_deadline__lt=timezone.localdate()).order_by("-ranking_deadline")
    return render(request, "leagues/league_rules.html", {"league": league_, "rules": rules, "ranking_seasons": lists})


def ranking_lists_page(request, league, season):
    season_ = get_object_or_404(Season.objects.select_related("league"), league__slug=league, slug=season)
    if not is_public(season_):
        raise Http404
    events = list(season_.events.filter(kind=Event.Kind.TEAM).exclude(status=Event.Status.DRAFT))
    shown = {e.pk for e in events}
    teams = [(t, ranking_list(t)) for t in season_teams(events[0]) if t.event_id in shown] if events else []
    with league_dates(season_.league):
        return render(
            request, "leagues/ranking_lists.html", {"league": season_.league, "season": season_, "teams": teams}
        )


urlpatterns = [
    path("leagues/<slug:league>/rules/", league_rules_page, name="league-rules"),
    path("leagues/<slug:league>/seasons/<slug:season>/ranking-lists/", ranking_lists_page, name="ranking-lists"),
]
