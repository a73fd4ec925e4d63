"""Players register themselves for an event on its public page (leagues/services/registration.py): a FIDE id, or name,
federation, birth year and club, and an e-mail address. Like the follow form it is exempt from CSRF and sets no
cookie: all a page elsewhere posting it can do is register someone, and that person is told by e-mail.

The withdrawal link of the entrant's e-mails: opening it (a GET, as mail scanners and link previews do) changes nothing,
the page asks with a button; its POST withdraws. After round 1 is published an accepted player's button (with a reason
if they like) asks the organiser instead, who confirms or declines. The signed link is the key (nobody else knows it),
so the form needs no CSRF token and the page sets no cookie."""

from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from ..errors import ServiceError
from ..models import Event
from ..services.registration import (
    asks_the_organiser,
    closed_reason,
    places_taken,
    registration_of_link,
    registration_submit,
    registration_withdraw_by_link,
    self_withdraw_problem,
    settings_of,
    withdrawal_request_problem,
)

FIELDS = ("fide_id", "name", "federation", "birth_year", "club", "email")


@csrf_exempt
def register(request, slug):
    event = Event.objects.select_related("league").filter(slug=slug).exclude(status=Event.Status.DRAFT).first()
    if event is None or event.is_team:
        raise Http404
    found = settings_of(event)
    context = {
        "event": event,
        "closed": closed_reason(event, found),
        "settings": found,
        "places_left": None if found.limit is None else max(found.limit - places_taken(event), 0),
        "action": reverse("leagues:event-register", args=[slug]),
        "values": {},
    }
    if request.method != "POST":
        return render(request, "leagues/register.html", context)
    values = {name: request.POST.get(name, "") for name in FIELDS}
    try:
        registration, created = registration_submit(event=event, language=request.LANGUAGE_CODE, **values)
    except ServiceError as exc:
        context |= {"error": exc.message, "field": getattr(exc, "field", ""), "values": values}
        return render(request, "leagues/register.html", context, status=exc.status)
    return render(
        request, "leagues/register.html", {**context, "registration": registration, "created": created, "done": True}
    )


@never_cache  # the page names the registration: no cache keeps it
@csrf_exempt  # the signed link is the key; the page sets no cookie
def withdraw(request, token):
    """GET shows whose registration it is and a button; the button's POST withdraws it (after round 1 is published:
    asks the organiser to)."""
    template = "leagues/registration_withdraw.html"
    try:
        registration = registration_of_link(token=token)
    except ServiceError as exc:
        return render(request, template, {"error": exc.message}, status=exc.status)
    ask = asks_the_organiser(registration)
    context = {"registration": registration, "event": registration.event, "ask": ask}
    if request.method != "POST":
        problem = withdrawal_request_problem(registration) if ask else self_withdraw_problem(registration)
        return render(request, template, {**context, "problem": problem})
    try:
        registration, withdrawn = registration_withdraw_by_link(token=token, reason=request.POST.get("reason", ""))
    except ServiceError as exc:
        return render(request, template, {**context, "problem": exc.message}, status=exc.status)
    return render(request, template, {**context, "registration": registration, "done": withdrawn})


urlpatterns = [
    path("events/<slug:slug>/register/", register, name="event-register"),
    path("registration/withdraw/<str:token>/", withdraw, name="registration-withdraw"),
]
