"""Issue 31, FIDE's 2026 checklist, "Entries and byes", through the services and the API: a half-point bye beyond
the event's limit or in its last rounds is a warning the organiser confirms; a full-point bye on request is
entered with a warning (a deprecated practice); a player marked not eligible for the pairing-allocated bye never
gets it published; the board order within a score group is a pairing setting; withdrawn players are marked in
the standings, crosstable and player pages and in every export; the settings changed after the start are
recorded."""

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from leagues.errors import ServiceError
from leagues.models import Game, PairingSettings, Result, RoundPairing
from leagues.models.audit import SettingChange
from leagues.recompute import standings_recompute_event
from leagues.services.exports import crosstable_table, event_chess_json, standings_table
from leagues.services.results import result_record
from leagues.services.round_pairings import (
    boards_ordered,
    bye_request,
    pairing_publish,
    pairing_settings_save,
    pairing_state,
    pairing_swap,
    players_before,
    round_pair,
    round_withdraw,
)
from leagues.services.trf import event_export_trf
from pairings import PairingState
from pairings import points as engine_points
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of, swiss_event
from tests.helpers import present

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _event(players=6, rounds=5):
    event = EventFactory(rounds_count=rounds)
    for n in range(1, players + 1):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2400 - 10 * n)
    return event, organiser_of(event.league)


def _api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def _pair(event, user, number, callbacks):
    with callbacks(execute=True):
        pairing = round_pair(event=event, round_number=number, user=user)
    pairing.refresh_from_db()
    assert pairing.status == RoundPairing.Status.READY, pairing.problem
    return pairing


def _settings(event, user, **changes):
    values = {"pab_points": event.points_win, "half_byes_allowed": 2, "forbidden_pairs": [], **changes}
    return pairing_settings_save(event=event, user=user, **values)


