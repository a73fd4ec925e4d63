"""Match cards of team events: one club's secretary submits the card, the other club confirms or
disputes it, and unanswered cards confirm themselves. Each write is one transaction."""

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import Conflict, PermissionDenied, ServiceError
from ..models import Event, FinishedEventChange, Game, League, ResultChange, TeamMatch
from ..notifications import notify_after_commit
from ..page_cache import pages_changed
from ..permissions import AnyUser, acting_user, can_manage_event, is_league_organiser, secretary_club_ids
from .cups import cup_card_confirmed, cup_card_corrected
from .league_rules import card_blocks, card_violations_record, penalties_kept
from .lineups import lineup_apply
from .locking import event_lock_of
from .results import event_frozen, finished_event_override, games_locked, result_record
from .webhooks import match_card_changed


def _match_clubs(match: TeamMatch) -> tuple[int, int]:
    home, away = match.home.team, match.away.team
    if home is None or away is None:
        raise RuntimeError("a match is between two teams")
    return home.club_id, away.club_id


def match_card_submit(
    *,
    match_id: int,
    results: dict[int, tuple[str, int]],
    user: AnyUser,
    expected_version: int,
    reason: str = "",
    source: str = ResultChange.Source.FORM,
    lineup: dict[int, tuple[int | None, int | None]] | None = None,
    notify: bool = True,
    later_pairing: str = "",
) -> TeamMatch:
    """One club's secretary (or an organiser) submits a card; the other club then confirms or disputes.

    ``lineup`` ({board: (home player id, away player id)}) names the players first, in the same transaction."""
    with transaction.atomic():
        match = _locked_card(match_id, None)
        event = match.round.event
        manager = can_manage_event(user, event)
        if not manager and not (secretary_club_ids(user) & set(_match_clubs(match))):
            raise PermissionDenied(_("You may not enter results for this match."))
        finished_event_override(event, user, reason, FinishedEventChange.Subject.CARD)
        if match.version != expected_version:
            if _same_card_again(match, results, user):  # a double click or a retry: the card is already as sent
                return _with_boards(match, match.games.select_related("white", "black"))
            raise Conflict(
                _("Someone changed this match card meanwhile; reload it to see the current results."), current=match
            )
        correction = match.status == TeamMatch.Status.CONFIRMED
        if correction:
            if not is_league_organiser(user, event.league_id):
                raise ServiceError(
                    _("This match card is confirmed; only the organiser can change it now."), code="card_confirmed"
                )
            if not reason.strip():
                raise ServiceError(_("A correction needs a reason."), code="reason_required")
        card_blocks(match=match, lineup=lineup, user=user)  # the league's blocking rules
        penalties_kept(match=match, results=results, user=user)  # a board defaulted by a penalty stays so
        if lineup:
            lineup_apply(match, lineup)
        games = games_locked(match.games.all(), match.round)
        unknown = set(results) - set(games)
        if unknown:
            raise ServiceError(
                _("Game %(id)s is not on this match card.") % {"id": min(unknown)}, code="game_not_on_card"
            )
        changes = []
        for game_id, (code, version) in sorted(results.items()):
            if code != games[game_id].result:
                changes.append([games[game_id].board, games[game_id].result, code])
                result_record(
                    game_id=game_id,
                    result=code,
                    user=user,
                    source=source,
                    expected_version=version,
                    reason=reason.strip(),
                    card=match,
                    later_pairing=later_pairing,
                    locked=games[game_id],
                )
        match.status = TeamMatch.Status.CONFIRMED if manager else TeamMatch.Status.SUBMITTED
        match.submitted_by, match.submitted_at = acting_user(user), timezone.now()
        if manager:
            match.confirmed_by, match.confirmed_at = acting_user(user), timezone.now()
        match.dispute_reason = ""
        match.version += 1
        match.save()
        card_violations_record(match=match)  # what the saved card breaks: to the organiser's inbox
        match_card_changed(match)
        if correction:  # a cup's tie of an earlier round: the next round's match follows, or the correction waits
            cup_card_corrected(match, user=user, reason=reason, later_pairing=later_pairing)
        cup_card_confirmed(match)  # a cup's tie decided by this card: the cup advances
        pages_changed(event_id=match.round.event_id)  # the card's state is on the event's pages
        if notify and correction:
            notify_after_commit("card_corrected", match_id=match.pk, changes=sorted(changes), reason=reason.strip())
        elif notify:
            notify_after_commit("card_confirmed" if manager else "card_submitted", match_id=match.pk)
        return _with_boards(match, games.values())


def _with_boards(match: TeamMatch, boards: Iterable[Game]) -> TeamMatch:
    """The card as saved, its boards with it: `match.games.all()` answers them (in board order, with their round and
    sides) without reading them again, as a prefetch would (the API's answer to a card is the card)."""
    games = sorted(boards, key=lambda game: game.board)
    for game in games:
        game.round = match.round
    match._prefetched_objects_cache = {"games": games}  # type: ignore[attr-defined]  # Django's prefetch cache
    return match


