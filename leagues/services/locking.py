"""The event's row lock, taken first by every write of an event's pairings and results."""

from ..models import Event


def event_lock(event_id: int) -> None:
    """Lock the event's row until the transaction ends. Every write of an event's pairings and results takes it
    first, then its round's pairing, match cards or games: two such writes wait for each other, never deadlock
    (one holding a game and waiting for the event, the other holding the event and waiting for the game)."""
    list(Event.objects.select_for_update().filter(pk=event_id).order_by().values_list("pk", flat=True))
