"""The write path: one service records a result, audits it, bumps the version; bad input changes nothing."""

import pytest

from leagues.errors import Conflict, NotFound, PermissionDenied, ServiceError
from leagues.models import Event, Game, Result, ResultChange, Role, StandingsSnapshot
from leagues.services.results import result_record
from tests.factories import ClubFactory, UserFactory, organiser_of, swiss_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _state(event):
    event.refresh_from_db()
    return (
        event.results_version,
        list(Game.objects.filter(round__event=event).order_by("pk").values_list("result", "version")),
        ResultChange.objects.count(),
    )


def test_recorded_result_is_audited_and_standings_follow():
    event, _entries, games = swiss_event(players=4)
    user = organiser_of(event.league)

    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=user)

    event.refresh_from_db()
    assert event.results_version == 1
    assert event.status == Event.Status.RUNNING
    change = ResultChange.objects.get()
    assert (change.before, change.after, change.user, change.source) == ("", "1-0", user, "form")
    snapshot = StandingsSnapshot.objects.get(event=event)  # tasks run in-process in tests
    assert snapshot.version == 1
    top = snapshot.rows[0]
    assert (top["rank"], top["start_number"], top["points"]) == (1, 1, 1.0)


@pytest.mark.parametrize(
    ("target", "result", "error", "code"),
    [
        ("missing", Result.WHITE_WINS, NotFound, "unknown_game"),
        ("bye", Result.WHITE_WINS, ServiceError, "result_for_bye"),
        ("game", Result.HALF_POINT_BYE, ServiceError, "bye_for_game"),
        ("game", "2-0", ServiceError, "bad_result_code"),
    ],
)
def test_rejected_result_changes_nothing_and_says_why(target, result, error, code):
    event, _entries, games = swiss_event(players=5)
    user = organiser_of(event.league)
    game_id = {"missing": 999_999, "bye": games[-1].pk, "game": games[0].pk}[target]
    before = _state(event)

    with pytest.raises(error) as excinfo:
        result_record(game_id=game_id, result=result, user=user)

    assert excinfo.value.code == code
    assert str(excinfo.value)
    assert _state(event) == before


def test_secretary_of_another_club_is_refused():
    home, other = ClubFactory(), ClubFactory()
    event, _entries, games = swiss_event(players=4, club=home)
    outsider = UserFactory()
    Role.objects.create(user=outsider, kind=Role.Kind.SECRETARY, club=other)
    secretary = UserFactory()
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=home)
    before = _state(event)

    with pytest.raises(PermissionDenied):
        result_record(game_id=games[0].pk, result=Result.DRAW, user=outsider)
    assert _state(event) == before

    result_record(game_id=games[0].pk, result=Result.DRAW, user=secretary)
    assert Game.objects.get(pk=games[0].pk).result == Result.DRAW


def test_stale_correction_is_refused_with_the_current_value():
    event, _entries, games = swiss_event(players=4)
    user = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=user, expected_version=0)

    with pytest.raises(Conflict) as excinfo:
        result_record(game_id=games[0].pk, result=Result.DRAW, user=user, expected_version=0, reason="typo")

    assert excinfo.value.current.result == Result.WHITE_WINS
    assert Game.objects.get(pk=games[0].pk).result == Result.WHITE_WINS


def test_correction_needs_a_reason_and_is_marked():
    event, _entries, games = swiss_event(players=4)
    user = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=user)

    with pytest.raises(ServiceError) as excinfo:
        result_record(game_id=games[0].pk, result=Result.BLACK_WINS, user=user)
    assert excinfo.value.code == "reason_required"

    game = result_record(game_id=games[0].pk, result=Result.BLACK_WINS, user=user, reason="sheet misread")
    assert game.corrected
    assert list(ResultChange.objects.values_list("before", "after", "reason")) == [
        ("1-0", "0-1", "sheet misread"),
        ("", "1-0", ""),
    ]


def test_finished_event_refuses_results():
    event, _entries, games = swiss_event(players=4, status=Event.Status.FINISHED)
    user = organiser_of(event.league)
    with pytest.raises(ServiceError) as excinfo:
        result_record(game_id=games[0].pk, result=Result.DRAW, user=user)
    assert excinfo.value.code == "reason_required"  # only the organiser's override with a reason changes it
