"""Start numbers. An individual Swiss event's are its pairing numbers, FIDE's initial ranking (rating, title,
name; C.04.2): until round 1 is published they follow it whenever an entry comes, goes or changes its rating
(services.entries, services.players) or when the organiser sorts them again; afterwards they stay and a late
entry takes the next one. A round robin's and a team event's numbers close up when an entry goes. Renumbering
carries along what names players by start number (requested byes' boards, forbidden pairs) and makes a pairing
not yet published again.

The renumbering helpers run inside their caller's transaction, the event locked. ``start_numbers_sort`` checks
that the user organises the league or arbitrates the event and everything else before writing, in one
transaction: a refused call changes nothing."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.db import transaction
from django.db.models import F, Q
from django.utils.translation import gettext as _

from ..errors import PermissionDenied, ServiceError
from ..models import Entry, Event, Game, PairingSettings, Result, Round, RoundPairing
from ..page_cache import pages_changed
from ..permissions import AnyUser, can_manage_event
from .results import event_results_changed

#: FIDE's titles in the order of the initial ranking (C.04.2): among equal ratings a GM comes first, a
#: player without a title last
TITLE_ORDER = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
#: a bye's or an absence's board: BYE_BOARD + the player's start number (as round_pairings and the imports store
#: it), above every real board of the largest open (a 20,000-player round has 10,000 boards) and within a small
#: integer (start numbers up to 22,767)
BYE_BOARD = 10000
#: start numbers are moved out of the way by this much while they are renumbered (they stay unique)
_RENUMBER_SHIFT = 10000


def numbers_follow_ranking(event: Event) -> bool:
    """An individual Swiss event's start numbers are its pairing numbers: the initial ranking. A round
    robin's numbers are its drawing of lots (Berger tables) and a team event's are its teams' order."""
    return not event.is_team and event.system == Event.System.SWISS


def _published_rounds(event: Event) -> Iterable[Round]:
    """The rounds whose boards are published (or were imported): a game between two players or a
    pairing-allocated bye (a bye requested before the pairing does not make a round published)."""
    paired = Q(games__black__isnull=False) | Q(games__result=Result.PAIRING_BYE)
    return Round.objects.filter(event=event).filter(paired).distinct().order_by("number")


def round_one_published(event: Event) -> bool:
    """Whether a round's boards are out: from then on start numbers no longer change (C.04.2)."""
    paired = Q(black__isnull=False) | Q(result=Result.PAIRING_BYE)
    return Game.objects.filter(round__event=event).filter(paired).exists()


def _alphabetical(name: str) -> str:
    """A name as the alphabet orders it: without accents, case folded."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def initial_ranking(entries: Iterable[Entry], unrated_rating: int | None) -> list[Entry]:
    """FIDE's initial ranking (C.04.2, C.04.3 2026): rating descending, then title (GM, IM, WGM, FM, WIM,
    CM, WFM, WCM, none), then name alphabetically. An unrated player counts with the rating the event
    announces for unrated players; without one, below every rated player."""

    def key(entry: Entry) -> tuple[int, int, str, int]:
        rating = entry.rating if entry.rating is not None else (unrated_rating or 0)
        player, team = entry.player, entry.team
        title = player.title if player is not None else ""
        rank = TITLE_ORDER.index(title) if title in TITLE_ORDER else len(TITLE_ORDER)
        name = player.name if player is not None else team.name if team is not None else ""
        return (-rating, rank, _alphabetical(name), entry.start_number)

    return sorted(entries, key=key)


def _start_numbers_ranked(event: Event) -> bool:
    """Give the event's entries the start numbers 1..N of the initial ranking (inside the caller's
    transaction, the event locked). What names players by start number before round 1 follows: requested
    byes' boards and the forbidden pairs; a pairing of round 1 not yet published must be made again.
    Returns whether a number changed."""
    entries = list(Entry.objects.filter(event=event).select_related("player", "team"))
    return _renumbered(event, initial_ranking(entries, event.unrated_rating))


def _renumbered(event: Event, ranked: list[Entry]) -> bool:
    """Give `ranked` the start numbers 1..N in its order; see :func:`_start_numbers_ranked`."""
    moved = {e.start_number: n for n, e in enumerate(ranked, start=1)}
    if all(old == new for old, new in moved.items()):
        return False
    Entry.objects.filter(event=event).update(start_number=F("start_number") + _RENUMBER_SHIFT)
    for number, entry in enumerate(ranked, start=1):
        entry.start_number = number
    Entry.objects.bulk_update(ranked, ["start_number"])
    byes = list(Game.objects.filter(round__event=event, black__isnull=True, board__gt=BYE_BOARD))
    Game.objects.filter(pk__in=[g.pk for g in byes]).update(board=F("board") + _RENUMBER_SHIFT)
    for game in byes:
        game.board = BYE_BOARD + moved.get(game.board - BYE_BOARD, game.board - BYE_BOARD)
    Game.objects.bulk_update(byes, ["board"])
    settings = PairingSettings.objects.filter(event=event).first()
    if settings is not None and settings.forbidden_pairs:
        settings.forbidden_pairs = sorted(
            sorted([moved.get(a, a), moved.get(b, b)]) for a, b in settings.forbidden_pairs
        )
        settings.save(update_fields=["forbidden_pairs"])
    _pairing_outdated(event)
    event_results_changed(event_id=event.pk)  # the standings and pages name players by start number
    return True


def _pairing_outdated(event: Event) -> None:
    """A pairing not yet published names players by their old start numbers: it must be made again."""
    RoundPairing.objects.filter(round__event=event).exclude(status=RoundPairing.Status.PUBLISHED).update(
        status=RoundPairing.Status.FAILED,
        attempt=F("attempt") + 1,
        boards=[],
        pab=None,
        problem=_("The start numbers changed after the pairing; pair the round again."),
    )


def start_numbers_sort(*, event: Event, user: AnyUser) -> list[Entry]:
    """Sort the start numbers by the initial ranking again (e.g. after a rating, title or name was
    corrected), before round 1 is published; the organiser or the event's arbiter. Refused
    (``round_one_published``, ``not_swiss``, ``event_finished``) with nothing changed.

    After round 1 numbers stay: a late entry takes the next number (C.04.2 lets an arbiter re-assign
    pairing numbers, it never obliges to; the published rounds, standings and players' addresses keep
    theirs)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not can_manage_event(user, event):
            raise PermissionDenied(_("Only the league's organiser or the event's arbiter may pair rounds."))
        if event.status == Event.Status.FINISHED:
            raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
        if not numbers_follow_ranking(event):
            raise ServiceError(
                _("Only an individual Swiss event's start numbers follow the ratings (a round robin's: by lot)."),
                code="not_swiss",
            )
        if round_one_published(event):
            raise ServiceError(
                _("Round 1 is published: the start numbers no longer change. A late entry takes the next number."),
                code="round_one_published",
            )
        if _start_numbers_ranked(event):
            pages_changed(event_id=event.pk)
        return list(Entry.objects.filter(event=event).select_related("player").order_by("start_number"))


def _start_numbers_closed_up(event: Event) -> None:
    """Number the entries 1..N in their present order (after one left)."""
    entries = list(Entry.objects.filter(event=event).select_related("player", "team").order_by("start_number"))
    _renumbered(event, entries)
