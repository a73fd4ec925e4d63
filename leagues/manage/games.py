"""Attaching the moves of games: paste or upload a PGN for a round (or one match, or one game), see which boards
its games go to, decide about the rest, attach; and the event's transmission delay for its live boards."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..errors import ServiceError
from ..models import Event, Game, GamePgn
from ..permissions import can_attach_moves, can_see_event, is_league_organiser
from ..services.games import (
    BOARD_RELATIONS,
    MAX_DELAY_MINUTES,
    PGN_MAX_CHARS,
    pgn_attach,
    pgn_decode,
    pgn_preview,
    transmission_delay,
    transmission_delay_set,
)


class PgnForm(forms.Form):
    pgn = forms.CharField(
        label=gettext_lazy("PGN"),
        required=False,
        max_length=PGN_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 10, "dir": "ltr", "spellcheck": "false"}),
        help_text=gettext_lazy("Paste the moves of one game or of many, with their headers."),
    )
    pgn_file = forms.FileField(label=gettext_lazy("or a PGN file"), required=False)

    def clean(self):
        data = super().clean()
        upload = data.get("pgn_file")
        if upload is not None:
            if upload.size > PGN_MAX_CHARS:
                raise forms.ValidationError(_("The PGN is too long to read at once."))
            data["pgn"] = pgn_decode(upload.read())
        if not data.get("pgn", "").strip():
            raise forms.ValidationError(_("Paste a PGN or choose a PGN file."))
        return data


class DelayForm(forms.Form):
    delay_minutes = forms.IntegerField(
        label=gettext_lazy("Transmission delay (minutes)"),
        min_value=0,
        max_value=MAX_DELAY_MINUTES,
        help_text=gettext_lazy(
            "Live boards are shown this many minutes late to everyone, the API included, until each game ends."
        ),
    )


def _scope(request, event: Event, number: int):
    games = Game.objects.filter(round__event=event, round__number=number)
    if request.GET.get("match", "").isdecimal():
        games = games.filter(match_id=int(request.GET["match"]))
    if request.GET.get("game", "").isdecimal():
        games = games.filter(pk=int(request.GET["game"]))
    return games


@login_required
def round_moves(request, slug, number):
    """The round's PGN: paste or upload, preview the boards its games go to, decide, attach."""
    event = get_object_or_404(Event, slug=slug)
    if not can_see_event(request.user, event):
        raise Http404
    games = _scope(request, event, number)
    form = PgnForm(request.POST or None, request.FILES or None)
    plan = None
    status = 200
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["pgn"]
        try:
            if "attach" in request.POST:
                decisions = {}
                for key, value in request.POST.items():
                    if key.startswith("decision_") and key[9:].isdecimal():
                        decisions[int(key[9:])] = int(value) if value.isdecimal() else None
                saved = pgn_attach(
                    games=games,
                    text=text,
                    user=request.user,
                    decisions=decisions,
                    source=GamePgn.Source.FILE if request.FILES else GamePgn.Source.FORM,
                )
                messages.success(
                    request,
                    ngettext(
                        "The moves of %(count)s game were attached.",
                        "The moves of %(count)s games were attached.",
                        len(saved),
                    )
                    % {"count": len(saved)},
                )
                return redirect(request.get_full_path())
            plan = pgn_preview(games=games, text=text, user=request.user)
            form = PgnForm(initial={"pgn": text})
        except ServiceError as exc:
            if exc.status == 403:
                raise DjangoPermissionDenied from None
            if exc.status == 404:
                raise Http404 from None
            messages.error(request, exc.message)
            status = 400
    elif request.method == "POST":
        status = 400
    elif not any(can_attach_moves(request.user, game) for game in games.select_related(*BOARD_RELATIONS)):
        raise DjangoPermissionDenied
    return render(
        request,
        "leagues/manage/game_moves.html",
        {
            "event": event,
            "number": number,
            "form": form,
            "plan": plan,
            "organiser": is_league_organiser(request.user, event.league_id),
        },
        status=status,
    )


@login_required
def event_transmission(request, slug):
    """The organiser's transmission delay of the event's live boards."""
    event = get_object_or_404(Event, slug=slug)
    if not is_league_organiser(request.user, event.league_id):
        raise DjangoPermissionDenied
    form = DelayForm(request.POST or None, initial={"delay_minutes": transmission_delay(event)})
    if request.method == "POST" and form.is_valid():
        try:
            transmission_delay_set(event=event, minutes=form.cleaned_data["delay_minutes"], user=request.user)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The transmission delay is saved."))
            return redirect("manage:event-transmission", slug=event.slug)
    return render(request, "leagues/manage/transmission.html", {"event": event, "form": form})
