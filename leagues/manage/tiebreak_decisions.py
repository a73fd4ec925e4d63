"""The organiser's (or arbiter's) pages ordering players still tied after the whole tie-break list, with a reason
(FIDE's 2026 checklist Q205/207), and recording play-off games; the rules are in services/tiebreak_decisions.py."""

import re
from typing import cast

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import ServiceError
from ..models import Event
from ..permissions import can_manage_event
from ..services.tiebreak_decisions import (
    decided_by_label,
    entry_ids_of_numbers,
    external_value_remove,
    external_value_set,
    playoff_game_add,
    playoff_game_remove,
    tied_order_remove,
    tied_order_set,
    ties_left,
)
from .views import _save


class TiedOrderForm(forms.Form):
    numbers = forms.CharField(
        label=gettext_lazy("Start numbers, first to last"),
        max_length=200,
        help_text=gettext_lazy("Every player of the tie, e.g. 5, 2, 9."),
    )
    decided_by = forms.ChoiceField(
        label=gettext_lazy("Decided by"),
        choices=[("chief_arbiter", gettext_lazy("the chief arbiter")), ("organiser", gettext_lazy("the organiser"))],
    )
    reason = forms.CharField(label=gettext_lazy("Reason (shown publicly)"), max_length=300)

    def clean_numbers(self) -> list[int]:
        text = self.cleaned_data["numbers"]
        if not re.fullmatch(r"[\d,;\s]+", text):
            raise forms.ValidationError(_("Write start numbers separated by commas."))
        return [int(n) for n in re.findall(r"\d+", text)]


class ExternalValueForm(forms.Form):
    start_number = forms.IntegerField(label=gettext_lazy("Start number"), min_value=1)
    criterion = forms.ChoiceField(label=gettext_lazy("Tie-break"))
    value = forms.CharField(label=gettext_lazy("Value"), max_length=20, help_text=gettext_lazy("e.g. 12.5 or 25/2"))
    decided_by = forms.ChoiceField(
        label=gettext_lazy("Decided by"),
        choices=[("chief_arbiter", gettext_lazy("the chief arbiter")), ("organiser", gettext_lazy("the organiser"))],
    )
    reason = forms.CharField(label=gettext_lazy("Reason (shown publicly)"), max_length=300)

    def __init__(self, data=None, *, criteria=(), **kwargs):
        super().__init__(data, prefix="external", **kwargs)
        cast(forms.ChoiceField, self.fields["criterion"]).choices = [
            (code, code) for code in criteria if code.split("/")[0].upper() != "LOT"
        ]


class RemoveForm(forms.Form):
    number = forms.IntegerField(min_value=1)
    reason = forms.CharField(label=gettext_lazy("Reason (shown publicly)"), max_length=300)


@login_required
def tied_orders(request, slug):
    event = get_object_or_404(Event, slug=slug)
    if not can_manage_event(request.user, event):
        raise DjangoPermissionDenied
    action = request.POST.get("action") or "order" if request.method == "POST" else None
    removing = action in ("remove", "remove_external")
    external = ExternalValueForm(request.POST if action == "external" else None, criteria=event.tiebreak_criteria)
    form = TiedOrderForm(request.POST if action == "order" else None)
    remove_form = RemoveForm(request.POST if removing else None)
    status = 200
    if request.method == "POST":
        status = 400
        if action == "external" and external.is_valid():
            data = external.cleaned_data

            def set_value():
                (entry_id,) = entry_ids_of_numbers(event, [data["start_number"]])
                external_value_set(
                    event_id=event.pk,
                    entry_id=entry_id,
                    criterion=data["criterion"],
                    value=data["value"],
                    reason=data["reason"],
                    decided_by=data["decided_by"],
                    user=request.user,
                )

            status = _save(request, set_value, _("The value is saved: the standings use it."))
        elif action == "remove_external" and remove_form.is_valid():
            status = _save(
                request,
                lambda: external_value_remove(
                    event_id=event.pk,
                    number=remove_form.cleaned_data["number"],
                    user=request.user,
                    reason=remove_form.cleaned_data["reason"],
                ),
                _("The value is withdrawn: the computed value counts again."),
            )
        elif removing and remove_form.is_valid():
            status = _save(
                request,
                lambda: tied_order_remove(
                    event_id=event.pk,
                    number=remove_form.cleaned_data["number"],
                    user=request.user,
                    reason=remove_form.cleaned_data["reason"],
                ),
                _("The decision is withdrawn: those players are tied again."),
            )
        elif action == "order" and form.is_valid():
            status = _save(
                request,
                lambda: tied_order_set(
                    event_id=event.pk,
                    entry_ids=entry_ids_of_numbers(event, form.cleaned_data["numbers"]),
                    reason=form.cleaned_data["reason"],
                    decided_by=form.cleaned_data["decided_by"],
                    user=request.user,
                ),
                _("The decision is saved: the standings follow it."),
            )
        if status is None:
            return redirect("manage:tied-orders", slug=slug)
    event.refresh_from_db()
    try:
        ties = ties_left(event)
    except ServiceError:
        ties = []
    names = {e.id: e for e in event.entries.select_related("player")}
    decisions = [
        {
            "number": number,
            "players": [names[e] for e in d["entries"] if e in names],
            "by": decided_by_label(d.get("by", "")),
            "reason": d.get("reason", ""),
            "on": d.get("on", ""),
            "who": d.get("who", ""),
        }
        for number, d in enumerate(event.tiebreak_decisions or [], start=1)
    ]
    values = [
        {
            "number": number,
            "entry": names.get(v["entry"]),
            "criterion": v["criterion"],
            "value": v["value"],
            "by": decided_by_label(v.get("by", "")),
            "reason": v.get("reason", ""),
            "on": v.get("on", ""),
            "who": v.get("who", ""),
        }
        for number, v in enumerate(event.tiebreak_external or [], start=1)
    ]
    return render(
        request,
        "leagues/manage/tied_orders.html",
        {"event": event, "form": form, "ties": ties, "decisions": decisions, "external": external, "values": values},
        status=status,
    )


