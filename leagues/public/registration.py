"""Players register themselves for an event on its public page (leagues/services/registration.py): a FIDE id, or name,
federation, birth year and club, and an e-mail address. Like the follow form it is exempt from CSRF and sets no
cookie: all a page elsewhere posting it can do is register someone, and that person is told by e-mail. A team event's
page is the captain's form: the team, its club, the captain's e-mail and the roster board by board.

The withdrawal link of the entrant's e-mails: opening it (a GET, as mail scanners and link previews do) changes nothing,
the page asks with a button; its POST withdraws. After round 1 is published an accepted player's button (with a reason
if they like) asks the organiser instead, who confirms or declines. The signed link is the key (nobody else knows it),
so the form needs no CSRF token and the page sets no cookie."""

from typing import Any

from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from ..errors import ServiceError
from ..models import Club, Event
from ..services.registration import (
    RosterLine,
    asks_the_organiser,
    closed_reason,
    places_taken,
    registration_of_link,
    registration_submit,
    registration_withdraw_by_link,
    roster_size,
    self_withdraw_problem,
    settings_of,
    team_registration_submit,
    withdrawal_request_problem,
)

FIELDS = ("fide_id", "name", "federation", "birth_year", "club", "email")
TEAM_FIELDS = ("team", "club", "email")
PLAYER_FIELDS = ("fide_id", "name", "federation", "birth_year")
#: the roster lines the form offers when the organiser set no limit of reserves: the boards and this many
OPEN_RESERVES = 4


@csrf_exempt
def register(request, slug):
    event = Event.objects.select_related("league").filter(slug=slug).exclude(status=Event.Status.DRAFT).first()
    if event is None:
        raise Http404
    if event.is_team:
        return _register_team(request, event)
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


def _register_team(request, event: Event):
    """The captain's form: the team's name and club, the captain's e-mail, a line per board and reserve."""
    found = settings_of(event)
    fewest, most = roster_size(event, found)
    boards = range(1, (most if most is not None else fewest + OPEN_RESERVES) + 1)
    context: dict[str, Any] = {
        "event": event,
        "closed": closed_reason(event, found),
        "settings": found,
        "places_left": None if found.limit is None else max(found.limit - places_taken(event), 0),
        "action": reverse("leagues:event-register", args=[event.slug]),
        "clubs": Club.objects.filter(leagues=event.league_id, retired=False).order_by("name"),
        "fewest": fewest,
        "values": {},
        "lines": [(board, {}) for board in boards],
    }
    if request.method != "POST":
        return render(request, "leagues/register_team.html", context)
    values = {name: request.POST.get(name, "") for name in TEAM_FIELDS}
    typed = [{name: request.POST.get(f"board-{board}-{name}", "") for name in PLAYER_FIELDS} for board in boards]
    try:
        registration, created = team_registration_submit(
            event=event, language=request.LANGUAGE_CODE, players=[RosterLine(**line) for line in typed], **values
        )
    except ServiceError as exc:
        context |= {
            "error": exc.message,
            "field": getattr(exc, "field", ""),
            "values": values,
            "lines": list(zip(boards, typed, strict=True)),
        }
        return render(request, "leagues/register_team.html", context, status=exc.status)
    return render(
        request,
        "leagues/register_team.html",
        {**context, "registration": registration, "created": created, "done": True},
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
