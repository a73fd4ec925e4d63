"""Issue 31: FIDE mode and the scoring FIDE's 2026 checklist for tournament programs asks for, through the
services, the API and the TRF import: a scoring where two draws beat a win and a loss, a bye worth more than a
win or a value TRF cannot write is refused with a message (never a crash); in FIDE mode (on by default) only
1 / ½ / 0, a bye worth a win or a draw, and no change of the scoring, the bye or the forbidden pairs once
round 1 is published; leaving FIDE mode needs a confirmation, is recorded and cannot be undone; outside FIDE
mode a change after the start needs a reason and is a hard warning with what it moved in the standings, on
the audit trail and in the TRF export."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from leagues.errors import ServiceError
from leagues.models import Event, PairingSettings, Result
from leagues.models.audit import SettingChange
from leagues.recompute import standings_recompute_event
from leagues.services.events import event_save
from leagues.services.fide_mode import fide_mode_leave
from leagues.services.policy import event_policy_set
from leagues.services.round_pairings import pairing_settings_save, round_withdraw
from leagues.services.trf import event_export_trf, event_import_trf, import_preview
from tests.factories import EventFactory, organiser_of, swiss_event
from tests.helpers import present
from tests.paths import TESTS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]
TORNELO = (TESTS / "fixtures" / "trf" / "tornelo-pab-half-trf16.trf").read_bytes()


def started(fide_mode=True, players=5):
    """Round 1 published: two games and, with five players, player 5's pairing-allocated bye (worth 1)."""
    event, _entries, games = swiss_event(players=players, fide_mode=fide_mode)
    if players % 2:
        games[-1].result = Result.PAIRING_BYE
        games[-1].save()
    standings_recompute_event(event.pk)
    return event, organiser_of(event.league)


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def save_pab(event, user, points, pairs=(), reason=""):
    return pairing_settings_save(
        event=event,
        user=user,
        pab_points=Decimal(points),
        half_byes_allowed=2,
        forbidden_pairs=list(pairs),
        reason=reason,
    )


# ------------------------------------------------------------------------------------------ 1. scoring sanity


def test_two_draws_worth_more_than_a_win_and_a_loss_are_refused_by_the_service_and_the_api():
    event = EventFactory(status=Event.Status.DRAFT, fide_mode=False)
    user = organiser_of(event.league)
    with pytest.raises(ServiceError) as refused:
        event_save(league=event.league, user=user, fields={"points_draw": Decimal("1")}, event=event)
    assert refused.value.code == "draws_above_win_and_loss"
    assert "Two draws (2) may not be worth more than a win and a loss (1)." in refused.value.message
    answer = api(user).patch(f"/api/v1/events/{event.slug}/settings/", {"points_draw": "1"}, format="json")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "draws_above_win_and_loss"
    event.refresh_from_db()
    assert event.points_draw == Decimal("0.5")  # nothing changed


