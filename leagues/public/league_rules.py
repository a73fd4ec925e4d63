"""The public page of a league's rules for match cards: each rule in the reader's language, warning or block,
its penalty and where it applies (services.league_rules words them)."""

from django.shortcuts import get_object_or_404, render
from django.urls import path

from ..models import League
from ..services.league_rules import league_rules, rule_sentence


def league_rules_page(request, league):
    league_ = get_object_or_404(League, slug=league)
    rules = [(rule, rule_sentence(rule)) for rule in league_rules(league_)]
    return render(request, "leagues/league_rules.html", {"league": league_, "rules": rules})


urlpatterns = [path("leagues/<slug:league>/rules/", league_rules_page, name="league-rules")]
