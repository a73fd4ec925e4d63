"""Issue 31 (FIDE's 2026 checklist Q218-221): warnings of levels 2 to 5 cannot be switched off or downgraded.

The site's levels: 2, a warning shown with what was done (a full-point bye on request, a deprecated practice);
3, a warning the organiser confirms each time (a half-point bye beyond the event's limits); 4, a change after the
start that needs a reason and is shown publicly as a hard warning (out of FIDE mode), leaving FIDE mode (a
confirmation and a reason); 5, a refusal in FIDE mode. No setting of an event, of the pairing or of a user turns
any of them off: a confirmation given once is asked for again the next time, and leaving FIDE mode turns a
refusal into a hard warning, never into silence.
"""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from leagues.models import Game, Result
from leagues.services.round_pairings import pairing_settings_save
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _event(fide_mode=True):
    event = EventFactory(rounds_count=3, fide_mode=fide_mode)
    for n in range(1, 7):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2400 - 10 * n)
    user = organiser_of(event.league)
    pairing_settings_save(
        event=event, user=user, pab_points=Decimal(1), half_byes_allowed=0, forbidden_pairs=[], reason=""
    )
    client = APIClient()
    client.force_authenticate(user)
    return event, user, client


def _bye(client, event, number, round_number, kind="half", confirm=None):
    body = {"start_number": number, "round": round_number, "kind": kind}
    if confirm is not None:
        body["confirm"] = confirm
    return client.post(f"/api/v1/events/{event.slug}/byes/", body, format="json")


@pytest.mark.parametrize("fide_mode", [True, False])
def test_a_confirmed_warning_is_asked_again_the_next_time_in_either_mode(fide_mode):
    event, _user, client = _event(fide_mode=fide_mode)
    assert _bye(client, event, 2, 1).json()["code"] == "confirmation_required"
    assert _bye(client, event, 2, 1, confirm=True).status_code == 201
    # the next half-point bye beyond the limit, of another player or of the same one, is asked for again
    for number, round_number in ((3, 1), (2, 2)):
        asked = _bye(client, event, number, round_number)
        assert asked.status_code == 400 and asked.json()["code"] == "confirmation_required", asked.content
        assert "the event allows 0" in asked.json()["message"]
    assert Game.objects.filter(round__event=event, result=Result.HALF_POINT_BYE).count() == 1  # nothing else saved


def test_a_full_point_bye_on_request_always_carries_its_warning_and_the_trf_says_so():
    event, _user, client = _event()
    for number in (4, 5):
        answer = _bye(client, event, number, 1, kind="full")
        assert answer.status_code == 201, answer.content
        assert any("deprecated practice" in warning for warning in answer.json()["warnings"])
    lines = client.get(f"/api/v1/events/{event.slug}/export.trf").content.decode("latin-1").split("\r\n")
    assert [line for line in lines if line.startswith("### full-point bye")] == [
        "### full-point bye on request (a deprecated practice): round 1, player 4",
        "### full-point bye on request (a deprecated practice): round 1, player 5",
    ]


def test_no_setting_of_the_event_or_of_the_pairing_turns_a_warning_off():
    event, _user, client = _event()
    settings = client.get(f"/api/v1/events/{event.slug}/settings/").json()
    pairing = client.get(f"/api/v1/events/{event.slug}/pairing-settings/").json()
    assert [key for key in (*settings, *pairing) if "warn" in key or "confirm" in key] == []
    # a field asking to silence them is no setting: the warning stays
    answer = client.patch(f"/api/v1/events/{event.slug}/settings/", {"warnings": False}, format="json")
    assert answer.status_code in (200, 400)
    assert _bye(client, event, 2, 1).json()["code"] == "confirmation_required"