def _locked_card(match_id: int, expected_version: int | None) -> TeamMatch:
    """The card, locked for this transaction (after its event's row, services.locking.event_lock); Conflict when
    the user saw another version of it."""
    event_lock_of(match_id=match_id)
    match = (
        TeamMatch.objects.select_for_update(of=("self",))
        .select_related("round__event", "home__team", "away__team")
        .get(pk=match_id)
    )
    if expected_version is not None and match.version != expected_version:
        raise Conflict(
            _("Someone changed this match card meanwhile; reload it to see the current results."), current=match
        )
    return match


def _same_card_again(match: TeamMatch, results: dict[int, tuple[str, int]], user: AnyUser) -> bool:
    """The user's own submitted card sent again with the same results (a double click, a retry)."""
    stored = dict(match.games.values_list("pk", "result"))
    return (
        match.status == TeamMatch.Status.SUBMITTED
        and match.submitted_by_id == getattr(user, "pk", None)
        and all(stored.get(game_id, None) == code for game_id, (code, _version) in results.items())
    )


def _other_side(user: AnyUser, match: TeamMatch) -> bool:
    submitter_clubs = secretary_club_ids(match.submitted_by)
    mine = secretary_club_ids(user) & set(_match_clubs(match))
    return bool(mine - submitter_clubs) or (bool(mine) and not submitter_clubs)


def match_card_actions(user: AnyUser, match: TeamMatch) -> set[str]:
    """What this user may do with the card now, for the pages: "edit", "confirm", "dispute" (the services
    check again). The club that submitted a card waits; the other club answers it."""
    manager = can_manage_event(user, match.round.event)
    mine = bool(secretary_club_ids(user) & set(_match_clubs(match)))
    if match.round.event.status == match.round.event.Status.FINISHED:  # frozen: the organiser's override only
        return {"edit"} if is_league_organiser(user, match.round.event.league_id) else set()
    actions: set[str] = set()
    answering = match.status == TeamMatch.Status.SUBMITTED and _other_side(user, match)
    if manager or (mine and match.status != TeamMatch.Status.CONFIRMED and not answering):
        actions.add("edit")
    if answering or (manager and match.status == TeamMatch.Status.SUBMITTED):
        actions.add("confirm")
    if answering:
        actions.add("dispute")
    return actions


def match_card_confirm(*, match_id: int, user: AnyUser, expected_version: int) -> TeamMatch:
    """The other club (or the organiser) confirms the card in the version they saw."""
    with transaction.atomic():
        match = _locked_card(match_id, expected_version)
        event_frozen(match.round.event)
        if match.status != TeamMatch.Status.SUBMITTED:
            raise ServiceError(_("Only a submitted match card can be confirmed."), code="card_not_submitted")
        if not (can_manage_event(user, match.round.event) or _other_side(user, match)):
            raise PermissionDenied(_("The other club's secretary confirms this card."))
        match.status, match.confirmed_by, match.confirmed_at = (
            TeamMatch.Status.CONFIRMED,
            acting_user(user),
            timezone.now(),
        )
        match.version += 1
        match.save()
        match_card_changed(match)
        cup_card_confirmed(match)
        pages_changed(event_id=match.round.event_id)
        notify_after_commit("card_confirmed", match_id=match.pk)
        return match


def match_card_dispute(*, match_id: int, user: AnyUser, reason: str, expected_version: int) -> TeamMatch:
    """The other club disputes the card in the version they saw, saying why."""
    if not reason.strip():
        raise ServiceError(_("Say what is wrong with the card."), code="reason_required")
    with transaction.atomic():
        match = _locked_card(match_id, expected_version)
        event_frozen(match.round.event)
        if match.status != TeamMatch.Status.SUBMITTED:
            raise ServiceError(_("Only a submitted match card can be disputed."), code="card_not_submitted")
        if not _other_side(user, match):
            raise PermissionDenied(_("The other club's secretary confirms or disputes this card."))
        match.status, match.dispute_reason = TeamMatch.Status.DISPUTED, reason.strip()
        match.version += 1
        match.save()
        match_card_changed(match)
        pages_changed(event_id=match.round.event_id)
        notify_after_commit("card_disputed", match_id=match.pk)
        return match


def match_cards_auto_confirm(*, now: datetime | None = None) -> int:
    """Confirm submitted cards left unanswered for the league's number of days (not in a finished event, which
    is frozen). Returns how many."""
    now = now or timezone.now()
    confirmed = 0
    for league in League.objects.all():
        limit = now - timedelta(days=league.auto_confirm_days)
        due = TeamMatch.objects.filter(
            round__event__league=league, status=TeamMatch.Status.SUBMITTED, submitted_at__lte=limit
        ).exclude(round__event__status=Event.Status.FINISHED)  # a finished event's cards stay as they are
        with transaction.atomic():
            cards = list(due.select_related("round").select_for_update(of=("self",)))
            for event_id in {card.round.event_id for card in cards}:
                pages_changed(event_id=event_id)
            confirmed += TeamMatch.objects.filter(pk__in=[card.pk for card in cards]).update(
                status=TeamMatch.Status.CONFIRMED, confirmed_at=now
            )
            for card in cards:
                card.status = TeamMatch.Status.CONFIRMED
                match_card_changed(card)
                cup_card_confirmed(card)
    return confirmed
