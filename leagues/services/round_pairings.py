"""Pairing a whole round of an individual event with the engine (:mod:`pairings`): the organiser asks for
the pairing (the engine runs in a worker: `pairing_compute`), previews it with points and colours, may
swap players by hand with a reason (audited), then publishes it. Only then are its boards games of the
round, seen on the public pages, the API and the TRF export, and open for results.

Requested byes, late entries' byes and the byes an imported file entered before a round's pairing are
bye games of the round (board BYE_BOARD + start number), as the import stores them; a withdrawal is the
entry's ``withdrawn_after_round``. Single games are paired (and checked) by :mod:`.pairings`.

A team Swiss (FIDE C.04.6) is paired the same way, its entries the teams: what differs (the teams' state
for the engine, a published board being a team match with its board games) is in :mod:`.team_swiss`.
"""

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, NoReturn

from django.db import transaction
from django.db.models import F, Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pairings import (
    BakuAcceleration,
    ByeType,
    PairingError,
    PairingState,
    RequestedBye,
    System,
    TeamPairingState,
    pair_round,
    state_problem,
)
from pairings import Player as EnginePlayer
from pairings import colours as engine_colours
from pairings import points as engine_points
from pairings.dutch import baku_records
from pairings.team_swiss import team_state_problem
from pairings.trf import round_one_colour

from ..broker import enqueue_pairing
from ..errors import PermissionDenied, ServiceError
from ..models import (
    Entry,
    Event,
    Game,
    PairingChange,
    PairingSettings,
    Registration,
    RegistrationSettings,
    Result,
    ResultChange,
    Round,
    RoundPairing,
)
from ..models.audit import SettingChange
from ..page_cache import pages_changed
from ..permissions import AnyUser, acting_user, can_manage_event
from ..session_locks import session_lock
from .entries import entry_withdraw
from .fide_mode import SettingRefused, event_scoring_checked, pairs_text, setting_change_checked, shown
from .follows import pairings_published_followers
from .results import event_results_changed, result_record
from .standings import crosstable_for, plain_rows, scoring_for
from .start_numbers import BYE_BOARD
from .team_swiss import is_team_swiss, match_score, team_pairing_state, team_rounds_publish, team_seat_figures
from .webhooks import pairings_published

#: the byes a player may request before the round is paired, and the engine's name for each
REQUESTED_BYES = {
    "half": Result.HALF_POINT_BYE,
    "zero": Result.ZERO_POINT_BYE,
    "full": Result.FULL_POINT_BYE,
}
ENGINE_BYES: dict[str, ByeType] = {
    Result.HALF_POINT_BYE: ByeType.HALF,
    Result.ZERO_POINT_BYE: ByeType.ZERO,
    Result.ABSENT: ByeType.ZERO,
    Result.FULL_POINT_BYE: ByeType.FULL,
}


def pairing_settings_of(event: Event) -> PairingSettings:
    """The event's pairing settings (the defaults, unsaved, until the organiser changes one)."""
    return PairingSettings.objects.filter(event=event).first() or PairingSettings(event=event)


def engine_system(event: Event) -> System:
    if is_team_swiss(event):
        return System.TEAM_SWISS
    return System.DUTCH if event.system == Event.System.SWISS else System.BERGER


def _manager(user: AnyUser, event: Event) -> None:
    if not can_manage_event(user, event):
        raise PermissionDenied(_("Only the league's organiser or the event's arbiter may pair rounds."))


def _locked_event(event: Event, user: AnyUser) -> Event:
    event = Event.objects.select_for_update().get(pk=event.pk)
    _manager(user, event)
    if event.is_team and event.is_round_robin:
        raise ServiceError(_("Team events are paired by their schedule."), code="team_event")
    if event.is_knockout:
        raise ServiceError(_("A cup's matches come from its bracket, round by round."), code="knockout")
    if event.status == Event.Status.FINISHED:
        raise ServiceError(_("The event is finished; its pairings can no longer change."), code="event_finished")
    return event


def _paired_games(event: Event, round_number: int) -> QuerySet[Game]:
    """The round's published boards: its games between two players and its pairing-allocated bye."""
    return Game.objects.filter(round__event=event, round__number=round_number).filter(
        Q(black__isnull=False) | Q(result=Result.PAIRING_BYE)
    )


def last_paired_round(event: Event) -> int:
    """The last round whose boards are published (or were imported)."""
    numbers = Game.objects.filter(round__event=event).filter(Q(black__isnull=False) | Q(result=Result.PAIRING_BYE))
    return numbers.aggregate(n=Max("round__number"))["n"] or 0


def _round_has_results(event: Event, round_number: int) -> bool:
    return _paired_games(event, round_number).filter(black__isnull=False).exclude(result=Result.PENDING).exists()


def pairable_round_problem(event: Event, round_number: int) -> str | None:
    """Why `round_number` cannot be paired now (None: it can). The next round can be paired once every
    game before it has a result; the last paired round can be paired again until its first result."""
    last = last_paired_round(event)
    if not 1 <= round_number <= event.rounds_count:
        return _("The event has %(count)s rounds; round %(number)s cannot be paired.") % {
            "count": event.rounds_count,
            "number": round_number,
        }
    if round_number == last and _round_has_results(event, round_number):
        return _("Round %(number)s has results already; it can no longer be paired again.") % {"number": round_number}
    if round_number < last:
        return _("Round %(number)s has been played; only round %(next)s can be paired.") % {
            "number": round_number,
            "next": last + 1,
        }
    if round_number > last + 1:
        return _("Round %(last)s must be paired first.") % {"last": last + 1}
    if round_number == 1 and no_shows_waiting(event):
        return _(
            "The check-in has closed: confirm first that the players who did not check in are withdrawn (on the "
            "registration page)."
        )
    pending = (
        Game.objects.filter(round__event=event, round__number__lt=round_number, result=Result.PENDING)
        .order_by("round__number")
        .values_list("round__number", flat=True)
        .first()
    )
    if pending:
        return _("Round %(number)s has games without a result; enter them before pairing the next round.") % {
            "number": pending
        }
    return None


