"""The organiser's page of a knock-out cup: the draw (seeding, tie resolution in order, the rounds' dates), the
bracket with each tie's card, the advance to the next round and the decider game of a level match; the rules are in
services/cups.py. A round's last confirmed card makes the next round by itself; the organiser clicks only to record
the decider game of a level match (one form, one click, which advances too), and "Advance" reads a round's cards
again after a correction."""

import re
from typing import cast

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import selectors
from ..models import Cup, CupTie, Event
from ..permissions import can_manage_event
from ..services.cups import (
    INDIVIDUAL_RESOLUTIONS,
    RESOLUTIONS,
    cup_advance,
    cup_decider_record,
    cup_draw,
    current_round,
    tie_outcome,
)
from .views import _save

NONE = [("", "—")]


class DrawForm(forms.Form):
    seeding = forms.ChoiceField(
        label=gettext_lazy("Seeding"), choices=Cup.Seeding.choices, initial=Cup.Seeding.RATING, widget=forms.RadioSelect
    )
    order = forms.CharField(
        label=gettext_lazy("Your order (start numbers, the top-seeded team first)"),
        max_length=2000,
        required=False,
        help_text=gettext_lazy("Empty: the order of the start numbers."),
    )
    first = forms.ChoiceField(label=gettext_lazy("A level match is decided first by"), required=False)
    second = forms.ChoiceField(label=gettext_lazy("then by"), required=False)
    third = forms.ChoiceField(label=gettext_lazy("then by"), required=False)
    fourth = forms.ChoiceField(label=gettext_lazy("then by"), required=False)
    starts_on = forms.DateField(
        label=gettext_lazy("First round on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    days_between = forms.IntegerField(label=gettext_lazy("Days between rounds"), min_value=0, initial=7)
    games_per_tie = forms.IntegerField(
        label=gettext_lazy("Games per tie"),
        min_value=1,
        max_value=20,
        initial=1,
        help_text=gettext_lazy("1: one game decides the tie; more: a mini-match, the colours alternating."),
    )

    def __init__(self, data=None, *, event: Event, **kwargs):
        super().__init__(data, prefix="draw", **kwargs)
        team = event.is_team
        allowed = set(RESOLUTIONS if team else INDIVIDUAL_RESOLUTIONS)
        initials = ("board_count", "decider", "", "") if team else ("decider", "", "", "")
        for name, initial in zip(("first", "second", "third", "fourth"), initials, strict=True):
            choices = NONE + [c for c in Cup.Resolution.choices if c[0] in allowed]
            cast(forms.ChoiceField, self.fields[name]).choices = choices
            self.fields[name].initial = initial
        if team:
            del self.fields["games_per_tie"], self.fields["fourth"]
        else:
            del self.fields["third"], self.fields["fourth"]
            self.fields["order"].label = gettext_lazy("Your order (start numbers, the top-seeded first)")

    def clean_order(self) -> list[int]:
        text = self.cleaned_data["order"]
        if text and not re.fullmatch(r"[\d,;\s]+", text):
            raise forms.ValidationError(_("Write start numbers separated by commas."))
        return [int(n) for n in re.findall(r"\d+", text)]

    def resolution(self) -> list[str]:
        names = ("first", "second", "third", "fourth")
        return [self.cleaned_data[name] for name in names if self.cleaned_data.get(name)]


class DeciderForm(forms.Form):
    white = forms.ChoiceField(label=gettext_lazy("White"), choices=[])
    result = forms.ChoiceField(label=gettext_lazy("Result"), choices=CupTie.DeciderResult.choices)
    armageddon = forms.BooleanField(
        label=gettext_lazy("Armageddon game (a draw counts as a win for Black)"), required=False
    )

    def __init__(self, data=None, *, tie: CupTie, **kwargs):
        super().__init__(data, prefix=f"decider-{tie.pk}", **kwargs)
        cast(forms.ChoiceField, self.fields["white"]).choices = [
            ("home", tie.home.name),
            ("away", tie.away.name if tie.away else ""),
        ]


@login_required
def cup(request, slug):
    event = get_object_or_404(Event, slug=slug, system=Event.System.KNOCKOUT)
    if not can_manage_event(request.user, event):
        raise DjangoPermissionDenied
    action = request.POST.get("action") if request.method == "POST" else None
    draw = DrawForm(request.POST if action == "draw" else None, event=event)
    status = 200
    if action == "draw":
        if draw.is_valid():
            data = draw.cleaned_data
            status = _save(
                request,
                lambda: cup_draw(
                    event=event,
                    user=request.user,
                    seeding=data["seeding"],
                    tie_resolution=draw.resolution(),
                    order=data["order"] or None,
                    starts_on=data["starts_on"],
                    days_between=data["days_between"],
                    games_per_tie=data.get("games_per_tie") or 1,
                ),
                _("The cup is drawn."),
            )
        else:
            status = 400
    elif action == "advance":
        status = _save(request, lambda: cup_advance(event=event, user=request.user), _("The cup is advanced."))
    if status is None:
        return redirect("manage:cup", slug=slug)
    cup_row = Cup.objects.filter(event=event).first()
    deciders = []
    if cup_row is not None:
        number = current_round(cup_row)
        for tie in cup_row.ties.filter(round_number=number, away__isnull=False).select_related("home", "away", "match"):
            if tie_outcome(event, cup_row, tie).waiting == "decider" or tie.decider_result:
                form = DeciderForm(request.POST if action == f"decider-{tie.pk}" else None, tie=tie)
                if action == f"decider-{tie.pk}":
                    status = _decider(request, form, tie) if form.is_valid() else 400
                    if status is None:
                        return redirect("manage:cup", slug=slug)
                deciders.append((tie, form))
    return render(
        request,
        "leagues/manage/cup.html",
        {"event": event, "draw": draw, "bracket": selectors.cup_bracket(event), "deciders": deciders},
        status=status,
    )


def _decider(request, form: DeciderForm, tie: CupTie):
    data = form.cleaned_data
    return _save(
        request,
        lambda: cup_decider_record(
            tie_id=tie.pk,
            user=request.user,
            white=data["white"],
            result=data["result"],
            armageddon=data["armageddon"],
        ),
        _("The decider game is recorded."),
    )
