"""Secretaries entering and correcting results: sheets, match cards, confirmation, the locked policy."""

from datetime import timedelta

import pytest
from django.utils import timezone

from leagues.errors import Conflict, PermissionDenied, ServiceError
from leagues.models import (
    Event,
    Game,
    Result,
    ResultChange,
    Role,
    StandingsSnapshot,
    TeamMatch,
    TiebreakPolicyChange,
)
from leagues.services.locking import event_lock
from leagues.services.match_cards import (
    match_card_confirm,
    match_card_dispute,
    match_card_submit,
    match_cards_auto_confirm,
)
from leagues.services.policy import event_policy_set
from leagues.services.results import result_record, round_sheet_save
from tests.factories import UserFactory, organiser_of, swiss_event
from tests.helpers import another_connection_waits_for_a_lock, present, team_match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _results(games):
    return list(Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk").values_list("result", flat=True))


def test_round_sheet_saves_every_game_or_none():
    event, _entries, games = swiss_event(players=6)
    user = organiser_of(event.league)
    good: dict[int, tuple[str, int]] = {games[0].pk: (Result.WHITE_WINS, 0), games[1].pk: (Result.DRAW, 0)}
    bad: dict[int, tuple[str, int]] = {**good, games[2].pk: (Result.HALF_POINT_BYE, 0)}  # a bye code for a game

    with pytest.raises(ServiceError) as excinfo:
        round_sheet_save(event=event, round_number=1, results=bad, user=user)
    assert excinfo.value.code == "bye_for_game"
    assert _results(games) == ["", "", ""]  # nothing half-saved
    assert ResultChange.objects.count() == 0

    round_sheet_save(event=event, round_number=1, results=good, user=user)
    assert _results(games) == ["1-0", "1/2-1/2", ""]
    assert Event.objects.get(pk=event.pk).results_version == 1  # one sheet saved: one new version of the results


def test_round_sheet_names_the_problem():
    event, _entries, games = swiss_event(players=4)
    user = organiser_of(event.league)
    with pytest.raises(ServiceError) as not_paired:
        round_sheet_save(event=event, round_number=2, results={games[0].pk: ("1-0", 0)}, user=user)
    assert not_paired.value.code == "round_not_paired"
    _other_event, _, other_games = swiss_event(players=4)
    with pytest.raises(ServiceError) as foreign:
        round_sheet_save(event=event, round_number=1, results={other_games[0].pk: ("1-0", 0)}, user=user)
    assert foreign.value.code == "game_not_in_round"


def test_second_save_based_on_stale_data_is_refused():
    event, _entries, games = swiss_event(players=4)
    first, second = organiser_of(event.league), organiser_of(event.league)
    round_sheet_save(event=event, round_number=1, results={games[0].pk: (Result.WHITE_WINS, 0)}, user=first)
    with pytest.raises(Conflict) as excinfo:  # the second secretary still had version 0 on screen
        round_sheet_save(
            event=event, round_number=1, results={games[0].pk: (Result.BLACK_WINS, 0)}, user=second, reason="scoresheet"
        )
    assert excinfo.value.current.result == Result.WHITE_WINS
    assert _results(games[:1]) == ["1-0"]


def test_a_match_card_is_one_new_version_of_the_results_and_one_stale_board_refuses_all_of_it():
    """A card of four boards raises the event's results version once (as a sheet, as an import); a card whose
    third board was changed meanwhile by someone else is refused whole: no board, no audit row, no version."""
    event, match, games, (home, _away) = team_match(boards=4)
    stale: dict[int, tuple[str, int]] = {g.pk: (Result.WHITE_WINS, 0) for g in games} | {games[2].pk: (Result.DRAW, 3)}
    with pytest.raises(Conflict):
        match_card_submit(match_id=match.pk, results=stale, user=home, expected_version=0)
    assert _results(games) == ["", "", "", ""]
    assert ResultChange.objects.count() == 0
    assert Event.objects.get(pk=event.pk).results_version == 0

    card: dict[int, tuple[str, int]] = {g.pk: (Result.WHITE_WINS, 0) for g in games} | {games[2].pk: (Result.DRAW, 0)}
    match_card_submit(match_id=match.pk, results=card, user=home, expected_version=0)
    assert _results(games) == ["1-0", "1-0", "1/2-1/2", "1-0"]
    assert ResultChange.objects.count() == 4
    assert Event.objects.get(pk=event.pk).results_version == 1


def test_match_card_submitted_by_one_club_confirmed_by_the_other():
    _event, match, games, (home, away) = team_match()
    card: dict[int, tuple[str, int]] = {games[0].pk: (Result.WHITE_WINS, 0), games[1].pk: (Result.DRAW, 0)}
    match = match_card_submit(match_id=match.pk, results=card, user=home, expected_version=0)
    assert match.status == TeamMatch.Status.SUBMITTED
    with pytest.raises(PermissionDenied):
        match_card_confirm(match_id=match.pk, user=home, expected_version=1)  # not your own card
    match = match_card_confirm(match_id=match.pk, user=away, expected_version=1)
    assert (match.status, match.confirmed_by) == (TeamMatch.Status.CONFIRMED, away)
    with pytest.raises(ServiceError) as excinfo:  # confirmed: only the organiser may change it now
        match_card_submit(
            match_id=match.pk,
            results={games[1].pk: (Result.BLACK_WINS, 1)},
            user=home,
            expected_version=match.version,
            reason="typo",
        )
    assert excinfo.value.code == "card_confirmed"


def test_disputed_card_is_settled_by_the_organiser_and_stale_cards_are_refused():
    event, match, games, (home, away) = team_match()
    match_card_submit(match_id=match.pk, results={games[0].pk: (Result.WHITE_WINS, 0)}, user=home, expected_version=0)
    with pytest.raises(ServiceError):
        match_card_dispute(match_id=match.pk, user=away, reason="  ", expected_version=1)
    disputed = match_card_dispute(match_id=match.pk, user=away, reason="board 1 was a draw", expected_version=1)
    assert disputed.status == TeamMatch.Status.DISPUTED
    with pytest.raises(Conflict):
        match_card_submit(match_id=match.pk, results={}, user=organiser_of(event.league), expected_version=1)
    settled = match_card_submit(
        match_id=match.pk,
        results={games[0].pk: (Result.DRAW, 1)},
        user=organiser_of(event.league),
        expected_version=disputed.version,
        reason="arbiter's decision",
    )
    assert settled.status == TeamMatch.Status.CONFIRMED
    assert Game.objects.get(pk=games[0].pk).result == Result.DRAW


def test_unanswered_cards_confirm_themselves_after_the_leagues_days():
    event, match, games, (home, _away) = team_match()
    match_card_submit(match_id=match.pk, results={games[0].pk: (Result.WHITE_WINS, 0)}, user=home, expected_version=0)
    days = event.league.auto_confirm_days
    assert match_cards_auto_confirm(now=timezone.now() + timedelta(days=days) - timedelta(hours=1)) == 0
    assert match_cards_auto_confirm(now=timezone.now() + timedelta(days=days, minutes=1)) == 1
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.CONFIRMED


def test_tiebreak_policy_locks_at_the_first_result():
    event, _entries, games = swiss_event(players=4, tiebreak_criteria=["BH/C1", "BH"])
    organiser = organiser_of(event.league)
    arbiter = UserFactory()
    Role.objects.create(user=arbiter, kind=Role.Kind.ARBITER, event=event)
    event_policy_set(event_id=event.pk, rule_set="fide-2026", criteria=["SB", "BH"], user=arbiter)
    with pytest.raises(ServiceError) as unknown:
        event_policy_set(event_id=event.pk, rule_set="fide-2026", criteria=["XYZ"], user=organiser)
    assert unknown.value.code == "bad_tiebreak_policy"

    result_record(game_id=games[0].pk, result=Result.DRAW, user=organiser)
    with pytest.raises(PermissionDenied):  # locked: the arbiter alone may not change it any more
        event_policy_set(event_id=event.pk, rule_set="fide-2026", criteria=["BH"], user=arbiter)
    with pytest.raises(ServiceError) as no_reason:
        event_policy_set(event_id=event.pk, rule_set="fide-2026", criteria=["BH"], user=organiser)
    assert no_reason.value.code == "reason_required"
    event_policy_set(
        event_id=event.pk, rule_set="fide-2026", criteria=["BH"], user=organiser, reason="regulations said BH only"
    )
    change = TiebreakPolicyChange.objects.get(event=event)
    assert (change.criteria_before, change.criteria_after) == (["SB", "BH"], ["BH"])
    assert StandingsSnapshot.objects.get(event=event).criteria == ["BH"]


def test_buchholz_refused_for_a_round_robin_policy():
    event, _entries, _games = swiss_event(players=4, system=Event.System.ROUND_ROBIN)
    with pytest.raises(ServiceError) as excinfo:
        event_policy_set(event_id=event.pk, rule_set="fide-2026", criteria=["BH"], user=organiser_of(event.league))
    assert "round robin" in excinfo.value.message


def test_correction_records_what_it_changed_in_the_standings():
    event, _entries, games = swiss_event(players=4)
    user = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=user)
    result_record(game_id=games[1].pk, result=Result.WHITE_WINS, user=user)
    result_record(game_id=games[0].pk, result=Result.BLACK_WINS, user=user, reason="wrong sheet")
    correction = ResultChange.objects.get(before="1-0")
    moved = {change["number"]: change for change in present(correction.standings_impact)}
    assert moved[1]["points"] == [1.0, 0.0]  # start number 1 lost the point it had
    assert moved[3]["points"] == [0.0, 1.0]
    assert moved[3]["rank"][1] == 1


