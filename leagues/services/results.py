"""Every write of a result goes through here: check, validate, save, audit, bump the version, enqueue.

A round sheet (several results at once) is one transaction: all of it is saved, or nothing."""

import logging

from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext as _

from ..after_commit import first_in_transaction, once_after_commit
from ..broker import enqueue_recompute
from ..errors import (
    DEFAULT_PERMISSION_MESSAGE,
    ConfirmationNeeded,
    Conflict,
    NotFound,
    PermissionDenied,
    ServiceError,
)
from ..models import (
    BYE_RESULTS,
    GAME_RESULTS,
    Event,
    FinishedEventChange,
    Game,
    Result,
    ResultChange,
    Round,
    RoundPairing,
    TeamMatch,
)
from ..page_cache import events_showing, pages_changed
from ..permissions import AnyUser, acting_user, can_enter_result, can_manage_event, is_league_organiser
from .cups import cup_game_recorded
from .follows import results_changed_followers
from .locking import event_lock, event_lock_of
from .webhooks import results_changed

log = logging.getLogger(__name__)


def event_results_changed(*, event_id: int) -> None:
    """Raise the event's results version (once per transaction: a sheet's or a card's boards raise it once) and
    enqueue its recompute once the transaction commits."""
    if first_in_transaction(("results-version", event_id)):
        Event.objects.filter(pk=event_id).update(results_version=F("results_version") + 1)
    pages_changed(event_id=event_id)  # pages now say "being updated"
    once_after_commit(("recompute", event_id), lambda: _enqueue(event_id))


def names_changed(*, player_id: int | None = None, club_id: int | None = None, event_id: int | None = None) -> None:
    """A player, club or team (of event `event_id`) was renamed or otherwise changed (rating, title, federation):
    the standings of every event showing it are computed again and their pages renewed, once the transaction
    commits. Each service that saves a player, a club or a team calls it (the admin too)."""
    for changed in events_showing(player_id=player_id, club_id=club_id, event_id=event_id):
        event_results_changed(event_id=changed)


def _enqueue(event_id: int) -> None:
    """Send the recompute; if the broker is down the result is still saved and the sweep catches up."""
    try:
        enqueue_recompute(event_id)
    except Exception:  # broker errors vary by transport
        log.warning("broker unreachable; event %s left for the sweep", event_id, exc_info=True)


def result_record(
    *,
    game_id: int,
    result: str,
    user: AnyUser,
    source: str = ResultChange.Source.FORM,
    expected_version: int | None = None,
    reason: str = "",
    card: TeamMatch | None = None,
    later_pairing: str = "",
    locked: Game | None = None,
) -> Game:
    """Record or correct the result of one game (or bye) and audit it.

    `locked`: the game as the caller locked it in this transaction, after its event's row (`games_locked`: a round
    sheet, a match card), which is neither looked up nor locked again for each board.

    A correction in a Swiss event whose next round is paired already (from the standings before it) is refused
    with ConfirmationNeeded ``later_round_paired`` unless `later_pairing` says what to do with that round: "keep"
    (its pairing stays as it is) or "unpair" (its boards go and it is paired again; only while it has no result).

    A board of a team match changes only through its match card: `card` is the TeamMatch whose
    workflow (services.match_cards) makes this change; any other door is refused.
    Raises NotFound, PermissionDenied, Conflict (stale `expected_version`) or ServiceError, in which
    case nothing was written (with `locked`: the caller's transaction can only roll back).
    """
    if result not in Result.values:
        raise ServiceError(_("“%(code)s” is not a result code.") % {"code": result}, code="bad_result_code")
    # a board of a sheet or a card (`locked`) opens no savepoint: a refused board refuses the caller's whole
    # transaction, as the sheet and the card want, for two statements fewer a board
    with transaction.atomic(savepoint=locked is None):
        if locked is not None and locked.pk != game_id:
            raise RuntimeError("the caller locked another game")
        game = locked or _game_locked(game_id)
        event = game.round.event
        if game.match_id is not None and (card is None or card.pk != game.match_id):
            raise ServiceError(
                _("This game is a board of a team match; its result is entered on the match card."),
                code="match_card_required",
            )
        if not can_enter_result(user, game):
            raise PermissionDenied(DEFAULT_PERMISSION_MESSAGE)
        if card is None:  # a card's change is checked (and noted) once by its workflow
            finished_event_override(event, user, reason, FinishedEventChange.Subject.RESULTS)
        if expected_version is not None and expected_version != game.version:
            raise Conflict(
                _("Someone changed this result meanwhile; it is now “%(result)s”.")
                % {"result": game.get_result_display()},
                current=game,
            )
        _check_result_fits(game, result)
        if result == game.result:
            return game
        if game.result and not reason:
            raise ServiceError(_("A correction needs a reason."), code="reason_required")
        if game.result and source != ResultChange.Source.IMPORT:  # an import brings its later rounds' pairings
            _later_rounds_decided(event, game.round.number, later_pairing)
        change = ResultChange.objects.create(
            game=game,
            user=acting_user(user),
            before=game.result,
            after=result,
            source=source,
            reason=reason,
        )
        game.corrected = game.corrected or bool(game.result)
        game.result = result
        game.version += 1
        game.save(update_fields=["result", "version", "corrected"])
        if event.is_knockout and card is None:  # an individual cup's tie decided, or an earlier tie corrected
            cup_game_recorded(game, user=user, reason=reason, later_pairing=later_pairing)
        if not event.tiebreak_locked and not game.is_bye:  # a bye (paired or asked for) is no game's result
            Event.objects.filter(pk=event.pk).update(tiebreak_locked=True)
            event.tiebreak_locked = True  # the next board of a sheet or card reads the same event
        if event.status == Event.Status.PUBLISHED:
            Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
            event.status = Event.Status.RUNNING
        event_results_changed(event_id=event.pk)
        results_changed([change])  # its webhooks, after the commit
        results_changed_followers([change])  # their followers' e-mails, after the commit
    return game


