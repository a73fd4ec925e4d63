"""Pairing a round on the site: asked for, paired by the engine (eager worker here), previewed, swapped
by hand, published; the organiser's controls before pairing, and bad input refused with nothing saved."""

import pytest

from leagues.errors import ServiceError
from leagues.models import Entry, Game, PairingChange, Result, RoundPairing
from leagues.services.results import result_record
from leagues.services.round_pairings import (
    bye_request,
    pairing_publish,
    pairing_settings_save,
    pairing_swap,
    preview_rows,
    published_rows,
    round_pair,
    round_withdraw,
)
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of
from tests.helpers import present
from tests.paths import TESTS

pytestmark = pytest.mark.django_db


def _event(players=6, rounds=5):
    event = EventFactory(rounds_count=rounds)
    for n in range(1, players + 1):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2400 - 10 * n)
    return event, organiser_of(event.league)


def _pair(event, user, number, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        pairing = round_pair(event=event, round_number=number, user=user)
    pairing.refresh_from_db()
    return pairing


def _play_all(event, number, user, result=Result.WHITE_WINS):
    for game in Game.objects.filter(round__event=event, round__number=number, black__isnull=False):
        result_record(game_id=game.pk, result=result, user=user)


def test_round_one_pairs_top_half_against_bottom_half_and_is_not_public_until_published(
    django_capture_on_commit_callbacks,
):
    event, user = _event(players=6)
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    assert pairing.status == RoundPairing.Status.READY, pairing.problem
    assert sorted(frozenset(b) for b in pairing.boards) == sorted(frozenset(p) for p in ((1, 4), (2, 5), (3, 6)))
    assert pairing.pab is None
    assert not Game.objects.filter(round__event=event).exists()  # nothing public before publishing
    pairing_publish(pairing=pairing, user=user)
    rows = published_rows(event, 1)
    assert [(r.white.entry.start_number, present(r.black).entry.start_number) for r in rows] == [
        tuple(b) for b in pairing.boards
    ]
    assert all(present(r.game).result == Result.PENDING for r in rows)


def test_odd_players_get_the_bye_worth_what_the_organiser_set(django_capture_on_commit_callbacks):
    from decimal import Decimal

    event, user = _event(players=5)
    pairing_settings_save(event=event, user=user, pab_points=Decimal("0.5"), half_byes_allowed=1, forbidden_pairs=[])
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    assert pairing.pab == 5  # the lowest-ranked player
    pairing_publish(pairing=pairing, user=user)
    _play_all(event, 1, user)
    rows = preview_rows(_pair(event, user, 2, django_capture_on_commit_callbacks))
    points = {seat.entry.start_number: seat.points for row in rows for seat in (row.white, row.black) if seat}
    assert points[5] == Decimal("0.5")  # the half-point PAB, as set


def test_a_hand_swap_is_audited_and_refuses_a_rematch(django_capture_on_commit_callbacks):
    event, user = _event(players=4)
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    (w1, b1), (w2, b2) = pairing.boards
    pairing = pairing_swap(pairing=pairing, first=b1, second=b2, reason="players asked", user=user)
    assert pairing.changed_by_hand
    assert pairing.boards == [[w1, b2], [w2, b1]]
    assert PairingChange.objects.get(pairing=pairing).reason == "players asked"
    with pytest.raises(ServiceError):
        pairing_swap(pairing=pairing, first=w1, second=b2, reason="", user=user)  # no reason
    pairing_publish(pairing=pairing, user=user)
    _play_all(event, 1, user)
    pairing = _pair(event, user, 2, django_capture_on_commit_callbacks)
    for white, black in pairing.boards:
        assert frozenset((white, black)) not in {frozenset((w1, b2)), frozenset((w2, b1))}
    # swapping so that two players of round 1 meet again is refused, nothing changes
    (a, b), _board = pairing.boards
    opponent_of_a = {w1: b2, b2: w1, w2: b1, b1: w2}[a]  # on the other board now
    with pytest.raises(ServiceError, match="played each other"):
        pairing_swap(pairing=pairing, first=b, second=opponent_of_a, reason="to meet again", user=user)
    pairing.refresh_from_db()
    assert not pairing.changed_by_hand


def test_re_pairing_before_the_first_result_and_refused_after(django_capture_on_commit_callbacks):
    event, user = _event(players=4)
    pairing_publish(pairing=_pair(event, user, 1, django_capture_on_commit_callbacks), user=user)
    again = _pair(event, user, 1, django_capture_on_commit_callbacks)
    assert again.status == RoundPairing.Status.READY
    assert Game.objects.filter(round__event=event, round__number=1).count() == 2  # the published boards stay
    pairing_publish(pairing=again, user=user)
    game = Game.objects.filter(round__event=event, round__number=1).first()
    assert game is not None
    result_record(game_id=game.pk, result=Result.DRAW, user=user)
    with pytest.raises(ServiceError, match="results already"):
        round_pair(event=event, round_number=1, user=user)


def test_requested_byes_withdrawals_and_forbidden_pairs_are_kept_out(django_capture_on_commit_callbacks):
    event, user = _event(players=8)
    entries = {e.start_number: e for e in Entry.objects.filter(event=event)}
    pairing_settings_save(
        event=event, user=user, pab_points=event.points_win, half_byes_allowed=1, forbidden_pairs=[(1, 5)]
    )
    bye_request(event=event, round_number=1, entry=entries[2], kind="half", user=user)
    round_withdraw(entry=entries[8], round_number=1, user=user)
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    paired = {n for board in pairing.boards for n in board} | ({pairing.pab} if pairing.pab else set())
    assert paired == {1, 3, 4, 5, 6, 7}
    assert frozenset((1, 5)) not in {frozenset(b) for b in pairing.boards}
    pairing_publish(pairing=pairing, user=user)
    # a second half-point bye is over the event's limit: a warning to confirm (FIDE 2026); a second withdrawal
    # is refused
    with pytest.raises(ServiceError, match="the event allows 1") as refused:
        bye_request(event=event, round_number=2, entry=entries[2], kind="half", user=user)
    assert refused.value.code == "confirmation_required"
    with pytest.raises(ServiceError, match="withdrew"):
        round_withdraw(entry=entries[8], round_number=2, user=user)


def test_a_round_that_cannot_be_paired_saves_no_games(django_capture_on_commit_callbacks):
    event, user = _event(players=2, rounds=3)
    pairing_settings_save(
        event=event, user=user, pab_points=event.points_win, half_byes_allowed=0, forbidden_pairs=[(1, 2)]
    )
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    assert pairing.status == RoundPairing.Status.FAILED
    assert pairing.problem
    assert not Game.objects.filter(round__event=event).exists()
    with pytest.raises(ServiceError):
        pairing_publish(pairing=pairing, user=user)
    assert not Game.objects.filter(round__event=event).exists()


def _mid_event_trf() -> str:
    """Six players after two rounds (round 1's board 1 gave the first player black), player 3's
    half-point bye for round 3 entered before its pairing (0000 - H), five rounds announced."""
    return (TESTS / "fixtures" / "trf" / "mid-event-after-round-2.trf").read_text()


def test_an_imported_event_is_continued_with_its_pre_entered_byes(django_capture_on_commit_callbacks):
    from leagues.services.trf import event_import_trf
    from pairings import pair_round
    from pairings.trf import read_event
    from tests.factories import LeagueFactory

    league = LeagueFactory()
    user = organiser_of(league)
    text = _mid_event_trf()
    assert "0000 - H" in text
    event = event_import_trf(league=league, name="Mid", slug="mid", data=text.encode(), user=user, rule_set="fide-2026")
    pairing = _pair(event, user, 3, django_capture_on_commit_callbacks)
    assert pairing.status == RoundPairing.Status.READY, pairing.problem
    engine = pair_round(read_event(text).state(3))  # the command line's pairing of the file's next round
    assert pairing.boards == [[b.white, b.black] for b in engine.boards]
    assert pairing.pab == next(b.start_number for b in engine.byes if b.type == "PAB")
    assert 3 not in {n for board in pairing.boards for n in board} | {pairing.pab}  # the bye is kept
    pairing_publish(pairing=pairing, user=user)
    assert Game.objects.get(round__event=event, round__number=3, white__start_number=3).result == Result.HALF_POINT_BYE


def test_odd_players_when_nobody_may_have_the_bye_saves_nothing(django_capture_on_commit_callbacks):
    event, user = _event(players=3, rounds=4)
    for number in (1, 2, 3):  # three players, three rounds: each meets both others and has one bye
        pairing = _pair(event, user, number, django_capture_on_commit_callbacks)
        assert pairing.status == RoundPairing.Status.READY, pairing.problem
        pairing_publish(pairing=pairing, user=user)
        _play_all(event, number, user)
    pairing = _pair(event, user, 4, django_capture_on_commit_callbacks)
    assert pairing.status == RoundPairing.Status.FAILED
    assert pairing.problem
    assert not Game.objects.filter(round__event=event, round__number=4).exists()


def test_the_import_preview_shows_rounds_the_engine_pairs_differently():
    from leagues.services.trf import import_preview

    text = _mid_event_trf()
    preview = import_preview(data=text.encode())
    assert preview.ok and preview.pairings_checked == 2
    # round 1 follows the initial colour (black for 1, white for 2, black for 3); in round 2 the leaders
    # 1 (black in round 1) and 6 (white) meet, and the file gives 6 white: the engine gives 1 white
    assert [number for number, _file, _engine in preview.pairing_differences] == [2]
    _number, recorded, engine = preview.pairing_differences[0]
    assert "6–1" in recorded and "1–6" in engine


def test_an_individual_round_robin_is_paired_by_the_berger_tables(django_capture_on_commit_callbacks):
    from pairings import berger_round

    event, user = _event(players=5, rounds=5)
    event.system = "rr"
    event.save(update_fields=["system"])
    entries = {e.start_number: e for e in Entry.objects.filter(event=event)}
    with pytest.raises(ServiceError, match="round robin"):
        bye_request(event=event, round_number=1, entry=entries[1], kind="half", user=user)
    round_withdraw(entry=entries[2], round_number=1, user=user)  # keeps the board: the game is a forfeit
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    table = berger_round(5, 1)  # five players and the dummy (6): who meets the dummy has the bye
    assert pairing.boards == [[w, b] for w, b in table if max(w, b) <= 5]
    assert pairing.pab == next(min(w, b) for w, b in table if max(w, b) > 5)
    pairing_publish(pairing=pairing, user=user)
    assert Game.objects.filter(round__event=event, round__number=1, black__isnull=False).count() == 2


def test_the_trf_export_carries_the_initial_colour_and_the_forbidden_pairs(django_capture_on_commit_callbacks):
    from leagues.services.trf import event_export_trf
    from pairings import pair_round
    from pairings.trf import read_event

    event, user = _event(players=8, rounds=4)
    pairing_settings_save(
        event=event, user=user, pab_points=event.points_win, half_byes_allowed=1, forbidden_pairs=[(1, 2), (3, 4)]
    )
    pairing_publish(pairing=_pair(event, user, 1, django_capture_on_commit_callbacks), user=user)
    _play_all(event, 1, user, Result.DRAW)  # all draw: 1, 2, 3 and 4 stay in one score group
    exported = read_event(event_export_trf(event=event))
    assert exported.initial_colour == event.pairing_settings.initial_colour
    assert exported.forbidden == ((1, 4, (1, 2)), (1, 4, (3, 4)))
    site = _pair(event, user, 2, django_capture_on_commit_callbacks)
    assert site.boards == [[b.white, b.black] for b in pair_round(exported.state(2)).boards]
    assert not {frozenset(b) for b in site.boards} & {frozenset((1, 2)), frozenset((3, 4))}


def test_the_export_of_a_round_with_only_requested_byes_announces_no_other_absence():
    from leagues.services.trf import event_export_trf
    from pairings.trf import read_event

    event, user = _event(players=4, rounds=3)
    entries = {e.start_number: e for e in Entry.objects.filter(event=event)}
    bye_request(event=event, round_number=1, entry=entries[2], kind="half", user=user)
    exported = event_export_trf(event=event)
    assert "0000 - H" in exported and "0000 - Z" not in exported
    assert read_event(exported).pre_entered(1) == {2: "H"}  # the others are to be paired


def test_a_round_set_by_hand_boards_and_byes_is_audited_and_published_as_set(django_capture_on_commit_callbacks):
    from leagues.services.round_pairings import pairing_edit

    event, user = _event(players=6)
    entries = {e.start_number: e for e in Entry.objects.filter(event=event)}
    bye_request(event=event, round_number=1, entry=entries[6], kind="half", user=user)
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    assert pairing.byes == [[6, "half"]] and pairing.pab is not None
    # player 6 out of the bye onto a board, the PAB's player too
    edited = pairing_edit(pairing=pairing, boards=[[1, 6], [2, 5], [4, 3]], pab=None, byes=[], reason="late", user=user)
    assert edited.changed_by_hand and edited.boards == [[1, 6], [2, 5], [4, 3]] and edited.byes == []
    change = PairingChange.objects.get(pairing=pairing)
    assert change.reason == "late" and change.before["byes"] == [[6, "half"]] and change.after["pab"] is None
    # then player 3 to a zero-point bye and player 4 to the PAB
    edited = pairing_edit(
        pairing=edited, boards=[[1, 6], [2, 5]], pab=4, byes=[[3, "zero"]], reason="3 is ill", user=user
    )
    # refused, nothing saved: a player twice, a player left out, an unknown player, no reason
    for bad_boards, bad_pab, bad_byes, message in (
        ([[1, 6], [2, 5], [4, 1]], None, [[3, "zero"]], "twice"),
        ([[1, 6], [2, 5]], None, [[3, "zero"]], "neither a board nor a bye"),
        ([[1, 6], [2, 5], [4, 9]], None, [[3, "zero"]], "no player with start number 9"),
    ):
        with pytest.raises(ServiceError, match=message):
            pairing_edit(pairing=edited, boards=bad_boards, pab=bad_pab, byes=bad_byes, reason="x", user=user)
    with pytest.raises(ServiceError, match="reason"):
        pairing_edit(pairing=edited, boards=[[6, 1], [2, 5]], pab=4, byes=[[3, "zero"]], reason=" ", user=user)
    edited.refresh_from_db()
    assert (edited.boards, edited.pab, edited.byes) == ([[1, 6], [2, 5]], 4, [[3, "zero"]])
    assert PairingChange.objects.filter(pairing=pairing).count() == 2
    pairing_publish(pairing=edited, user=user)
    games = Game.objects.filter(round__event=event, round__number=1)
    assert {(present(g.white).start_number, present(g.black).start_number) for g in games if g.black_id} == {
        (1, 6),
        (2, 5),
    }
    assert {(present(g.white).start_number, g.result) for g in games if not g.black_id} == {
        (4, Result.PAIRING_BYE),
        (3, Result.ZERO_POINT_BYE),
    }  # player 6's requested bye is gone: 6 plays


def test_a_round_set_by_hand_refuses_a_rematch(django_capture_on_commit_callbacks):
    from leagues.services.round_pairings import pairing_edit

    event, user = _event(players=4)
    pairing_publish(pairing=_pair(event, user, 1, django_capture_on_commit_callbacks), user=user)
    _play_all(event, 1, user)
    first = Game.objects.filter(round__event=event, round__number=1)
    again = [[present(g.white).start_number, present(g.black).start_number] for g in first]
    pairing = _pair(event, user, 2, django_capture_on_commit_callbacks)
    with pytest.raises(ServiceError, match="played each other"):
        pairing_edit(pairing=pairing, boards=again, pab=None, byes=[], reason="same again", user=user)
    pairing.refresh_from_db()
    assert not pairing.changed_by_hand and not PairingChange.objects.filter(pairing=pairing).exists()