def no_shows_waiting(event: Event) -> bool:
    """The check-in (services.registration) has closed and accepted players who did not check in wait for the
    organiser to confirm their withdrawal: round 1 is not paired before, so its pairing never includes them."""
    if not RegistrationSettings.objects.filter(
        event=event, checkin_closes_at__lte=timezone.now(), no_shows_withdrawn_at__isnull=True
    ).exists():
        return False
    return Registration.objects.filter(
        event=event,
        status=Registration.Status.ACCEPTED,
        checked_in_at__isnull=True,
        entry__isnull=False,
        entry__withdrawn_after_round__isnull=True,
    ).exists()


def _entries(event: Event) -> list[Entry]:
    return list(event.entries.select_related("player").order_by("start_number"))


def players_before(event: Event, round_number: int) -> tuple[EnginePlayer, ...]:
    """Every entry as the engine sees it before `round_number`: rating and the rounds played."""
    tournament = crosstable_for(event, *plain_rows(event, before_round=round_number))
    return tuple(EnginePlayer(p.start_number, p.rating, p.rounds, p.name) for p in tournament.participants)


def requested_byes(event: Event, round_number: int) -> dict[int, str]:
    """Start number → result of the byes entered for the round before its pairing."""
    return dict(
        Game.objects.filter(round__event=event, round__number=round_number, black__isnull=True)
        .exclude(result=Result.PAIRING_BYE)
        .values_list("white__start_number", "result")
    )


#: the kind of bye (REQUESTED_BYES) each bye result stands for
BYE_KINDS: dict[str, str] = {
    Result.HALF_POINT_BYE: "half",
    Result.ZERO_POINT_BYE: "zero",
    Result.ABSENT: "zero",
    Result.FULL_POINT_BYE: "full",
}


def requested_bye_kinds(event: Event, round_number: int) -> list[list[int | str]]:
    """The round's byes entered before its pairing, as a pairing keeps them: [[start number, kind]]."""
    return [[n, BYE_KINDS.get(result, "zero")] for n, result in sorted(requested_byes(event, round_number).items())]


def withdrawn_before(event: Event, round_number: int) -> tuple[int, ...]:
    """The start numbers of the players who withdrew before `round_number`."""
    return tuple(
        event.entries.filter(withdrawn_after_round__lt=round_number)
        .order_by("start_number")
        .values_list("start_number", flat=True)
    )


def pairing_state(
    event: Event, round_number: int, settings: PairingSettings | None = None
) -> PairingState | TeamPairingState:
    """The engine's input for `round_number`, read from the event as it is stored (a team Swiss: its
    teams, services.team_swiss)."""
    settings = settings or pairing_settings_of(event)
    byes = requested_byes(event, round_number)
    withdrawn = tuple(n for n in withdrawn_before(event, round_number) if n not in byes)
    if is_team_swiss(event):
        requested = tuple((n, ENGINE_BYES.get(result, ByeType.ZERO)) for n, result in sorted(byes.items()))
        colour = settings.initial_colour or "w"
        return team_pairing_state(event, round_number, settings, requested, withdrawn, scoring_for(event), colour)
    players = players_before(event, round_number)
    # an event paired elsewhere (imported) has the initial colour its round 1 gave
    initial_colour = settings.initial_colour or round_one_colour(players)
    return PairingState(
        players=players,
        round=round_number,
        total_rounds=event.rounds_count,
        requested_byes=tuple(
            RequestedBye(number, ENGINE_BYES.get(result, ByeType.ZERO)) for number, result in sorted(byes.items())
        ),
        withdrawn=withdrawn,
        forbidden_pairs=tuple(tuple(pair) for pair in settings.forbidden_pairs),
        scoring=scoring_for(event),
        initial_colour=initial_colour,
        acceleration=acceleration_of(event),
        double_round_robin=event.system == Event.System.DOUBLE_ROUND_ROBIN,
    )


def acceleration_of(event: Event) -> BakuAcceleration | None:
    """The Baku acceleration (C.04.5) of a Swiss event that has it: GA from the players of the event."""
    return BakuAcceleration() if event.baku_acceleration and engine_system(event) is System.DUTCH else None


def pairing_records(event: Event) -> list[str]:
    """The TRF-2026 records of the event's pairing settings: the initial colour (152), the pairs
    who must not meet in any round (260) and the Baku acceleration's virtual points (250, as the
    engine gives them to gacrux), so another program pairs the exported file as the site does."""
    settings = pairing_settings_of(event)
    records = [f"152 {settings.initial_colour.upper()}"] if settings.initial_colour else []
    records += [f"260 {1:3d} {event.rounds_count:3d} {a:4d} {b:4d}" for a, b in settings.forbidden_pairs]
    acceleration = acceleration_of(event)
    if acceleration is not None:
        players = tuple(EnginePlayer(n) for n in event.entries.values_list("start_number", flat=True))
        state = PairingState(players=players, round=1, total_rounds=event.rounds_count, scoring=scoring_for(event))
        records += baku_records(state, acceleration)
    return records


def _draw_colour(settings: PairingSettings, user: AnyUser) -> None:
    """The initial colour by lot, from a recorded seed: anyone can repeat the draw."""
    settings.colour_seed = secrets.token_hex(8)
    settings.initial_colour = random.Random(settings.colour_seed).choice("wb")  # noqa: S311 - repeatable from the seed
    settings.colour_drawn_at = timezone.now()
    settings.colour_drawn_by = acting_user(user)