def test_a_bye_worth_a_quarter_or_more_than_a_win_is_refused_by_the_service_and_the_api():
    event = EventFactory(status=Event.Status.DRAFT, fide_mode=False)
    user = organiser_of(event.league)
    with pytest.raises(ServiceError) as refused:
        save_pab(event, user, "0.25")
    assert refused.value.code == "points_not_halves"
    url = f"/api/v1/events/{event.slug}/pairing-settings/"
    answer = api(user).put(url, {"pab_points": "0.25"}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "points_not_halves", answer.json()
    answer = api(user).put(url, {"pab_points": "1.5"}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_pab", answer.json()
    assert not PairingSettings.objects.filter(event=event).exists()


@pytest.mark.parametrize(
    ("record", "problems"),
    [
        (b"BBD 0.75", ["0.75 points cannot be written in a TRF file", "Two draws (1.5) may not be worth more"]),
        (b"BBU 0.25", ["0.25 points cannot be written in a TRF file"]),
        (b"BBW 1.0\r\nBBD 1.0", ["Two draws (2) may not be worth more than a win and a loss (1)."]),
    ],
)
def test_a_trf_file_with_a_draw_worth_three_quarters_or_a_quarter_point_bye_is_refused_not_a_crash(record, problems):
    data = TORNELO.replace(b"BBU 0.5", record)
    league = EventFactory().league
    preview = import_preview(data=data, league=league, accept_points_column=True)
    for problem in problems:  # each with the line of the file's scoring
        assert [line for line, message in preview.problems if problem in message] == [11], preview.problems
    problem = problems[0]
    with pytest.raises(ServiceError) as refused:
        event_import_trf(
            league=league,
            name="Rapid",
            slug="rapid",
            data=data,
            user=organiser_of(league),
            accept_points_column=True,
        )
    assert problem in refused.value.message
    assert not Event.objects.filter(slug="rapid").exists()


# ------------------------------------------------------------------------------------------ 2. FIDE mode


def test_fide_mode_is_on_by_default_and_refuses_another_scoring_and_a_bye_worth_nothing():
    event = EventFactory()
    user = organiser_of(event.league)
    assert event.fide_mode
    football = {"points_win": Decimal(3), "points_draw": Decimal(1), "points_loss": Decimal(0)}
    with pytest.raises(ServiceError) as refused:
        event_save(league=event.league, user=user, fields=football, event=event)
    assert refused.value.code == "fide_mode_scoring"
    with pytest.raises(ServiceError) as refused:
        save_pab(event, user, "0")
    assert refused.value.code == "fide_mode_pab"
    assert "worth the points of a win (1) or, when the regulations say so, of a draw (0.5)" in refused.value.message
    save_pab(event, user, "0.5")  # a draw, when the regulations say so
    answer = api(user).patch(f"/api/v1/events/{event.slug}/settings/", {"points_win": "3", "points_draw": "1"})
    assert answer.status_code == 400 and answer.json()["code"] == "fide_mode_scoring", answer.json()
    assert api(user).get(f"/api/v1/events/{event.slug}/").json()["fide_mode"] is True


def test_in_fide_mode_the_bye_forbidden_pairs_and_acceleration_are_locked_once_round_one_is_published():
    event, user = started()
    for change in (
        lambda: save_pab(event, user, "0.5", reason="regulations"),
        lambda: save_pab(event, user, "1", pairs=[(1, 2)], reason="brothers"),
        lambda: event_save(league=event.league, user=user, fields={"baku_acceleration": True}, event=event),
    ):
        with pytest.raises(ServiceError) as refused:
            change()
        assert refused.value.code == "fide_mode_locked"
    client = api(user)
    answer = client.put(f"/api/v1/events/{event.slug}/pairing-settings/", {"pab_points": "0.5", "reason": "x"})
    assert answer.status_code == 400 and answer.json()["code"] == "fide_mode_locked", answer.json()
    assert "in FIDE mode the value of the pairing-allocated bye can no longer change" in answer.json()["message"]
    answer = client.patch(f"/api/v1/events/{event.slug}/settings/", {"baku_acceleration": True}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "fide_mode_locked", answer.json()
    assert not PairingSettings.objects.filter(event=event).exists()
    assert not SettingChange.objects.filter(event=event).exists()


def test_leaving_fide_mode_needs_the_confirmation_is_recorded_in_the_trf_and_cannot_be_undone():
    event, user = started()
    client = api(user)
    url = f"/api/v1/events/{event.slug}/fide-mode/leave/"
    answer = client.post(url, {"confirm": False, "reason": "club rapid, 3-1-0"}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "confirmation_required", answer.json()
    event.refresh_from_db()
    assert event.fide_mode
    answer = client.post(url, {"confirm": True, "reason": "club rapid, 3-1-0"}, format="json")
    assert answer.status_code == 200 and answer.json()["fide_mode"] is False, answer.json()
    change = SettingChange.objects.get(event=event)
    assert (change.setting, change.user, change.reason, change.source) == (
        "fide_mode",
        user,
        "club rapid, 3-1-0",
        "api",
    )
    assert f"### FIDE mode left {change.at:%Y-%m-%d} " in event_export_trf(event=event)
    with pytest.raises(ServiceError) as refused:
        fide_mode_leave(event=event, user=user, confirmed=True, reason="again")
    assert refused.value.code == "fide_mode_left_already"
    with pytest.raises(ServiceError) as refused:  # no door turns it on again
        event_save(league=event.league, user=user, fields={"fide_mode": True}, event=event)
    assert refused.value.code == "unknown_field"


def test_an_imported_file_with_another_scoring_starts_out_of_fide_mode_and_says_so():
    league = EventFactory().league
    data = TORNELO.replace(b"BBU 0.5", b"BBW 3.0\r\nBBD 1.0\r\nBBU 3.0")
    event = event_import_trf(
        league=league, name="Rapid", slug="rapid", data=data, user=organiser_of(league), accept_points_column=True
    )
    assert not event.fide_mode
    assert SettingChange.objects.get(event=event).setting == "fide_mode"
    assert "### FIDE mode left" in event_export_trf(event=event)
    same = event_import_trf(
        league=league, name="Rapid 2", slug="rapid-2", data=TORNELO, user=organiser_of(league)
    )  # ½ for the bye under 1 / ½ / 0: FIDE mode (a draw, as the regulations may say)
    assert same.fide_mode


# ------------------------------------------------------------------------------------------ 3. settings audited


def test_out_of_fide_mode_a_bye_change_after_the_start_needs_a_reason_and_records_what_moved():
    event, user = started(fide_mode=False)
    with pytest.raises(ServiceError) as refused:
        save_pab(event, user, "0.5")
    assert refused.value.code == "reason_required"
    save_pab(event, user, "0.5", reason="the regulations give half a point")
    standings_recompute_event(event.pk)
    change = SettingChange.objects.get(event=event)
    assert (change.setting, change.before, change.after, change.user) == ("pab", "1", "0.5", user)
    moved = {row["number"]: row for row in present(change.standings_impact)}
    assert moved[5]["points"] == [1.0, 0.5]  # the player with the bye
    trf = event_export_trf(event=event)
    assert "### HARD WARNING" in trf and "pab changed after the start: 1 -> 0.5; reason: the regulations" in trf


def test_out_of_fide_mode_forbidden_pairs_the_scoring_and_the_acceleration_are_hard_warnings_through_the_api():
    event, user = started(fide_mode=False, players=4)  # no result yet: the scoring may still change
    client = api(user)
    answer = client.put(
        f"/api/v1/events/{event.slug}/pairing-settings/",
        {"pab_points": "1", "forbidden_pairs": [[1, 2]], "reason": "brothers"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    answer = client.patch(
        f"/api/v1/events/{event.slug}/settings/",
        {"points_win": "3", "points_draw": "1", "reason": "the league's own scoring"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    answer = client.patch(f"/api/v1/events/{event.slug}/settings/", {"baku_acceleration": True}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "reason_required", answer.json()
    changes = client.get(f"/api/v1/events/{event.slug}/setting-changes/").json()
    assert [(c["setting"], c["before"], c["after"], c["reason"], c["source"]) for c in changes] == [
        ("scoring", "1 / 0.5 / 0", "3 / 1 / 0", "the league's own scoring", "api"),
        ("forbidden", "", "1-2", "brothers", "api"),
    ]


def test_a_tiebreak_order_change_and_a_withdrawal_after_the_start_are_recorded_in_either_mode():
    event, user = started()
    event_policy_set(event_id=event.pk, rule_set=event.rule_set, criteria=["SB", "BH"], user=user, reason="typo")
    entry = event.entries.get(start_number=3)
    round_withdraw(entry=entry, round_number=2, user=user)
    recorded = {c.setting: c for c in SettingChange.objects.filter(event=event)}
    assert recorded["tiebreaks"].after == f"{event.rule_set}: SB, BH" and recorded["tiebreaks"].reason == "typo"
    assert recorded["withdrawal"].before == f"3 {entry.name}" and recorded["withdrawal"].after == "2"
    assert "### withdrawal" in event_export_trf(event=event)
