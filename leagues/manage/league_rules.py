"""The organiser's page of the league's rules for match cards: each rule set, changed or taken away through
services.league_rules (the same service the admin, the card page and the API use)."""

from typing import cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import ServiceError
from ..models import Event, League, LeagueRule
from ..permissions import is_league_organiser
from ..services.league_rules import league_rules, rule_delete, rule_save, rule_sentence


class RuleForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("rule"), choices=LeagueRule.Kind.choices)
    event = forms.TypedChoiceField(label=gettext_lazy("division"), coerce=int, required=False, empty_value=None)
    severity = forms.ChoiceField(label=gettext_lazy("severity"), choices=LeagueRule.Severity.choices)
    value = forms.IntegerField(
        label=gettext_lazy("value"),
        required=False,
        min_value=0,
        max_value=100000,
        help_text=gettext_lazy(
            "The tolerance in rating points, the cap, the number of appearances, reserves or women; empty for a "
            "rule without a number."
        ),
    )
    penalty = forms.ChoiceField(label=gettext_lazy("penalty"), choices=LeagueRule.Penalty.choices)

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        divisions = Event.objects.filter(league=league, kind=Event.Kind.TEAM).order_by("name")
        cast(forms.ChoiceField, self.fields["event"]).choices = [("", _("every division"))] + [
            (e.pk, e.name) for e in divisions
        ]


@login_required
def rules(request, slug):
    league = get_object_or_404(League, slug=slug)
    if not is_league_organiser(request.user, league.pk):
        raise DjangoPermissionDenied
    form = RuleForm(request.POST if request.method == "POST" and "delete" not in request.POST else None, league=league)
    status = 200
    if request.method == "POST":
        try:
            if "delete" in request.POST:
                rule = get_object_or_404(LeagueRule, league=league, pk=request.POST.get("delete", "").strip() or 0)
                rule_delete(rule=rule, user=request.user)
                messages.success(request, _("Rule taken away."))
                return redirect("manage:league-rules", slug=league.slug)
            if form.is_valid():
                data = form.cleaned_data
                event = Event.objects.filter(league=league, pk=data["event"]).first() if data["event"] else None
                rule_save(
                    league=league,
                    user=request.user,
                    kind=data["kind"],
                    event=event,
                    severity=data["severity"],
                    value=data["value"],
                    penalty=data["penalty"],
                )
                messages.success(request, _("Rule saved; the saved match cards were checked again."))
                return redirect("manage:league-rules", slug=league.slug)
            status = 400
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = 400
    listed = [(rule, rule_sentence(rule)) for rule in league_rules(league)]
    return render(
        request, "leagues/manage/league_rules.html", {"league": league, "rules": listed, "form": form}, status=status
    )


urlpatterns = [path("leagues/<slug:slug>/rules/", rules, name="league-rules")]