def _outdated(event: Event, round_number: int) -> None:
    """The round's inputs changed: a pairing not yet published must be made again."""
    RoundPairing.objects.filter(round__event=event, round__number=round_number).exclude(
        status=RoundPairing.Status.PUBLISHED
    ).update(
        status=RoundPairing.Status.FAILED,
        attempt=F("attempt") + 1,
        boards=[],
        pab=None,
        problem=_("The byes or withdrawals changed after the pairing; pair the round again."),
    )


def round_pair(*, event: Event, round_number: int, user: AnyUser) -> RoundPairing:
    """Ask for `round_number` to be paired: checked here, paired by a worker after the commit.

    Raises PermissionDenied or ServiceError (``not_pairable``, ``bad_state``, ``team_event``,
    ``event_finished``); then nothing was saved."""
    with transaction.atomic():
        event = _locked_event(event, user)
        problem = pairable_round_problem(event, round_number)
        if problem:
            raise ServiceError(problem, code="not_pairable")
        settings = pairing_settings_of(event)
        if round_number == 1 and not settings.initial_colour:
            _draw_colour(settings, user)
            settings.save()
        state_error = _state_problem(event, pairing_state(event, round_number, settings))
        if state_error:
            raise ServiceError(
                _("Round %(number)s cannot be paired: %(problem)s") % {"number": round_number, "problem": state_error},
                code="bad_state",
            )
        rnd, _created = Round.objects.get_or_create(event=event, number=round_number)
        pairing, _created = RoundPairing.objects.select_for_update().get_or_create(round=rnd)
        pairing.status = RoundPairing.Status.QUEUED
        pairing.attempt += 1
        pairing.progress = 0
        pairing.problem = ""
        pairing.boards, pairing.pab, pairing.engine_boards, pairing.engine_pab = [], None, [], None
        pairing.byes = []
        pairing.changed_by_hand = False
        pairing.requested_by = acting_user(user)
        pairing.requested_at = timezone.now()
        pairing.save()
        pages_changed(event_id=event.pk)  # the round's page says it is being paired
        pairing_id, attempt = pairing.pk, pairing.attempt
        transaction.on_commit(lambda: enqueue_pairing(pairing_id, attempt))
    return pairing


def changes_by_hand(pairing: RoundPairing) -> QuerySet[PairingChange]:
    """The changes by hand of the pairing as it stands (those of an earlier pairing of the round stay
    in the audit trail)."""
    return pairing.changes.filter(at__gte=pairing.requested_at).select_related("user")


def _claim(pairing_id: int, attempt: int) -> RoundPairing | None:
    # the pairing's row alone (not its event's, which a request pairing the round again holds while it waits
    # for this row: they would deadlock)
    pairing = (
        RoundPairing.objects.select_for_update(of=("self",))
        .select_related("round__event")
        .filter(pk=pairing_id)
        .first()
    )
    if pairing is None or pairing.attempt != attempt:
        return None  # paired again (or outdated) meanwhile: this answer is no longer wanted
    return pairing


def pairing_compute(*, pairing_id: int, attempt: int) -> None:
    """The worker's part: pair the round with the engine and store the boards for the preview. A failure
    is stored as the pairing's problem; nothing is published. A pairing the broker hands out again while it is
    still being computed (a big open takes longer than the broker's visibility timeout) is left to the process
    computing it; one whose process died is computed again. The lock is the attempt's: the round paired again
    meanwhile (a new attempt) is computed at once, the older attempt's answer then dropped."""
    with session_lock(f"pairing:{pairing_id}:{attempt}") as held:
        if not held:
            return
        _pairing_compute(pairing_id, attempt)


def _pairing_compute(pairing_id: int, attempt: int) -> None:
    with transaction.atomic():
        pairing = _claim(pairing_id, attempt)
        if pairing is None or pairing.status not in (RoundPairing.Status.QUEUED, RoundPairing.Status.RUNNING):
            return
        event = pairing.round.event
        state = pairing_state(event, pairing.round.number)
        RoundPairing.objects.filter(pk=pairing_id).update(status=RoundPairing.Status.RUNNING, progress=20)
    try:
        result, problem = pair_round(state, engine_system(event)), ""
    except PairingError as error:
        result, problem = None, str(error)
    with transaction.atomic():
        pairing = _claim(pairing_id, attempt)
        if pairing is None:
            return
        pairing.progress = 100
        if result is None:
            pairing.status = RoundPairing.Status.FAILED
            pairing.problem = problem[:500]
        else:
            pairing.status = RoundPairing.Status.READY
            pairing.system = result.system
            boards = [[b.white, b.black] for b in result.boards]
            if isinstance(state, PairingState) and engine_system(event) is System.DUTCH:
                boards = boards_ordered(boards, state, pairing_settings_of(event).board_order)
            pairing.boards = pairing.engine_boards = boards
            pairing.pab = pairing.engine_pab = next(
                (b.start_number for b in result.byes if b.type is ByeType.PAB), None
            )
            pairing.byes = requested_bye_kinds(event, pairing.round.number)
        pairing.save()
        pages_changed(event_id=event.pk)


def boards_ordered(boards: list[list[int]], state: PairingState, order: str) -> list[list[int]]:
    """The boards of a Swiss round in the event's board order within a score group (the higher score of a
    board's two players, highest first): ``score`` keeps the engine's order (FIDE C.04.2: higher score, sum
    of scores, rank), ``sum`` orders a score group by the sum of the two scores then the lower start number,
    ``tpn`` by the lower start number alone."""
    if order not in (PairingSettings.BoardOrder.SUM, PairingSettings.BoardOrder.TPN):
        return boards
    points = {p.start_number: engine_points(p, state.scoring) for p in state.players}

    def key(board: list[int]) -> tuple[Fraction, Fraction, int]:
        high = max(points.get(n, Fraction(0)) for n in board)
        total = sum((points.get(n, Fraction(0)) for n in board), Fraction(0))
        return (-high, -total if order == PairingSettings.BoardOrder.SUM else Fraction(0), min(board))

    return sorted(boards, key=key)


