"""Attaching the moves of games: paste or upload a PGN for the whole event, a round (or one match, or one game), see
which boards its games go to, decide about the rest, attach (a big file of the event's games goes to a worker, its
page following the progress); and the event's transmission delay for its live boards."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..errors import ServiceError
from ..models import Event, Game, GamePgn, PgnImportJob
from ..permissions import can_attach_moves, can_manage_event, can_see_event, is_league_organiser
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
from ..services.pgn_jobs import (
    pgn_job_confirm,
    pgn_job_of,
    pgn_job_progress,
    pgn_job_queue,
    pgn_jobs_recent,
    pgn_runs_in_worker,
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
        if data is None:
            raise RuntimeError("Form.clean returns cleaned_data")
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


def _decisions(post) -> dict[int, int | None]:
    """The form's decision_N fields: file game N → the chosen board's game id, or None (left out)."""
    decisions: dict[int, int | None] = {}
    for key, value in post.items():
        if key.startswith("decision_") and key[9:].isdecimal():
            decisions[int(key[9:])] = int(value) if value.isdecimal() else None
    return decisions


@login_required
def round_moves(request, slug, number):
    """The round's PGN: paste or upload, preview the boards its games go to, decide, attach."""
    event = get_object_or_404(Event, slug=slug)
    if not can_see_event(request.user, event):
        raise Http404
    games = _scope(request, event, number)
    if request.method != "POST" and not any(
        can_attach_moves(request.user, game) for game in games.select_related(*BOARD_RELATIONS)
    ):
        raise DjangoPermissionDenied
    return _moves_page(request, event, games, number)


@login_required
def event_moves(request, slug):
    """The PGN of the event's games, every round at once: a short one is previewed and attached as a round's; a
    big file goes to a worker (its page follows the progress)."""
    event = get_object_or_404(Event, slug=slug)
    if not can_manage_event(request.user, event):
        raise DjangoPermissionDenied
    return _moves_page(request, event, Game.objects.filter(round__event=event), None)


def _moves_page(request, event: Event, games, number: int | None):
    form = PgnForm(request.POST or None, request.FILES or None)
    plan = None
    status = 200
    source = GamePgn.Source.FILE if request.FILES else GamePgn.Source.FORM
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["pgn"]
        try:
            if number is None and "attach" not in request.POST and pgn_runs_in_worker(text):
                job = pgn_job_queue(event=event, user=request.user, text=text, source=source)
                return redirect("manage:event-moves-job", slug=event.slug, job=job.pk)
            if "attach" in request.POST:
                saved = pgn_attach(
                    games=games, text=text, user=request.user, decisions=_decisions(request.POST), source=source
                )
                messages.success(request, _attached_sentence(len(saved)))
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
    return render(
        request,
        "leagues/manage/game_moves.html",
        {
            "event": event,
            "number": number,
            "form": form,
            "plan": plan,
            "organiser": is_league_organiser(request.user, event.league_id),
            "manager": can_manage_event(request.user, event),
            "jobs": pgn_jobs_recent(event=event, user=request.user) if number is None else [],
        },
        status=status,
    )


def _attached_sentence(count: int) -> str:
    return ngettext(
        "The moves of %(count)s game were attached.", "The moves of %(count)s games were attached.", count
    ) % {"count": count}


def _job_or_404(request, slug, job) -> tuple[Event, PgnImportJob]:
    event = get_object_or_404(Event, slug=slug)
    found = pgn_job_of(event=event, user=request.user, job_id=job)
    if found is None:
        raise Http404
    return event, found


@login_required
def event_moves_job(request, slug, job):
    """A big PGN file of the event: the worker's progress while it reads and matches (followed by
    static/progress.js), then what matched and the games waiting for a decision, to confirm; then what was
    attached, or why nothing was."""
    event, found = _job_or_404(request, slug, job)
    if request.method == "POST":
        if "attach" in request.POST:
            pgn_job_confirm(job=found, user=request.user, decisions=_decisions(request.POST))
        return redirect("manage:event-moves-job", slug=event.slug, job=found.pk)
    progress = pgn_job_progress(found)
    unmatched = found.unmatched if found.status == PgnImportJob.Status.CHECKED else []
    if unmatched:
        boards = [g for g in Game.objects.filter(round__event=event).select_related(*BOARD_RELATIONS) if not g.is_bye]
        boards.sort(key=lambda g: (g.round.number, g.match_id or 0, g.board))
        by_round: dict[int, list[Game]] = {}
        for game in boards:
            by_round.setdefault(game.round.number, []).append(game)
        unmatched = [{**item, "choices": by_round.get(item["round"], boards)} for item in unmatched]
    context = {
        "event": event,
        "job": found,
        "progress": progress,
        "step": pgn_step_sentence(progress),
        "working": progress["status"] in ("queued", "running"),
        "unmatched": unmatched,
        "attached": _attached_sentence(found.attached),
    }
    return render(request, "leagues/manage/pgn_import_job.html", context)


@login_required
def event_moves_job_status(request, slug, job):
    """What the worker has done so far (the job's page polls it)."""
    _event, found = _job_or_404(request, slug, job)
    progress = pgn_job_progress(found)
    return JsonResponse(
        {
            "status": progress["status"],
            "progress": progress["progress"],
            "step": pgn_step_sentence(progress),
            "problem": progress["problem"],
        }
    )


def pgn_step_sentence(progress) -> str:
    """The step of a big PGN file's job as the page says it."""
    step, done, total = progress["step"], progress["done"], progress["total"]
    if step == "reading":
        return _("Reading the file")
    if step == "matching":
        return ngettext("Matching %(count)s game to the boards", "Matching %(count)s games to the boards", total) % {
            "count": total
        }
    if step == "saving":
        return _("Saving the moves of game %(done)s of %(total)s") % {"done": done, "total": total}
    if step == "checked":
        return _("Read and matched: waiting for your confirmation")
    if step == "done":
        return _("Attached")
    if step == "failed":
        return _("Nothing was attached")
    return _("Waiting for a worker")


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