@pytest.mark.django_db(transaction=True)  # threads: each has its own connection and commits
def test_a_result_entered_while_the_round_sheet_is_saved_never_deadlocks():
    """A secretary saves the round sheet while another enters board 2's result alone: one waits for the other
    and each ends as a user expects (the lone result saved; the sheet saved, or refused because board 2 changed
    meanwhile, with nothing of it half-saved), never a database error (it was a deadlock: the sheet held the
    event's row and waited for board 2, the lone result held board 2 and waited for the event's row; both now
    lock the event's row first, issue 35)."""
    import threading

    from django.db import connection, transaction

    from tests.e2e.worker import wait_until

    event, _entries, games = swiss_event(players=6)
    user = organiser_of(event.league)
    board_two_held, sheet_sent = threading.Event(), threading.Event()
    outcomes: dict[str, object] = {}

    def lone_result():  # as result_record does it: the event's row locked, then board 2's, then the result saved
        try:
            with transaction.atomic():
                event_lock(event.pk)
                Game.objects.select_for_update().get(pk=games[1].pk)
                board_two_held.set()
                sheet_sent.wait(120)
                # the sheet is under way meanwhile: it waits for the event's row, however slow the machine
                assert wait_until(another_connection_waits_for_a_lock, timeout=120)
                result_record(game_id=games[1].pk, result=Result.DRAW, user=user)
            outcomes["lone"] = "saved"
        except Exception as exc:
            outcomes["lone"] = exc
        finally:
            connection.close()

    def sheet():
        board_two_held.wait(120)
        sheet_sent.set()
        try:
            results: dict[int, tuple[str, int]] = {
                games[0].pk: (Result.WHITE_WINS, 0),
                games[1].pk: (Result.BLACK_WINS, 0),
            }
            round_sheet_save(event=event, round_number=1, results=results, user=user)
            outcomes["sheet"] = "saved"
        except Exception as exc:
            outcomes["sheet"] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=lone_result), threading.Thread(target=sheet)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert outcomes["lone"] == "saved"
    assert isinstance(outcomes["sheet"], Conflict)  # board 2 is no longer what the sheet's secretary saw
    assert _results(games) == ["", "1/2-1/2", ""]