def _ineligible_for_pab(event: Event) -> set[int]:
    """The start numbers of the players (teams) marked not eligible for the pairing-allocated bye."""
    return set(event.entries.filter(bye_ineligible=True).values_list("start_number", flat=True))


def _pab_eligibility_checked(event: Event, pab: int | None, names: dict[int, str], code: str) -> None:
    """The pairing-allocated bye never goes to a player marked not eligible for it. gacrux cannot be told so:
    a pairing that gives it to such a player is refused until the organiser swaps the bye by hand."""
    if pab is not None and pab in _ineligible_for_pab(event):
        raise ServiceError(
            _(
                "%(name)s is marked not eligible for the pairing-allocated bye: give the bye to another player "
                "by hand (swap) first."
            )
            % {"name": names.get(pab, str(pab))},
            code=code,
        )


def _state_problem(event: Event, state: PairingState | TeamPairingState) -> str | None:
    if isinstance(state, TeamPairingState):
        return team_state_problem(state)
    return state_problem(state, engine_system(event))


def _names(state: PairingState | TeamPairingState) -> dict[int, str]:
    """Start number → name of the players (of the teams, in a team Swiss)."""
    if isinstance(state, TeamPairingState):
        return {t.start_number: t.name for t in state.teams}
    return {p.start_number: p.name for p in state.players}


def _met_before(state: PairingState | TeamPairingState) -> set[frozenset[int]]:
    if isinstance(state, TeamPairingState):  # C.04.6 [C1]: teams meet once
        return {frozenset((t.start_number, m.opponent)) for t in state.teams for m in t.rounds if m.opponent}
    return {
        frozenset((p.start_number, e.opponent))
        for p in state.players
        for e in p.rounds
        if e.opponent is not None and e.code not in "+-"  # a forfeit is no game played (C.04.1 b)
    }


def _had_pab(state: PairingState | TeamPairingState) -> set[int]:
    if isinstance(state, TeamPairingState):
        full = (ByeType.PAB, ByeType.FULL)
        return {t.start_number for t in state.teams for m in t.rounds if m.opponent is None and m.bye in full}
    return {p.start_number for p in state.players for e in p.rounds if e.code in "UF+" and e.opponent in (None, 0)}


def _ready_for_change_by_hand(pairing: RoundPairing, reason: str, user: AnyUser) -> tuple[Event, RoundPairing]:
    """The event and the pairing, locked, for a change by hand: refused unless the pairing is ready to
    publish and the change has a reason."""
    event = _locked_event(pairing.round.event, user)
    pairing = RoundPairing.objects.select_for_update().select_related("round").get(pk=pairing.pk)
    if pairing.status != RoundPairing.Status.READY:
        raise ServiceError(_("Only a pairing ready to publish can be changed by hand."), code="not_ready")
    if not reason:
        raise ServiceError(_("A change by hand needs a reason."), code="reason_required")
    return event, pairing


def pairing_swap(*, pairing: RoundPairing, first: int, second: int, reason: str, user: AnyUser) -> RoundPairing:
    """Exchange two players of a previewed pairing (on one board: their colours), by hand, with a reason.

    Refused (ServiceError ``bad_swap``) when it would pair two players who met already or must not
    meet, or give the bye to a player who had one; then nothing was saved."""
    reason = (reason or "").strip()
    with transaction.atomic():
        event, pairing = _ready_for_change_by_hand(pairing, reason, user)
        places: dict[int, tuple[int | Literal["pab"], int]] = {}
        for index, (white, black) in enumerate(pairing.boards):
            places[white], places[black] = (index, 0), (index, 1)
        if pairing.pab is not None:
            places[pairing.pab] = ("pab", 0)
        if first == second or first not in places or second not in places:
            raise ServiceError(_("Choose two different players of this round."), code="bad_swap")
        boards = [list(board) for board in pairing.boards]
        pab = pairing.pab
        for number, (where, side) in ((second, places[first]), (first, places[second])):
            if where == "pab":
                pab = number
            else:
                boards[where][side] = number
        state = pairing_state(event, pairing.round.number)
        _check_boards(state, boards, pab, pairing)
        if pab != pairing.pab:
            _pab_eligibility_checked(event, pab, _names(state), "bad_swap")
        PairingChange.objects.create(
            pairing=pairing,
            user=acting_user(user),
            reason=reason[:300],
            before={"boards": pairing.boards, "pab": pairing.pab},
            after={"boards": boards, "pab": pab},
        )
        pairing.boards, pairing.pab = boards, pab
        pairing.changed_by_hand = (boards, pab) != (pairing.engine_boards, pairing.engine_pab)
        pairing.save(update_fields=["boards", "pab", "changed_by_hand"])
        pages_changed(event_id=event.pk)
    return pairing


def _check_boards(
    state: PairingState | TeamPairingState,
    boards: list[list[int]],
    pab: int | None,
    pairing: RoundPairing,
    code: str = "bad_swap",
) -> None:
    met, forbidden = _met_before(state), {frozenset(pair) for pair in state.forbidden_pairs}
    before = {frozenset(b) for b in pairing.boards}
    names = _names(state)
    for white, black in boards:
        pair = frozenset((white, black))
        if pair in before:
            continue  # unchanged by this swap (perhaps with its colours swapped)
        if pair in met:
            raise ServiceError(
                _("%(white)s and %(black)s have played each other already.")
                % {"white": names[white], "black": names[black]},
                code=code,
            )
        if pair in forbidden:
            raise ServiceError(
                _("%(white)s and %(black)s must not be paired (forbidden pair).")
                % {"white": names[white], "black": names[black]},
                code=code,
            )
    if pab is not None and pab != pairing.pab and pab in _had_pab(state):
        raise ServiceError(
            _("%(name)s has had a bye or a point without playing already.") % {"name": names[pab]}, code=code
        )


