"""Entering a list of players in an individual event: paste or upload, read the preview with every problem named
by its line, then confirm; nothing is saved before (leagues/services/bulk_entry.py reads, checks and writes). The
same for a newer rating list during the event: the players' ratings from a round on."""

import base64
import binascii

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import FieldError, PermissionDenied, ServiceError
from ..models import Event
from ..permissions import is_league_organiser
from ..services.bulk_entry import (
    bulk_entry_confirm,
    bulk_entry_preview,
    ratings_refresh_confirm,
    ratings_refresh_preview,
)
from ..services.start_numbers import round_one_published
from .setup_forms import DATE

#: the biggest list accepted (a 2,000-player list in CSV is about 150 kB)
MAX_UPLOAD = 2 * 1024 * 1024


class _ListForm(forms.Form):
    """A list pasted (the form's `players`) or uploaded (its `file`)."""

    def content(self) -> bytes:
        upload = self.cleaned_data.get("file")
        if upload is not None:
            if upload.size > MAX_UPLOAD:
                raise ServiceError(_("The file is too big: at most 2 MB."), code="too_big")
            return upload.read()
        return self.cleaned_data.get("players", "").encode("utf-8")


class BulkEntryForm(_ListForm):
    players = forms.CharField(
        label=gettext_lazy("Paste the list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "dir": "auto"}),
        help_text=gettext_lazy(
            "One player a line, the first line naming the columns: name, FIDE id, rating, federation, birth year, "
            "sex, title, club (only the name is needed). Separated by commas, semicolons or tabs, as a "
            "spreadsheet copies them."
        ),
    )
    file = forms.FileField(
        label=gettext_lazy("Or upload a file"),
        required=False,
        help_text=gettext_lazy(
            "CSV (UTF-8 or Windows/Latin-1), a spreadsheet (.xlsx), or FIDE's rating list as downloaded (TXT)."
        ),
    )
    late_bye = forms.ChoiceField(
        label=gettext_lazy("Rounds already played"),
        choices=[("zero", gettext_lazy("zero-point bye in each")), ("half", gettext_lazy("half-point bye in each"))],
        initial="zero",
        required=False,
    )


@login_required
def bulk_entry(request, slug):
    event = get_object_or_404(Event.objects.select_related("league"), slug=slug)
    if not is_league_organiser(request.user, event.league_id):
        raise DjangoPermissionDenied
    if event.is_team:
        messages.error(request, _("Players of a team event play in its teams' rosters."))
        return redirect("manage:entries", slug=event.slug)
    late = round_one_published(event)
    form = BulkEntryForm(request.POST or None, request.FILES or None)
    preview, content, status = None, "", 200
    try:
        if request.method == "POST" and request.POST.get("action") == "confirm":
            data = _carried(request.POST.get("content", ""))
            late_bye = request.POST.get("late_bye") or "zero"
            try:
                entries = bulk_entry_confirm(event=event, user=request.user, content=data, late_bye=late_bye)
            except ServiceError as exc:
                messages.error(request, exc.message)
                preview = bulk_entry_preview(event=event, user=request.user, content=data)
                content, status = request.POST.get("content", ""), 400
            else:
                messages.success(
                    request, _("%(count)s players entered; their start numbers follow.") % {"count": len(entries)}
                )
                return redirect("manage:entries", slug=event.slug)
        elif request.method == "POST" and form.is_valid():
            data = form.content()
            if not data.strip():
                form.add_error("players", _("Paste a list or choose a file."))
                status = 400
            else:
                preview = bulk_entry_preview(event=event, user=request.user, content=data)
                content = base64.b64encode(data).decode("ascii")
                status = 200 if preview.ok else 400
    except PermissionDenied:
        raise DjangoPermissionDenied from None
    except ServiceError as exc:
        form.add_error(None, exc.message)
        status = 400
    return render(
        request,
        "leagues/manage/bulk_entry.html",
        {
            "event": event,
            "form": form,
            "preview": preview,
            "content": content,
            "late": late,
            "skip": [] if late else ["late_bye"],
        },
        status=status,
    )


def _carried(text: str) -> bytes:
    """The list the preview showed, carried to the confirmation unchanged."""
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise ServiceError(_("Paste a list or choose a file."), code="no_list") from None


class RatingsRefreshForm(_ListForm):
    """A newer rating list (FIDE's monthly list, or a national one) for the event's players."""

    players = forms.CharField(
        label=gettext_lazy("Paste the newer list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "dir": "auto"}),
        help_text=gettext_lazy(
            "The first line naming the columns, with at least the name or the FIDE id, and the rating. Players "
            "are found by FIDE id, else by name; players of the list who are not in the event are skipped."
        ),
    )
    file = forms.FileField(
        label=gettext_lazy("Or upload a file"),
        required=False,
        help_text=gettext_lazy(
            "CSV (UTF-8 or Windows/Latin-1), a spreadsheet (.xlsx), or FIDE's rating list as downloaded (TXT)."
        ),
    )
    list_date = forms.DateField(
        label=gettext_lazy("Date of the rating list"),
        required=False,
        widget=DATE,
        help_text=gettext_lazy("Without a round below: from the first round played on or after this date."),
    )
    from_round = forms.IntegerField(label=gettext_lazy("From round"), required=False, min_value=2)


@login_required
def ratings_refresh(request, slug):
    """Read a newer rating list during the event (a league's season): preview whose rating changes from which
    round, then confirm (leagues/services/bulk_entry.py); a team event's: its rostered players'."""
    event = get_object_or_404(Event.objects.select_related("league"), slug=slug)
    if not is_league_organiser(request.user, event.league_id):
        raise DjangoPermissionDenied
    form = RatingsRefreshForm(request.POST or None, request.FILES or None)
    preview, content, status = None, "", 200
    try:
        if request.method == "POST" and request.POST.get("action") == "confirm" and form.is_valid():
            data = _carried(request.POST.get("content", ""))
            when = {"from_round": form.cleaned_data["from_round"], "list_date": form.cleaned_data["list_date"]}
            try:
                done = ratings_refresh_confirm(event=event, user=request.user, content=data, **when)
            except ServiceError as exc:
                messages.error(request, exc.message)
                preview = ratings_refresh_preview(event=event, user=request.user, content=data, **when)
                content, status = request.POST.get("content", ""), 400
            else:
                messages.success(
                    request,
                    _("%(count)s ratings changed from round %(round)s.")
                    % {"count": len(done.changes), "round": done.from_round},
                )
                return redirect("manage:entries", slug=event.slug)
        elif request.method == "POST" and form.is_valid():
            data = form.content()
            if not data.strip():
                form.add_error("players", _("Paste a list or choose a file."))
                status = 400
            else:
                preview = ratings_refresh_preview(
                    event=event,
                    user=request.user,
                    content=data,
                    from_round=form.cleaned_data["from_round"],
                    list_date=form.cleaned_data["list_date"],
                )
                content = base64.b64encode(data).decode("ascii")
                status = 200 if preview.ok else 400
        elif request.method == "POST":
            status = 400
    except PermissionDenied:
        raise DjangoPermissionDenied from None
    except FieldError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        status = 400
    except ServiceError as exc:
        form.add_error(None, exc.message)
        status = 400
    return render(
        request,
        "leagues/manage/ratings_refresh.html",
        {"event": event, "form": form, "preview": preview, "content": content},
        status=status,
    )