#: what a result's checks read of its game: the round and event, and the sides (players or teams)
_GAME_RELATIONS = ("round__event", "white__player", "black__player", "white__team", "black__team")


def _game_locked(game_id: int) -> Game:
    """The game with its round, event and sides, its row locked after its event's (services.locking.event_lock).
    Raises NotFound."""
    event_lock_of(game_id=game_id)
    try:
        return Game.objects.select_for_update(of=("self",)).select_related(*_GAME_RELATIONS).get(pk=game_id)
    except Game.DoesNotExist:  # or deleted while this request waited for the event (a round published again)
        raise NotFound(_("There is no game %(id)s.") % {"id": game_id}, code="unknown_game") from None


def games_locked(games: QuerySet[Game], round_: Round | None = None) -> dict[int, Game]:
    """`games` (of one round: `round_`, with its event, when the caller has it) by id, with their round, event and
    sides as `result_record` reads them, their rows locked in one order (by key) for this transaction, whose caller
    holds their event's lock (services.locking.event_lock). They share one round and event: what one board's record
    changes of the event (it is running, its tie-breaks are locked) the next board reads."""
    relations = _GAME_RELATIONS if round_ is None else _GAME_RELATIONS[1:]
    rows = list(games.select_for_update(of=("self",)).select_related(*relations).order_by("pk"))
    for game in rows:
        game.round = round_ or rows[0].round
    return {game.pk: game for game in rows}


def _paired_later(event: Event, round_number: int) -> QuerySet[Game]:
    """The published boards (and pairing-allocated byes) of the event's rounds after `round_number`."""
    return Game.objects.filter(round__event=event, round__number__gt=round_number).filter(
        Q(black__isnull=False) | Q(result=Result.PAIRING_BYE)
    )


def later_round_paired(event: Event, round_number: int) -> int | None:
    """The first round after `round_number` whose pairing was made from the standings (a Swiss event), if any."""
    if event.is_round_robin or event.is_knockout:
        return None  # a round robin's pairings follow its table, a cup's its bracket, not the standings
    return _paired_later(event, round_number).order_by("round__number").values_list("round__number", flat=True).first()


def _later_rounds_decided(event: Event, round_number: int, later_pairing: str) -> None:
    """A correction of `round_number` when a later round is paired: refused until the user chose what happens to
    that round's pairing (made from other standings); "unpair" takes its boards away (it is paired again)."""
    later = later_round_paired(event, round_number)
    if later is None:
        return
    boards = _paired_later(event, round_number)
    played = boards.filter(black__isnull=False).exclude(result=Result.PENDING).exists()
    unpairable = not played and not boards.filter(round__number__gt=later).exists()
    if later_pairing == "keep":
        return
    if later_pairing == "unpair" and unpairable:
        TeamMatch.objects.filter(round__event=event, round__number=later).delete()  # a team Swiss: its matches
        had_pab = boards.filter(result=Result.PAIRING_BYE).exists()
        boards.delete()
        RoundPairing.objects.filter(round__event=event, round__number=later).update(
            status=RoundPairing.Status.FAILED,
            boards=[],
            pab=None,
            problem=_("A result of round %(number)s was corrected after this pairing; pair the round again.")
            % {"number": round_number},
        )
        if had_pab:
            event_results_changed(event_id=event.pk)
        return
    if later_pairing == "unpair":
        raise ServiceError(
            _("Round %(number)s has results already; it can no longer be paired again.") % {"number": later},
            code="later_round_played",
        )
    if unpairable:
        message = _(
            "Round %(later)s was paired from the standings before this correction, so its pairing may differ from "
            "what the corrected standings give. Choose: keep round %(later)s as it is paired, or unpair it (it has "
            "no results yet) and pair it again."
        )
    else:
        message = _(
            "Round %(later)s was paired from the standings before this correction, so its pairing may differ from "
            "what the corrected standings give. It has results already, so it stays as it is: confirm to keep it."
        )
    raise ConfirmationNeeded(message % {"later": later}, code="later_round_paired")