def _present(event: Event, state: PairingState | TeamPairingState) -> set[int]:
    """Who is in the round: every player not withdrawn (a round robin keeps a withdrawn player's board,
    the game then lost by forfeit)."""
    numbers = set(_names(state))
    return numbers if engine_system(event) is System.BERGER else numbers - set(state.withdrawn)


def _byes_as_paired(event: Event, pairing: RoundPairing, entries: dict[int, Entry], user: AnyUser) -> None:
    """The round's bye games become the pairing's byes (those changed by hand added, changed or removed)."""
    wanted = {n: kind for n, kind in pairing.byes}
    games = Game.objects.filter(round=pairing.round, black__isnull=True).exclude(result=Result.PAIRING_BYE)
    changed = False
    for game in games.select_related("white"):
        number = game.white.start_number if game.white else 0
        if BYE_KINDS.get(game.result, "zero") == wanted.get(number):
            del wanted[number]
        else:
            game.delete()
            changed = True
    for number, kind in sorted(wanted.items()):
        game = Game.objects.create(round=pairing.round, board=BYE_BOARD + number, white=entries[number])
        result_record(game_id=game.pk, result=REQUESTED_BYES[kind], user=user, reason="changed by hand")
    if changed:
        event_results_changed(event_id=event.pk)


def pairing_edit(
    *,
    pairing: RoundPairing,
    boards: Sequence[Sequence[int]],
    pab: int | None,
    byes: Sequence[tuple[int, str] | list[Any]],
    reason: str,
    user: AnyUser,
) -> RoundPairing:
    """Set the whole round by hand before it is published: `boards` [(white, black), ...] in board
    order, `pab` (who has the pairing-allocated bye, or None) and `byes` [(start number, "half" |
    "zero" | "full"), ...], with a reason (audited; the page then says the round was changed by hand).

    Every player of the round exactly once, nobody else; no two players who met already or must not
    meet; the PAB not to a player who had one. Refused with ServiceError ``bad_edit`` (or
    ``not_ready``, ``reason_required``); then nothing was saved."""
    reason = (reason or "").strip()
    with transaction.atomic():
        event, pairing = _ready_for_change_by_hand(pairing, reason, user)
        board_list = [[int(w), int(b)] for w, b in boards]
        bye_list: list[list[Any]] = sorted([int(n), str(kind)] for n, kind in byes)
        state = pairing_state(event, pairing.round.number)
        _check_edit(event, state, board_list, pab, bye_list)
        _check_boards(state, board_list, pab, pairing, code="bad_edit")
        if pab != pairing.pab:
            _pab_eligibility_checked(event, pab, _names(state), "bad_edit")
        before = {"boards": pairing.boards, "pab": pairing.pab, "byes": pairing.byes}
        after = {"boards": board_list, "pab": pab, "byes": bye_list}
        if after == before:
            return pairing
        PairingChange.objects.create(
            pairing=pairing,
            user=user if user and user.is_authenticated else None,
            reason=reason[:300],
            before=before,
            after=after,
        )
        pairing.boards, pairing.pab, pairing.byes = board_list, pab, bye_list
        pairing.changed_by_hand = (board_list, pab, bye_list) != (
            pairing.engine_boards,
            pairing.engine_pab,
            requested_bye_kinds(event, pairing.round.number),
        )
        pairing.save(update_fields=["boards", "pab", "byes", "changed_by_hand"])
        pages_changed(event_id=event.pk)
    return pairing


def _check_edit(
    event: Event,
    state: PairingState | TeamPairingState,
    boards: list[list[int]],
    pab: int | None,
    byes: list[list[Any]],
) -> None:
    names = {n: f"{n}. {name}" for n, name in _names(state).items()}
    number = state.round

    def refuse(message: str) -> NoReturn:
        raise ServiceError(message, code="bad_edit")

    if any(kind not in REQUESTED_BYES for _n, kind in byes):
        refuse(_("Choose a half-point, zero-point or full-point bye."))
    if byes and engine_system(event) is System.BERGER:
        refuse(_("A round robin's pairings are fixed: an absent player's game is lost by forfeit."))
    placed = [n for board in boards for n in board] + ([pab] if pab is not None else []) + [n for n, _k in byes]
    for n in placed:
        if n not in names:
            refuse(_("There is no player with start number %(number)s.") % {"number": n})
    present = _present(event, state)
    seen: set[int] = set()
    for n in placed:
        if n in seen:
            refuse(_("%(name)s is paired twice in round %(number)s.") % {"name": names[n], "number": number})
        seen.add(n)
        if n not in present:
            refuse(_("%(name)s withdrew and has no place in round %(number)s.") % {"name": names[n], "number": number})
    missing = sorted(present - seen)
    if missing:
        refuse(
            _("%(name)s has neither a board nor a bye in round %(number)s.")
            % {"name": names[missing[0]], "number": number}
        )


