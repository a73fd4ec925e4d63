"""The event's row lock, taken first by every write of an event's pairings and results."""

from ..models import Event


def event_lock(event_id: int) -> None:
    """Lock the event's row until the transaction ends. Every write of an event's pairings and results takes it
    first, then its round's pairing, match cards or games: two such writes wait for each other, never deadlock
    (one holding a game and waiting for the event, the other holding the event and waiting for the game)."""
    list(Event.objects.select_for_update().filter(pk=event_id).order_by().values_list("pk", flat=True))


def event_lock_of(*, game_id: int | None = None, match_id: int | None = None) -> None:
    """event_lock of the event of a game or a match card, found and locked in one statement (nothing is locked when
    there is no such game or card)."""
    found = {"rounds__games__pk": game_id} if game_id is not None else {"rounds__matches__pk": match_id}
    events = Event.objects.select_for_update(of=("self",)).filter(**found).order_by()
    list(events.values_list("pk", flat=True))