def finished_event_override(event: Event, user: AnyUser, reason: str, subject: str) -> None:
    """A finished event is frozen (results, cards, prizes; the policy in services.policy): only the league's
    organiser changes it, with a reason, recorded for the event's public page (one note per subject, user and
    reason, however many boards it changes). Raises ServiceError for anyone else or without a reason."""
    if event.status != Event.Status.FINISHED:
        return
    if not is_league_organiser(user, event.league_id):
        raise ServiceError(_("The event is finished; its results can no longer change."), code="event_finished")
    if not reason.strip():
        raise ServiceError(_("Changing a finished event needs a reason."), code="reason_required")
    FinishedEventChange.objects.get_or_create(
        event=event, user=acting_user(user), subject=subject, reason=reason.strip()[:300]
    )
    pages_changed(event_id=event.pk)  # the note is on the public page at once


def event_frozen(event: Event) -> None:
    """What nobody does in a finished event (confirm or dispute a card): refused with ``event_finished``."""
    if event.status == Event.Status.FINISHED:
        raise ServiceError(
            _("The event is finished; its match cards can no longer be confirmed or disputed."), code="event_finished"
        )


def _check_result_fits(game: Game, result: str) -> None:
    if game.is_bye and result not in BYE_RESULTS:
        raise ServiceError(_("This is a bye; it cannot have a game result."), code="result_for_bye")
    if not game.is_bye and result not in GAME_RESULTS:
        raise ServiceError(_("This is a game; it cannot have a bye as its result."), code="bye_for_game")


def results_record_new(*, event: Event, games: list[Game], user: AnyUser, source: str) -> list[Game]:
    """Save new games and byes of `event` with their results (an import's thousands at once), audited.

    The checks of `result_record`, one statement for all games and one for their audit rows; the event's
    version rises once and one recompute is sent. Nothing is saved when one game is refused."""
    if not can_manage_event(user, event):
        raise PermissionDenied(DEFAULT_PERMISSION_MESSAGE)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(_("The event is finished; its results can no longer change."), code="event_finished")
    for game in games:
        if game.result not in Result.values:
            raise ServiceError(_("“%(code)s” is not a result code.") % {"code": game.result}, code="bad_result_code")
        if game.match_id is not None and source != ResultChange.Source.IMPORT:  # an import: confirmed match cards
            raise ServiceError(
                _("This game is a board of a team match; its result is entered on the match card."),
                code="match_card_required",
            )
        _check_result_fits(game, game.result)
        game.version = 1 if game.result else 0
    with transaction.atomic():
        saved = Game.objects.bulk_create(games)
        changes = ResultChange.objects.bulk_create(
            ResultChange(game=game, user=acting_user(user), before="", after=game.result, source=source)
            for game in saved
            if game.result
        )
        if any(game.result for game in saved):
            running = Event.Status.RUNNING if event.status == Event.Status.PUBLISHED else event.status
            locked = event.tiebreak_locked or any(game.result and not game.is_bye for game in saved)
            Event.objects.filter(pk=event.pk).update(tiebreak_locked=locked, status=running)
        event_results_changed(event_id=event.pk)
        results_changed(changes)  # their webhooks, after the commit
        results_changed_followers(changes)  # their followers' e-mails, after the commit
    return saved


def round_sheet_save(
    *,
    event: Event,
    round_number: int,
    results: dict[int, tuple[str, int]],
    user: AnyUser,
    reason: str = "",
    source: str = ResultChange.Source.FORM,
    later_pairing: str = "",
) -> list[Game]:
    """Record a round's results at once. `results` maps game id → (result code, version the user saw);
    `later_pairing` as in `result_record`.

    A game not in this round, a stale version or any refused result refuses the whole sheet."""
    with transaction.atomic():
        # the event's row first, then the round's games in one order (event_lock): a result entered meanwhile on
        # one of its boards, or the round published again, waits or is waited for, never deadlocks with the sheet
        event_lock(event.pk)
        stored = dict(
            Game.objects.filter(round__event=event, round__number=round_number)
            .select_for_update(of=("self",))
            .order_by("pk")
            .values_list("pk", "result")
        )
        if not stored:
            raise ServiceError(
                _("Round %(number)s is not paired yet.") % {"number": round_number}, code="round_not_paired"
            )
        unknown = set(results) - set(stored)
        if unknown:
            raise ServiceError(
                _("Game %(id)s is not in round %(number)s.") % {"id": min(unknown), "number": round_number},
                code="game_not_in_round",
            )
        # the boards whose result changes, with what their checks read (their rows are locked already)
        changed = [pk for pk, (code, _version) in results.items() if code != stored[pk]]
        games = games_locked(Game.objects.filter(pk__in=changed))
        saved = []
        for game_id, (code, version) in sorted(results.items()):
            if game_id not in games:
                continue
            try:
                saved.append(
                    result_record(
                        game_id=game_id,
                        result=code,
                        user=user,
                        source=source,
                        expected_version=version,
                        reason=reason,
                        later_pairing=later_pairing,
                        locked=games[game_id],
                    )
                )
            except ServiceError as exc:
                exc.current = exc.current or games[game_id]  # the sheet names the refused board
                raise
        return saved