def pairing_publish(*, pairing: RoundPairing, user: AnyUser) -> RoundPairing:
    """Publish a previewed pairing: its boards become the round's games (public, open for results).

    A published round paired again is replaced, unless a result was entered meanwhile (``round_played``).
    Refused too when the round's players changed since the pairing (``outdated``); then nothing changed."""
    with transaction.atomic():
        event = _locked_event(pairing.round.event, user)
        pairing = RoundPairing.objects.select_for_update().select_related("round").get(pk=pairing.pk)
        number = pairing.round.number
        if pairing.status != RoundPairing.Status.READY:
            raise ServiceError(_("Only a pairing ready to publish can be published."), code="not_ready")
        if _round_has_results(event, number):
            raise ServiceError(
                _("Round %(number)s has results already; its pairing can no longer change.") % {"number": number},
                code="round_played",
            )
        state = pairing_state(event, number)
        _pab_eligibility_checked(event, pairing.pab, _names(state), "pab_ineligible")
        paired = [n for board in pairing.boards for n in board] + ([pairing.pab] if pairing.pab else [])
        paired += [n for n, _kind in pairing.byes]
        if sorted(paired) != sorted(_present(event, state)):
            raise ServiceError(
                _("The players of round %(number)s changed after the pairing; pair it again.") % {"number": number},
                code="outdated",
            )
        old = _paired_games(event, number)
        had_pab = old.filter(result=Result.PAIRING_BYE).exists()
        old.delete()
        entries = {e.start_number: e for e in event.entries.all()}
        _byes_as_paired(event, pairing, entries, user)
        if is_team_swiss(event):  # a board is a team match, with a game per board
            team_rounds_publish(event, pairing.round, pairing.boards, entries)
        for board, (white, black) in enumerate([] if is_team_swiss(event) else pairing.boards, start=1):
            Game.objects.create(round=pairing.round, board=board, white=entries[white], black=entries[black])
        if pairing.pab:
            bye = Game.objects.create(round=pairing.round, board=BYE_BOARD + pairing.pab, white=entries[pairing.pab])
            result_record(game_id=bye.pk, result=Result.PAIRING_BYE, user=user, reason="pairing")
        elif had_pab:
            event_results_changed(event_id=event.pk)
        pairing.status = RoundPairing.Status.PUBLISHED
        pairing.published_by = acting_user(user)
        pairing.published_at = timezone.now()
        pairing.save(update_fields=["status", "published_by", "published_at"])
        pages_changed(event_id=event.pk)
        pairings_published(
            event_id=event.pk, slug=event.slug, round_number=number, publication=f"{pairing.pk}:{pairing.attempt}"
        )
        pairings_published_followers(event_id=event.pk, round_number=number)  # their e-mails, after the commit
    return pairing


def bye_warnings(*, event: Event, round_number: int, entry: Entry, kind: str) -> list[str]:
    """What a bye request is warned of (FIDE 2026 checklist): a half-point bye beyond the event's limit or in
    one of its last rounds without half-point byes (the organiser confirms it; in FIDE mode these warnings
    cannot be switched off, and no setting does), and a full-point bye on request, a deprecated practice."""
    warnings = []
    settings = pairing_settings_of(event)
    if kind == "half":
        used = Game.objects.filter(round__event=event, white=entry, result=Result.HALF_POINT_BYE).count()
        if used >= settings.half_byes_allowed:
            warnings.append(
                ngettext(
                    "%(name)s has had %(used)s half-point bye; the event allows %(count)s.",
                    "%(name)s has had %(used)s half-point byes; the event allows %(count)s.",
                    used,
                )
                % {"name": entry, "used": used, "count": settings.half_byes_allowed}
            )
        last = settings.half_byes_not_last_rounds
        if last and round_number > event.rounds_count - last:
            warnings.append(
                ngettext(
                    "Round %(number)s is the last round, where the event allows no half-point byes.",
                    "Round %(number)s is one of the last %(count)s rounds, where the event allows no half-point byes.",
                    last,
                )
                % {"number": round_number, "count": last}
            )
    if kind == "full":
        warnings.append(
            _(
                "A full-point bye on request is a deprecated practice (FIDE 2026): a player who does not play "
                "scores at most half a point."
            )
        )
    return warnings


def bye_request(
    *, event: Event, round_number: int, entry: Entry, kind: str, user: AnyUser, confirmed: bool = False
) -> Game:
    """A bye asked for before `round_number` is paired. A half-point bye beyond the event's limits is a
    warning (:func:`bye_warnings`) the organiser confirms: without `confirmed` it is refused with the code
    ``confirmation_required`` and nothing is saved. A full-point bye is entered with its warning."""
    if kind not in REQUESTED_BYES:
        raise ServiceError(_("Choose a half-point, zero-point or full-point bye."), code="bad_bye")
    with transaction.atomic():
        event = _locked_event(event, user)
        _before_pairing(event, round_number)
        if event.is_round_robin:
            raise ServiceError(
                _("A round robin's pairings are fixed: an absent player's game is lost by forfeit."),
                code="round_robin",
            )
        if entry.event_id != event.pk:
            raise ServiceError(
                _("%(name)s is not playing in %(event)s.") % {"name": entry, "event": event}, code="player_not_in_event"
            )
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        if entry.withdrawn_after_round is not None and entry.withdrawn_after_round < round_number:
            raise ServiceError(
                _("%(name)s withdrew after round %(round)s.") % {"name": entry, "round": entry.withdrawn_after_round},
                code="withdrawn",
            )
        if kind == "half" and entry.half_bye_ineligible:
            raise ServiceError(
                _(
                    "%(name)s is not eligible for a half-point bye in this event (the organiser marked the entry so, "
                    "e.g. a free entry): a zero-point bye can be entered instead."
                )
                % {"name": entry},
                code="half_bye_not_eligible",
            )
        if Game.objects.filter(round__event=event, round__number=round_number, white=entry, black__isnull=True):
            raise ServiceError(
                _("%(name)s has a bye in round %(number)s already.") % {"name": entry, "number": round_number},
                code="player_twice_in_round",
            )
        limits = [] if kind != "half" else bye_warnings(event=event, round_number=round_number, entry=entry, kind=kind)
        if limits and not confirmed:
            raise ServiceError(
                " ".join([*limits, _("Confirm to enter the half-point bye all the same.")]),
                code="confirmation_required",
            )
        rnd, _created = Round.objects.get_or_create(event=event, number=round_number)
        game = Game.objects.create(round=rnd, board=BYE_BOARD + entry.start_number, white=entry)
        result_record(game_id=game.pk, result=REQUESTED_BYES[kind], user=user, reason="bye requested")
        _outdated(event, round_number)
        return game