class PlayoffGameForm(forms.Form):
    place = forms.IntegerField(
        label=gettext_lazy("Place decided"), min_value=1, help_text=gettext_lazy("1 for first place.")
    )
    white = forms.IntegerField(label=gettext_lazy("White (start number)"), min_value=1)
    black = forms.IntegerField(label=gettext_lazy("Black (start number)"), min_value=1)
    result = forms.ChoiceField(label=gettext_lazy("Result"), choices=[("1-0", "1–0"), ("1/2", "½–½"), ("0-1", "0–1")])
    armageddon = forms.BooleanField(
        label=gettext_lazy("Armageddon game (a draw counts as a win for Black)"), required=False
    )


class PlayoffRemoveForm(forms.Form):
    place = forms.IntegerField(min_value=1)
    number = forms.IntegerField(min_value=1)
    reason = forms.CharField(label=gettext_lazy("Reason (shown publicly)"), max_length=300)


@login_required
def playoffs(request, slug):
    event = get_object_or_404(Event, slug=slug)
    if not can_manage_event(request.user, event):
        raise DjangoPermissionDenied
    removing = request.method == "POST" and request.POST.get("action") == "remove"
    form = PlayoffGameForm(None if removing else (request.POST or None))
    remove_form = PlayoffRemoveForm(request.POST if removing else None)
    status = 200
    if request.method == "POST":
        status = 400
        if removing and remove_form.is_valid():
            data = remove_form.cleaned_data
            status = _save(
                request,
                lambda: playoff_game_remove(
                    event_id=event.pk,
                    place=data["place"],
                    number=data["number"],
                    user=request.user,
                    reason=data["reason"],
                ),
                _("The play-off game is deleted."),
            )
        elif not removing and form.is_valid():
            data = form.cleaned_data

            def add():
                white, black = entry_ids_of_numbers(event, [data["white"], data["black"]])
                playoff_game_add(
                    event_id=event.pk,
                    place=data["place"],
                    white_id=white,
                    black_id=black,
                    result=data["result"],
                    armageddon=data["armageddon"],
                    user=request.user,
                )

            status = _save(request, add, _("The play-off game is recorded: the standings follow it."))
        if status is None:
            return redirect("manage:playoffs", slug=slug)
    event.refresh_from_db()
    entries = {e.id: e for e in event.entries.select_related("player")}
    shown = [
        {
            "place": playoff["place"],
            "games": [
                {
                    "number": number,
                    "white": entries.get(g["white"]),
                    "black": entries.get(g["black"]),
                    "result": {"1/2": "½–½"}.get(g["result"], g["result"].replace("-", "–")),
                    "armageddon": g.get("armageddon"),
                }
                for number, g in enumerate(playoff["games"], start=1)
            ],
        }
        for playoff in event.playoffs or []
    ]
    return render(
        request, "leagues/manage/playoffs.html", {"event": event, "form": form, "playoffs": shown}, status=status
    )
