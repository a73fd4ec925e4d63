"""The organiser's registration pages (leagues/services/registration.py): the settings (deadline, limit, waiting list,
entry fee, check-in closing time), the registrations with bulk decisions by checkboxes (accept, refuse, waiting list,
withdraw, check in, fee paid or refunded), the confirmation of the players who did not check in, the players'
requests to withdraw after round 1 (confirm or decline), and the CSV exports of the registrations and of the fees'
ledger. A team event's registrations are its captains' teams, each with its roster."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from ..errors import PermissionDenied, ServiceError
from ..models import Event, FeeRecord
from ..permissions import can_manage_event
from ..services.registration import (
    checkin_closed,
    checkin_set,
    fee_amount,
    fee_ledger_csv,
    fee_lines,
    fee_records,
    fees_record,
    first_waiting,
    no_shows,
    no_shows_unconfirmed,
    no_shows_withdraw,
    place_free,
    registration_settings_save,
    registrations_count,
    registrations_csv,
    registrations_decide,
    registrations_of,
    rosters_of,
    settings_of,
    withdrawal_requests,
    withdrawal_requests_decide,
)

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class RegistrationSettingsForm(forms.Form):
    is_open = forms.BooleanField(label=gettext_lazy("Registration open"), required=False)
    deadline = forms.DateTimeField(label=gettext_lazy("Registration deadline"), required=False, widget=DATETIME)
    limit = forms.IntegerField(
        label=gettext_lazy("Limit of players"),
        required=False,
        min_value=1,
        max_value=9999,
        help_text=gettext_lazy("Empty: no limit."),
    )
    waiting_list = forms.BooleanField(
        label=gettext_lazy("Waiting list once the limit is reached"), required=False, initial=True
    )
    fee = forms.DecimalField(
        label=gettext_lazy("Entry fee"), required=False, min_value=0, max_digits=9, decimal_places=2
    )
    checkin_closes_at = forms.DateTimeField(
        label=gettext_lazy("Check-in closes at"),
        required=False,
        widget=DATETIME,
        help_text=gettext_lazy("Players who have not checked in by then are withdrawn from round 1, once you confirm."),
    )
    reserves = forms.IntegerField(
        label=gettext_lazy("Reserves per team"),
        required=False,
        min_value=0,
        max_value=99,
        help_text=gettext_lazy("Besides its boards. Empty: no limit."),
    )

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        if event.is_team:
            self.fields["limit"].label = gettext_lazy("Limit of teams")
        else:
            del self.fields["reserves"]


#: the bulk actions of the checkboxes: (value, label)
ACTIONS = [
    ("accept", gettext_lazy("Accept")),
    ("refuse", gettext_lazy("Refuse")),
    ("wait", gettext_lazy("Move to the waiting list")),
    ("withdraw", gettext_lazy("Withdraw")),
    ("checkin", gettext_lazy("Check in")),
    ("checkin_undo", gettext_lazy("Undo the check-in")),
    ("paid", gettext_lazy("Entry fee paid")),
    ("refunded", gettext_lazy("Entry fee refunded")),
]


def _event(request, slug) -> Event:
    event = get_object_or_404(Event.objects.select_related("league"), slug=slug)
    if not can_manage_event(request.user, event):
        raise DjangoPermissionDenied
    return event


def _initial(event: Event) -> dict:
    found = settings_of(event)
    local = lambda value: value and timezone.localtime(value)  # noqa: E731
    return {
        "is_open": found.is_open,
        "deadline": local(found.deadline),
        "limit": found.limit,
        "waiting_list": found.waiting_list if found.pk else True,
        "fee": fee_amount(event, found.fee) if found.fee else None,
        "checkin_closes_at": local(found.checkin_closes_at),
        "reserves": found.reserves,
    }


@login_required
def registration(request, slug):
    event = _event(request, slug)
    form = RegistrationSettingsForm(initial=_initial(event), event=event)
    if request.method == "POST" and request.POST.get("action") == "settings":
        form = RegistrationSettingsForm(request.POST, event=event)
        if form.is_valid():
            try:
                registration_settings_save(event=event, user=request.user, fields=form.cleaned_data)
            except PermissionDenied:
                raise DjangoPermissionDenied from None
            except ServiceError as exc:
                field = getattr(exc, "field", "")
                form.add_error(field if field in form.fields else None, exc.message)
            else:
                messages.success(request, _("The registration settings are saved."))
                return redirect("manage:registration", slug=event.slug)
    lines, ledger, rosters = fee_lines(event), fee_records(event), rosters_of(event)
    rows = [
        (
            r,
            fee_amount(event, lines[r.pk].balance) if lines[r.pk].balance else None,
            [(record, fee_amount(event, record.amount)) for record in ledger.get(r.pk, [])],
            rosters.get(r.pk, []),
        )
        for r in registrations_of(event)
    ]
    waiting = first_waiting(event)
    return render(
        request,
        "leagues/manage/registration.html",
        {
            "event": event,
            "form": form,
            "rows": rows,
            "actions": ACTIONS,
            "counts": registrations_count(event),
            "offer": waiting if waiting is not None and place_free(event) else None,
            "no_shows_waiting": no_shows_unconfirmed(event),
            "requests": withdrawal_requests(event),
            "currency": event.league.currency,
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def registration_bulk(request, slug):
    event = _event(request, slug)
    action = request.POST.get("action", "")
    ids = [int(v) for v in request.POST.getlist("ids") if v.isascii() and v.isdigit()]
    try:
        if action in ("checkin", "checkin_undo"):
            count = checkin_set(event=event, user=request.user, ids=ids, checked_in=action == "checkin")
        elif action in ("paid", "refunded"):
            count = fees_record(
                event=event,
                user=request.user,
                ids=ids,
                kind=FeeRecord.Kind.PAID if action == "paid" else FeeRecord.Kind.REFUNDED,
            )
        else:
            count = len(registrations_decide(event=event, user=request.user, ids=ids, decision=action))
    except PermissionDenied:
        raise DjangoPermissionDenied from None
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Done: %(count)s registrations.") % {"count": count})
    return redirect("manage:registration", slug=event.slug)


@login_required
@require_POST
def withdrawal_requests_answer(request, slug):
    """Confirm or decline the chosen requests to withdraw (a button per request)."""
    event = _event(request, slug)
    ids = [int(v) for v in request.POST.getlist("ids") if v.isascii() and v.isdigit()]
    confirm = request.POST.get("answer") == "confirm"
    try:
        answered = withdrawal_requests_decide(event=event, user=request.user, ids=ids, confirm=confirm)
    except PermissionDenied:
        raise DjangoPermissionDenied from None
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        names = ", ".join(r.name for r in answered)
        if confirm:
            messages.success(request, _("Withdrawn: %(names)s. They are told by e-mail.") % {"names": names})
        else:
            messages.success(request, _("Kept in the event: %(names)s. They are told by e-mail.") % {"names": names})
    return redirect("manage:registration", slug=event.slug)


@login_required
def no_shows_page(request, slug):
    """The players who did not check in, and the organiser's one confirmation that withdraws them from round 1."""
    event = _event(request, slug)
    if request.method == "POST":
        ids = [int(v) for v in request.POST.getlist("ids") if v.isascii() and v.isdigit()]
        try:
            withdrawn = no_shows_withdraw(event=event, user=request.user, ids=ids)
        except PermissionDenied:
            raise DjangoPermissionDenied from None
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request, _("%(count)s players withdrawn from round 1: it can be paired.") % {"count": len(withdrawn)}
            )
            return redirect("manage:registration", slug=event.slug)
    return render(
        request,
        "leagues/manage/no_shows.html",
        {
            "event": event,
            "closed": checkin_closed(event),
            "closes_at": settings_of(event).checkin_closes_at,
            "missing": no_shows(event),
        },
    )


def _csv_answer(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def registrations_download(request, slug):
    event = _event(request, slug)
    try:
        return _csv_answer(registrations_csv(event=event, user=request.user), f"{event.slug}-registrations.csv")
    except PermissionDenied:
        raise DjangoPermissionDenied from None


@login_required
def fees_download(request, slug):
    event = _event(request, slug)
    try:
        return _csv_answer(fee_ledger_csv(event=event, user=request.user), f"{event.slug}-entry-fees.csv")
    except PermissionDenied:
        raise DjangoPermissionDenied from None


urlpatterns_registration = [
    ("events/<slug:slug>/registration/", registration, "registration"),
    ("events/<slug:slug>/registration/bulk/", registration_bulk, "registration-bulk"),
    ("events/<slug:slug>/registration/no-shows/", no_shows_page, "registration-no-shows"),
    (
        "events/<slug:slug>/registration/withdrawal-requests/",
        withdrawal_requests_answer,
        "registration-withdrawal-requests",
    ),
    ("events/<slug:slug>/registration/registrations.csv", registrations_download, "registration-csv"),
    ("events/<slug:slug>/registration/entry-fees.csv", fees_download, "registration-fees-csv"),
]