def bye_cancel(*, game: Game, user: AnyUser) -> None:
    """Take back a requested bye before its round is paired."""
    with transaction.atomic():
        event = _locked_event(game.round.event, user)
        game = Game.objects.select_related("round").get(pk=game.pk)
        if not game.is_bye or game.result == Result.PAIRING_BYE:
            raise ServiceError(_("Only a requested bye can be taken back."), code="bad_bye")
        _before_pairing(event, game.round.number)
        game.delete()
        event_results_changed(event_id=event.pk)
        _outdated(event, game.round.number)


def _before_pairing(event: Event, round_number: int) -> None:
    if not last_paired_round(event) < round_number <= event.rounds_count:
        raise ServiceError(
            _("Round %(number)s is paired already; byes are entered before the pairing.") % {"number": round_number},
            code="round_paired",
        )


def round_withdraw(
    *, entry: Entry, round_number: int, user: AnyUser, reason: str = "", source: str = ResultChange.Source.FORM
) -> Entry:
    """Withdraw a player from `round_number` on (not paired again); a player is withdrawn once. After the
    event's start the withdrawal is recorded with the settings' changes (services.fide_mode)."""
    with transaction.atomic():
        event = _locked_event(entry.event, user)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.withdrawn_after_round is not None:
            raise ServiceError(
                _("%(name)s withdrew after round %(round)s already.")
                % {"name": entry, "round": entry.withdrawn_after_round},
                code="withdrawn_twice",
            )
        _before_pairing(event, round_number)
        setting_change_checked(
            event,
            setting=SettingChange.Setting.WITHDRAWAL,
            before=f"{entry.start_number} {entry.name}",  # who withdrew, from which round
            after=str(round_number),
            user=user,
            reason=reason,
            source=source,
        )
        entry = entry_withdraw(entry=entry, user=user, after_round=round_number - 1)
        _outdated(event, round_number)
        return entry


def pairing_settings_save(
    *,
    event: Event,
    user: AnyUser,
    pab_points: Decimal,
    half_byes_allowed: int,
    forbidden_pairs: list[tuple[int, int]],
    initial_colour: str = "",
    reason: str = "",
    source: str = ResultChange.Source.FORM,
    half_byes_not_last_rounds: int | None = None,
    board_order: str | None = None,
) -> PairingSettings:
    """The event's pairing settings; the initial colour only before round 1 is paired. The bye's value is
    checked with the event's scoring (services.fide_mode); once the event has started, a change of the bye's
    value or of the forbidden pairs is refused in FIDE mode, else needs a `reason` and is recorded."""
    with transaction.atomic():
        event = _locked_event(event, user)
        settings = pairing_settings_of(event)
        event_scoring_checked(event, pab=pab_points)
        numbers = set(event.entries.values_list("start_number", flat=True))
        pairs = set()
        for a, b in forbidden_pairs:
            if a not in numbers or b not in numbers or a == b:
                raise ServiceError(
                    _("Forbidden pair %(a)s-%(b)s: give two different start numbers of the event.") % {"a": a, "b": b},
                    code="bad_forbidden_pair",
                )
            pairs.add((min(a, b), max(a, b)))
        setting_change_checked(
            event,
            setting=SettingChange.Setting.PAB,
            before=shown(settings.pab_points),
            after=shown(pab_points),
            user=user,
            reason=reason,
            source=source,
        )
        setting_change_checked(
            event,
            setting=SettingChange.Setting.FORBIDDEN_PAIRS,
            before=pairs_text(sorted(tuple(pair) for pair in settings.forbidden_pairs)),
            after=pairs_text(sorted(pairs)),
            user=user,
            reason=reason,
            source=source,
        )
        if half_byes_not_last_rounds is None:
            half_byes_not_last_rounds = settings.half_byes_not_last_rounds
        board_order = board_order or settings.board_order
        if board_order not in PairingSettings.BoardOrder.values:
            raise SettingRefused("board_order", _("Choose a board order."), code="bad_board_order")
        setting_change_checked(
            event,
            setting=SettingChange.Setting.HALF_BYES,
            before=_half_byes_text(settings.half_byes_allowed, settings.half_byes_not_last_rounds),
            after=_half_byes_text(half_byes_allowed, half_byes_not_last_rounds),
            user=user,
            reason=reason,
            source=source,
        )
        setting_change_checked(
            event,
            setting=SettingChange.Setting.BOARD_ORDER,
            before=settings.board_order,
            after=board_order,
            user=user,
            reason=reason,
            source=source,
        )
        if initial_colour and initial_colour != settings.initial_colour:
            if last_paired_round(event) or RoundPairing.objects.filter(round__event=event).exists():
                raise ServiceError(
                    _("Round 1 is paired; its initial colour can no longer change."), code="colour_drawn"
                )
            settings.initial_colour, settings.colour_seed = initial_colour, ""
            settings.colour_drawn_at = timezone.now()
            settings.colour_drawn_by = acting_user(user)
        settings.pab_points = pab_points
        settings.half_byes_allowed = half_byes_allowed
        settings.half_byes_not_last_rounds = half_byes_not_last_rounds
        settings.board_order = board_order
        settings.forbidden_pairs = [list(pair) for pair in sorted(pairs)]
        settings.save()
        event_results_changed(event_id=event.pk)  # the bye's value counts in the standings
        next_round = last_paired_round(event) + 1
        _outdated(event, next_round)
        return settings


