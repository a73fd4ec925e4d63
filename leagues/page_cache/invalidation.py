"""The one route from a write to the pages: what a write changed (an event, a player, a club, an address gone) →
which events' pages → their new stamps, once the transaction commits."""

from functools import partial

from django.db.models import Q

from ..after_commit import once_after_commit
from ..models import Event
from . import stamps


def pages_changed(
    *,
    event_id: int | None = None,
    player_id: int | None = None,
    club_id: int | None = None,
    gone_slug: str | None = None,
) -> None:
    """What a write changed, said by the service that wrote it: the pages that show it get a new stamp once the
    transaction commits (never before: a page rendered from the old data must not get the new stamp), each event's
    once however many writes of the transaction said so. This is the one way a write reaches the cached pages.

    `event_id`: the event's pages; `player_id`, `club_id`: the pages of every event the player or the club plays in
    (entered or on a team's roster); `gone_slug`: the address an event no longer has (deleted, or given another
    address): the pages kept under it are hidden.

    Whether an event is public is read when the transaction has committed: one that is not (back to draft) has its
    pages hidden at once; one that is is shown again if it was hidden."""
    for changed in events_showing(event_id=event_id, player_id=player_id, club_id=club_id):
        once_after_commit(("pages", changed), partial(_renew_or_hide, changed))
    if gone_slug:
        once_after_commit(
            ("pages-hidden", gone_slug),
            lambda: stamps.event_pages_hidden(slug=gone_slug),
        )


def event_pages_changed_after_commit(*, event_id: int) -> None:
    """The older name of `pages_changed(event_id=...)` (code written before it still calls this)."""
    pages_changed(event_id=event_id)


def events_showing(
    *,
    event_id: int | None = None,
    player_id: int | None = None,
    club_id: int | None = None,
) -> set[int]:
    """The events whose pages show the event, the player or the club (read now, inside the writing transaction)."""
    events = {event_id} if event_id else set()
    if player_id:
        events.update(
            Event.objects.filter(Q(entries__player=player_id) | Q(teams__members__player=player_id)).values_list(
                "pk", flat=True
            )
        )
    if club_id:
        events.update(
            Event.objects.filter(Q(teams__club=club_id) | Q(entries__player__clubs=club_id)).values_list(
                "pk", flat=True
            )
        )
    return events


def _renew_or_hide(event_id: int) -> None:
    slug = Event.objects.public().filter(pk=event_id).values_list("slug", flat=True).first()
    if slug:
        stamps.event_pages_changed(slug=slug, reveal=True)
        return
    slug = Event.objects.filter(pk=event_id).values_list("slug", flat=True).first()
    if slug:
        stamps.event_pages_hidden(slug=slug)


def event_explanations_changed_after_commit(*, event_id: int, slug: str) -> None:
    """Renew the stamp of the pages showing explanations (of the event `event_id`, whose slug is `slug`) once the
    current transaction commits."""
    once_after_commit(("explanations", event_id), lambda: stamps.event_explanations_changed(slug=slug))
