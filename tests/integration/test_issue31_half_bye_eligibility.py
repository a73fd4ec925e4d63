"""Issue 31, FIDE's 2026 checklist (Sharly Chess Q175-176) through the API: the organiser marks a player not
eligible for a half-point bye (a free entry, the event's conditions); a half-point bye that player asks for is
refused with a message, nothing saved, in FIDE mode and out of it alike; a zero-point bye is still entered. The
flag is in the entries' list; a change after the start is recorded with who, when and why (the audit, a ``###``
line of the TRF export: TRF-26 has no record for the flag itself, so the export carries only the change)."""

import pytest
from rest_framework.test import APIClient

from leagues.models import Game, Result
from leagues.models.audit import SettingChange
from leagues.services.trf import event_export_trf
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of, swiss_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("fide_mode", [True, False])
def test_a_player_not_eligible_asks_for_a_half_point_bye_and_is_refused_in_either_mode(fide_mode):
    event = EventFactory(rounds_count=5, fide_mode=fide_mode)
    for n in range(1, 5):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2000 - n)
    client = api(organiser_of(event.league))
    marked = client.post(
        f"/api/v1/events/{event.slug}/bye-eligibility/",
        {"start_number": 2, "kind": "half", "eligible": False},
        format="json",
    )
    assert marked.status_code == 200, marked.json()
    assert marked.json() == {"start_number": 2, "kind": "half", "eligible": False}
    listed = client.get(f"/api/v1/events/{event.slug}/entries/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [(r["start_number"], r["half_bye_ineligible"], r["bye_ineligible"]) for r in rows] == [
        (1, False, False),
        (2, True, False),  # the pairing-allocated bye is another flag
        (3, False, False),
        (4, False, False),
    ]
    url = f"/api/v1/events/{event.slug}/byes/"
    refused = client.post(url, {"start_number": 2, "round": 1, "kind": "half", "confirm": True}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "half_bye_not_eligible", refused.json()
    assert "is not eligible for a half-point bye in this event" in refused.json()["message"]
    assert not Game.objects.filter(round__event=event).exists()
    assert client.post(url, {"start_number": 2, "round": 1, "kind": "zero"}, format="json").status_code == 201
    assert client.post(url, {"start_number": 3, "round": 1, "kind": "half"}, format="json").status_code == 201
    assert sorted(Game.objects.filter(round__event=event).values_list("white__start_number", "result")) == [
        (2, Result.ZERO_POINT_BYE),
        (3, Result.HALF_POINT_BYE),
    ]
    assert not SettingChange.objects.filter(event=event).exists()  # before the start: nothing to record


def test_after_the_start_the_flag_is_recorded_and_the_trf_says_so():
    event, _entries, _games = swiss_event(players=4, fide_mode=True)
    user = organiser_of(event.league)
    client = api(user)
    marked = client.post(
        f"/api/v1/events/{event.slug}/bye-eligibility/",
        {"start_number": 4, "kind": "half", "eligible": False, "reason": "free entry"},
        format="json",
    )
    assert marked.status_code == 200, marked.json()
    change = SettingChange.objects.get(event=event)
    name = event.entries.get(start_number=4).name
    assert (change.setting, change.before, change.after, change.reason, change.user, change.source) == (
        "hbye_elig",
        f"4 {name}: yes",
        f"4 {name}: no",
        "free entry",
        user,
        "api",
    )
    recorded = client.get(f"/api/v1/events/{event.slug}/setting-changes/").json()
    assert [(c["setting"], c["after"]) for c in recorded] == [("hbye_elig", f"4 {name}: no")]
    trf = event_export_trf(event=event)
    assert f"by {user.username}: 4 {name}: yes -> 4 {name}: no; reason: free entry" in trf
    assert "### eligibility for a half-point bye " in trf and "HARD WARNING" not in trf
    refused = client.post(
        f"/api/v1/events/{event.slug}/byes/", {"start_number": 4, "round": 2, "kind": "half"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["code"] == "half_bye_not_eligible", refused.json()