def _half_byes_text(allowed: int, not_last: int) -> str:
    return f"{allowed} / {not_last}"  # half-point byes allowed / none in the last N rounds


#: the byes a player can be marked not eligible for (FIDE 2026 checklist): the entry's flag and the audit's setting
ELIGIBILITY = {
    "pab": ("bye_ineligible", SettingChange.Setting.BYE_ELIGIBILITY),
    "half": ("half_bye_ineligible", SettingChange.Setting.HALF_BYE_ELIGIBILITY),
}


def entry_bye_eligibility_set(
    *,
    entry: Entry,
    eligible: bool,
    user: AnyUser,
    reason: str = "",
    source: str = ResultChange.Source.FORM,
    kind: str = "pab",
) -> Entry:
    """Mark a player (a team in a team Swiss) eligible or not for the pairing-allocated bye (`kind` "pab") or
    for a half-point bye on request ("half": a free entry, the event's conditions; such a request is then
    refused, in FIDE mode and out of it); after the event's start the change is recorded with the settings'
    changes. A pairing not yet published is made again."""
    if kind not in ELIGIBILITY:
        raise ServiceError(_("Choose the pairing-allocated bye or a half-point bye."), code="bad_bye")
    field, setting = ELIGIBILITY[kind]
    with transaction.atomic():
        event = _locked_event(entry.event, user)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if getattr(entry, field) == (not eligible):
            return entry
        setting_change_checked(
            event,
            setting=setting,
            before=f"{entry.start_number} {entry.name}: {'no' if getattr(entry, field) else 'yes'}",
            after=f"{entry.start_number} {entry.name}: {'yes' if eligible else 'no'}",
            user=user,
            reason=reason,
            source=source,
            reason_required=False,
        )
        setattr(entry, field, not eligible)
        entry.save(update_fields=[field])
        if kind == "pab":
            _outdated(event, last_paired_round(event) + 1)
        pages_changed(event_id=event.pk)
        return entry


# --- Reads for the pairing screen, the public pairings page and the API ---------------------------


@dataclass(frozen=True)
class Seat:
    entry: Entry
    points: Fraction
    colours: str  # colours of the games played so far, "wbw"

    @property
    def shown_points(self) -> str:
        """Points as a crosstable writes them: 2½, 3, ½ (other fractions as decimals)."""
        whole, rest = divmod(self.points, 1)
        if rest == 0:
            return str(int(whole))
        if rest == Fraction(1, 2):
            return f"{int(whole) or ''}½"
        return f"{float(self.points):g}"


@dataclass(frozen=True)
class BoardRow:
    number: int
    white: Seat
    black: Seat | None  # None: the pairing-allocated bye
    game: Game | None = None
    score: str = ""  # a team Swiss's match (game None): its score, "" until every board has a result
    match_id: int | None = None  # a team Swiss's match: its match card


def _seats(event: Event, round_number: int) -> dict[int, Seat]:
    entries = _entries(event)
    scoring = scoring_for(event)
    by_number = {e.start_number: e for e in entries}
    state = pairing_state(event, round_number) if is_team_swiss(event) else None
    if isinstance(state, TeamPairingState):  # a team's match points and its colours on board 1
        figures = team_seat_figures(state)
        return {n: Seat(by_number[n], points, colours) for n, (points, colours) in figures.items()}
    return {
        p.start_number: Seat(by_number[p.start_number], engine_points(p, scoring), engine_colours(p))
        for p in players_before(event, round_number)
    }


def preview_rows(pairing: RoundPairing) -> list[BoardRow]:
    """A pairing's boards as the organiser previews them: points and colours before the round."""
    seats = _seats(pairing.round.event, pairing.round.number)
    rows = [BoardRow(i, seats[w], seats[b]) for i, (w, b) in enumerate(pairing.boards, start=1)]
    if pairing.pab:
        rows.append(BoardRow(len(rows) + 1, seats[pairing.pab], None))
    return rows


@dataclass(frozen=True)
class ByeRow:
    seat: Seat
    result: str  # the bye's Result

    @property
    def label(self) -> str:
        return str(Result(self.result).label)


def preview_byes(pairing: RoundPairing) -> list[ByeRow]:
    """A previewed pairing's other byes (requested, or set by hand), with each player's seat."""
    seats = _seats(pairing.round.event, pairing.round.number)
    return [ByeRow(seats[n], REQUESTED_BYES[kind]) for n, kind in pairing.byes]


def published_rows(event: Event, round_number: int) -> list[BoardRow]:
    """The round's published boards with each player's points before the round (as chess-results shows
    the pairings of the next round)."""
    seats = _seats(event, round_number)
    games = _paired_games(event, round_number).select_related("white", "black").order_by("board")
    team_swiss = is_team_swiss(event)
    if team_swiss:  # a row per match, by its board 1 (White: the team with White there), then the bye
        games = games.filter(Q(board=1) | Q(match__isnull=True)).order_by(F("match_id").asc(nulls_last=True))
        boards: dict[int, list[Game]] = {}
        for game in _paired_games(event, round_number).filter(match__isnull=False).order_by("board"):
            boards.setdefault(game.match_id or 0, []).append(game)
    rows = []
    for number, g in enumerate(games, start=1):
        if g.white is None:
            raise RuntimeError("every published board has white")
        white, black = seats[g.white.start_number], seats[g.black.start_number] if g.black else None
        if team_swiss and g.match_id:  # the match's row: its score, not board 1's result
            rows.append(BoardRow(number, white, black, None, match_score(event, boards[g.match_id]), g.match_id))
        else:
            rows.append(BoardRow(number if team_swiss else g.board, white, black, g))
    return rows