def test_a_half_point_bye_beyond_the_limit_is_a_warning_the_organiser_confirms_through_the_api():
    event, user = _event(rounds=2)
    _settings(event, user, half_byes_allowed=0)
    client = _api(user)
    url = f"/api/v1/events/{event.slug}/byes/"
    refused = client.post(url, {"start_number": 2, "round": 1, "kind": "half"}, format="json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "confirmation_required"
    assert "the event allows 0" in refused.json()["message"]
    assert not Game.objects.filter(round__event=event).exists()  # nothing saved without the confirmation
    entered = client.post(url, {"start_number": 2, "round": 1, "kind": "half", "confirm": True}, format="json")
    assert entered.status_code == 201, entered.content
    assert entered.json()["result"] == Result.HALF_POINT_BYE
    assert any("the event allows 0" in warning for warning in entered.json()["warnings"])
    assert Game.objects.get(round__event=event, white__start_number=2).result == Result.HALF_POINT_BYE


def test_a_half_point_bye_in_the_last_rounds_without_byes_needs_the_confirmation():
    event, user = _event(rounds=2)
    _settings(event, user, half_byes_not_last_rounds=2)
    assert PairingSettings.objects.get(event=event).half_byes_not_last_rounds == 2
    with pytest.raises(ServiceError, match="one of the last 2 rounds") as refused:
        bye_request(event=event, round_number=1, entry=event.entries.get(start_number=3), kind="half", user=user)
    assert refused.value.code == "confirmation_required"
    bye_request(
        event=event, round_number=1, entry=event.entries.get(start_number=3), kind="half", user=user, confirmed=True
    )
    assert Game.objects.filter(round__event=event, white__start_number=3, result=Result.HALF_POINT_BYE).exists()


def test_a_full_point_bye_on_request_is_entered_with_a_deprecated_practice_warning():
    event, user = _event()
    answer = _api(user).post(
        f"/api/v1/events/{event.slug}/byes/", {"start_number": 4, "round": 1, "kind": "full"}, format="json"
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["result"] == Result.FULL_POINT_BYE
    assert any("deprecated practice" in warning for warning in answer.json()["warnings"])


def test_a_player_not_eligible_for_the_bye_is_never_published_with_it(django_capture_on_commit_callbacks):
    event, user = _event(players=5)
    client = _api(user)
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    engine_pab = pairing.pab
    assert engine_pab is not None
    marked = client.post(
        f"/api/v1/events/{event.slug}/bye-eligibility/", {"start_number": engine_pab, "eligible": False}, format="json"
    )
    assert marked.status_code == 200, marked.content
    assert marked.json() == {"start_number": engine_pab, "kind": "pab", "eligible": False}
    # the marking makes the pairing not yet published outdated: paired again, gacrux still gives it the bye
    # (it cannot be told otherwise), and publishing is refused until the bye is swapped by hand
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    assert pairing.pab == engine_pab
    with pytest.raises(ServiceError, match="not eligible for the pairing-allocated bye") as refused:
        pairing_publish(pairing=pairing, user=user)
    assert refused.value.code == "pab_ineligible"
    assert not Game.objects.filter(round__event=event).exists()
    other = next(n for board in pairing.boards for n in board)
    pairing = pairing_swap(pairing=pairing, first=engine_pab, second=other, reason="not eligible", user=user)
    assert pairing.pab == other
    with pytest.raises(ServiceError, match="not eligible for the pairing-allocated bye"):  # and never back
        pairing_swap(pairing=pairing, first=other, second=engine_pab, reason="back", user=user)
    pairing_publish(pairing=pairing, user=user)
    bye = Game.objects.get(round__event=event, result=Result.PAIRING_BYE)
    assert bye.white is not None
    assert bye.white.start_number == other


def test_the_board_order_within_a_score_group_follows_the_setting(django_capture_on_commit_callbacks):
    event, user = _event(players=6)
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    pairing_publish(pairing=pairing, user=user)
    winners = {3, 4, 5}
    for game in Game.objects.filter(round__event=event, round__number=1).select_related("white", "black"):
        assert game.white is not None
        white_wins = game.white.start_number in winners or present(game.black).start_number not in winners
        result_record(game_id=game.pk, result=Result.WHITE_WINS if white_wins else Result.BLACK_WINS, user=user)
    scoring_points = {p.start_number: engine_points(p, event_scoring(event)) for p in players_before(event, 2)}

    def keys(boards, by_sum):
        return [
            (
                -max(scoring_points[n] for n in board),
                -sum(scoring_points[n] for n in board) if by_sum else 0,
                min(board),
            )
            for board in boards
        ]

    _settings(event, user, board_order=PairingSettings.BoardOrder.TPN, reason="board order")
    by_tpn = _pair(event, user, 2, django_capture_on_commit_callbacks).boards
    assert keys(by_tpn, by_sum=False) == sorted(keys(by_tpn, by_sum=False))
    _settings(event, user, board_order=PairingSettings.BoardOrder.SUM, reason="board order")
    by_sum = _pair(event, user, 2, django_capture_on_commit_callbacks).boards
    assert keys(by_sum, by_sum=True) == sorted(keys(by_sum, by_sum=True))
    assert sorted(map(sorted, by_tpn)) == sorted(map(sorted, by_sum))  # the same pairs
    # a floater's board with player 1 (3, 4 and 5 have a point) comes first by TPN, after the winners' by sum
    state = pairing_state(event, 2)
    assert isinstance(state, PairingState)  # an individual event's
    boards = [[6, 2], [5, 1], [3, 4]]
    assert boards_ordered(boards, state, "tpn") == [[5, 1], [3, 4], [6, 2]]
    assert boards_ordered(boards, state, "sum") == [[3, 4], [5, 1], [6, 2]]
    assert boards_ordered(boards, state, "score") == boards  # the engine's order (FIDE C.04.2) is kept
    changes = SettingChange.objects.filter(event=event, setting=SettingChange.Setting.BOARD_ORDER)
    assert [(c.before, c.after, c.reason) for c in changes.order_by("at", "id")] == [
        ("score", "tpn", "board order"),
        ("tpn", "sum", "board order"),
    ]


def event_scoring(event):
    from leagues.services.standings import scoring_for

    return scoring_for(event)


def test_limits_and_board_order_changed_after_the_start_need_a_reason_through_the_api():
    event, _entries, _games = swiss_event(players=4)
    standings_recompute_event(event.pk)
    user = organiser_of(event.league)
    url = f"/api/v1/events/{event.slug}/pairing-settings/"
    client = _api(user)
    body = {"pab_points": "1", "half_byes_allowed": 1, "half_byes_not_last_rounds": 2, "board_order": "tpn"}
    refused = client.put(url, body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "reason_required"
    saved = client.put(url, {**body, "reason": "regulations"}, format="json")
    assert saved.status_code == 200, saved.content
    assert saved.json()["board_order"] == "tpn" and saved.json()["half_byes_not_last_rounds"] == 2
    recorded = {c.setting: c for c in SettingChange.objects.filter(event=event)}
    assert (recorded["half_byes"].before, recorded["half_byes"].after) == ("2 / 0", "1 / 2")
    assert recorded["board_ord"].after == "tpn" and recorded["board_ord"].reason == "regulations"
    eligibility = client.post(
        f"/api/v1/events/{event.slug}/bye-eligibility/", {"start_number": 2, "eligible": False}, format="json"
    )
    assert eligibility.status_code == 200
    assert SettingChange.objects.filter(event=event, setting="bye_elig").exists()
    listed = {
        e["start_number"]: e["bye_ineligible"]
        for e in client.get(f"/api/v1/events/{event.slug}/entries/").json()["results"]
    }
    assert listed == {1: False, 2: True, 3: False, 4: False}
    assert "### eligibility for the bye" in event_export_trf(event=event)
    page = Client().get(f"/en/events/{event.slug}/").content.decode()
    notes = re.findall(r'<div class="policy-change setting-change">(.*?)</div>', page, re.S)
    by_setting = {label: next(n for n in notes if label in n) for label in ("eligibility for the", "board order")}
    assert "Hard warning" in by_setting["board order"]  # a setting changed after the start
    assert "Hard warning" not in by_setting["eligibility for the"]  # a player marked not eligible: recorded only


def test_a_withdrawn_player_is_marked_on_the_pages_and_in_every_export(client):
    event, entries, games = swiss_event(players=4)
    for game in games:
        game.result = Result.WHITE_WINS
        game.save()
    user = organiser_of(event.league)
    withdrawn = entries[3]
    round_withdraw(entry=withdrawn, round_number=2, user=user)
    standings_recompute_event(event.pk)
    for url in (f"/en/events/{event.slug}/", f"/en/events/{event.slug}/crosstable/"):
        page = client.get(url).content.decode()
        assert page.count('class="badge withdrawn"') == 1, url
    player_page = client.get(f"/en/events/{event.slug}/players/{withdrawn.start_number}/").content.decode()
    assert "withdrew after round 1" in player_page
    csv_rows = client.get(f"/en/events/{event.slug}/standings.csv").content.decode().splitlines()
    assert csv_rows[1].endswith(",withdrawn_after_round")
    assert sorted(row.rsplit(",", 1)[1] for row in csv_rows[2:]) == ["", "", "", "1"]
    for table in (standings_table(event=event), crosstable_table(event=event)):
        assert table[0][-1] == "withdrawn_after_round"
        marked = {row[1]: row[-1] for row in table[1:]}
        assert marked == {n: (1 if n == withdrawn.start_number else None) for n in range(1, 5)}
    assert f"### withdrawn: {withdrawn.start_number} {withdrawn.name} after round 1" in event_export_trf(event=event)
    competitors = event_chess_json(event=event)["event"]["tournaments"][0]["competitors"]
    absent = {c["cid"] for c in competitors if c.get("present") is False}
    assert absent == {withdrawn.start_number}
