"""Following a player or a team (leagues/services/follows.py): the form, the confirmation link and unsubscribing.
Opening either link (a GET, as mail scanners and link previews do) changes nothing: the page asks with a button.

With an account one click follows (a form with the CSRF token, on a page answered privately). Without one the
form takes an e-mail address and is exempt from CSRF: all it can do is send that address a confirmation link, so a
page elsewhere posting it achieves nothing a visitor could not, and the public pages stay free of cookies.
"""

from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from ..errors import ServiceError
from ..models import Entry, Event, Player
from ..services.follows import follow_confirm, follow_start, follow_stop, follow_to_confirm, followed_name


def _player(pk: int) -> Player:
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise Http404
    return player


def _team_entry(slug: str, number: int) -> Entry:
    entry = (
        Entry.objects.select_related("team", "event")
        .filter(event__slug=slug, start_number=number, team__isnull=False)
        .exclude(event__status=Event.Status.DRAFT)
        .first()
    )
    if entry is None:
        raise Http404
    return entry


def _follow_page(request, *, name: str, back: str, action: str, target: dict):
    context = {"name": name, "back": back, "action": action}
    if request.method != "POST":
        return render(request, "leagues/follow.html", context)
    email = request.POST.get("email", "")
    try:
        follow = follow_start(user=request.user, language=request.LANGUAGE_CODE, email=email, **target)
    except ServiceError as exc:
        return render(
            request, "leagues/follow.html", {**context, "error": exc.message, "email": email}, status=exc.status
        )
    return render(
        request, "leagues/follow.html", {**context, "done": True, "confirmed": follow.confirmed_at is not None}
    )


def _by_account_with_csrf(view):
    """CSRF is checked for a logged-in follower (the follow is made at once), not for an e-mail address."""
    protected = csrf_protect(view)

    @csrf_exempt
    def wrapper(request, *args, **kwargs):
        if request.user.is_authenticated:
            return protected(request, *args, **kwargs)
        return view(request, *args, **kwargs)

    return wrapper


@_by_account_with_csrf
def follow_player(request, pk):
    player = _player(pk)
    return _follow_page(
        request,
        name=player.public_name,
        back=reverse("leagues:player-profile", args=[pk]),
        action=reverse("leagues:follow-player", args=[pk]),
        target={"player_id": pk},
    )


@_by_account_with_csrf
def follow_team(request, slug, number):
    entry = _team_entry(slug, number)
    return _follow_page(
        request,
        name=entry.name,
        back=reverse("leagues:event-team", args=[slug, number]),
        action=reverse("leagues:follow-team", args=[slug, number]),
        target={"team_id": entry.team_id},
    )


@never_cache  # the page carries a CSRF token and names the follow: no cache keeps it
@csrf_protect
def confirm(request, token):
    """Opening the e-mail's link (GET) confirms nothing: mail scanners and link previews open links too. It shows
    whom the follow is of and a button; the button's POST, with the CSRF token, confirms."""
    try:
        follow = follow_confirm(token=token) if request.method == "POST" else follow_to_confirm(token=token)
    except ServiceError as exc:
        return render(request, "leagues/follow_link.html", {"error": exc.message}, status=exc.status)
    name = followed_name(follow)
    if request.method != "POST" and follow.confirmed_at is None:
        return render(request, "leagues/follow_link.html", {"ask_confirm": True, "name": name})
    return render(request, "leagues/follow_link.html", {"confirmed": True, "name": name})


@never_cache
@csrf_exempt  # the one-click unsubscribe of mail clients (RFC 8058) posts without a token; the signed link is the key
def stop(request, token):
    """Opening the link (GET) stops nothing, it shows a button; any POST to the link stops (RFC 8058's
    List-Unsubscribe-Post: "List-Unsubscribe=One-Click", sent by mail clients without a token)."""
    if request.method != "POST":
        return render(request, "leagues/follow_link.html", {"ask_stop": True})
    try:
        names = follow_stop(token=token)
    except ServiceError as exc:
        return render(request, "leagues/follow_link.html", {"error": exc.message}, status=exc.status)
    return render(request, "leagues/follow_link.html", {"stopped": True, "name": " / ".join(names)})


urlpatterns = [
    path("players/<int:pk>/follow/", follow_player, name="follow-player"),
    path("events/<slug:slug>/teams/<int:number>/follow/", follow_team, name="follow-team"),
    path("follow/confirm/<str:token>/", confirm, name="follow-confirm"),
    path("follow/stop/<str:token>/", stop, name="follow-stop"),
]
