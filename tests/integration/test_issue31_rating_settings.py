"""Issue 31, FIDE mode: the event-wide rating for unrated players (checklist row 18) and the rating method
(TRF-26 record 172) are event settings of the form and the API like the scoring: validated, refused once the
event has started in FIDE mode, and outside FIDE mode a change after the start needs a reason and is a hard
warning recorded with who, when, why and what moved in the standings (the audit, the TRF export)."""

import pytest
from rest_framework.test import APIClient

from leagues.errors import ServiceError
from leagues.models import Event, Result
from leagues.models.audit import SettingChange
from leagues.recompute import standings_recompute_event
from leagues.services.events import event_save
from leagues.services.trf import event_export_trf
from pairings.fide_tools import fide_tiebreaks
from tests.factories import EventFactory, organiser_of, swiss_event
from tests.helpers import present

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def started(fide_mode):
    """Four players rated 2000, 1900, 1800 and unrated; round 1 played: 1-3 1-0, 2-4 draw; tie-break ARO."""
    event, entries, games = swiss_event(players=4, fide_mode=fide_mode, tiebreak_criteria=["ARO"])
    for entry, rating in zip(entries, (2000, 1900, 1800, None), strict=True):
        entry.rating = rating
        entry.save()
    games[0].result, games[1].result = Result.WHITE_WINS, Result.DRAW
    for game in games:
        game.save()
    Event.objects.filter(pk=event.pk).update(results_version=1)
    standings_recompute_event(event.pk)
    event.refresh_from_db()
    return event, organiser_of(event.league)


def test_the_rating_for_unrated_players_is_set_through_the_api_and_refused_beyond_3000():
    event = EventFactory(status=Event.Status.DRAFT)
    user = organiser_of(event.league)
    url = f"/api/v1/events/{event.slug}/settings/"
    assert api(user).get(url).json()["unrated_rating"] is None
    answer = api(user).patch(url, {"unrated_rating": 1400}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["unrated_rating"] == 1400
    refused = api(user).patch(url, {"unrated_rating": 3001}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_unrated_rating", refused.json()
    assert "between 0 and 3000" in refused.json()["message"]
    with pytest.raises(ServiceError) as refused_too:
        event_save(league=event.league, user=user, fields={"unrated_rating": -1}, event=event)
    assert refused_too.value.code == "bad_unrated_rating"
    event.refresh_from_db()
    assert event.unrated_rating == 1400
    assert not SettingChange.objects.filter(event=event).exists()  # before the start: nothing to record


@pytest.mark.parametrize(
    ("change", "label"),
    [({"unrated_rating": 1400}, "rating for unrated players"), ({"rating_method": "HBFN"}, "rating method")],
)
def test_in_fide_mode_the_rating_for_unrated_players_and_the_rating_method_are_locked_once_started(change, label):
    event, user = started(fide_mode=True)
    answer = api(user).patch(f"/api/v1/events/{event.slug}/settings/", {**change, "reason": "asked"}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "fide_mode_locked", answer.json()
    assert f"in FIDE mode the {label} can no longer change" in answer.json()["message"]
    event.refresh_from_db()
    assert (event.unrated_rating, event.rating_method) == (None, "FIDE")
    assert not SettingChange.objects.filter(event=event).exists()


def test_out_of_fide_mode_the_rating_for_unrated_players_is_a_hard_warning_with_what_moved():
    event, user = started(fide_mode=False)
    url = f"/api/v1/events/{event.slug}/settings/"
    refused = api(user).patch(url, {"unrated_rating": 1400}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "reason_required", refused.json()
    answer = api(user).patch(url, {"unrated_rating": 1400, "reason": "announced in the regulations"}, format="json")
    assert answer.status_code == 200, answer.json()
    standings_recompute_event(event.pk)
    event.refresh_from_db()
    change = SettingChange.objects.get(event=event)
    assert (change.setting, change.before, change.after, change.user, change.source) == (
        "unrated",
        "-",
        "1400",
        user,
        "api",
    )
    # ARO by hand: with an unrated player and no rating for unrated players every ARO was undefined (C.07 Article
    # 10); now player 1 met 3 (1800), 2 met the unrated 4 (1400), 3 met 1 (2000), 4 met 2 (1900)
    moved = {row["number"]: row["values"] for row in present(change.standings_impact)}
    assert moved == {
        1: {"ARO": [None, 1800]},
        2: {"ARO": [None, 1400]},
        3: {"ARO": [None, 2000]},
        4: {"ARO": [None, 1900]},
    }
    trf = event_export_trf(event=event)
    assert "unrated changed after the start: - -> 1400; reason: announced in the regulations" in trf
    # the file's tie-break list carries the event's rating for unrated players, and FIDE's checker agrees
    assert any(line.startswith(("202", "212")) and "ARO/U1400" in line for line in trf.splitlines()), trf
    fide = fide_tiebreaks(trf, ["ARO/U1400"], rounds=1)
    assert {number: values[0] for number, values in fide.items()} == {1: 1800, 2: 1400, 3: 2000, 4: 1900}


def test_out_of_fide_mode_a_rating_method_change_after_the_start_is_a_recorded_hard_warning():
    event, user = started(fide_mode=False)
    url = f"/api/v1/events/{event.slug}/settings/"
    refused = api(user).patch(url, {"rating_method": "NRO"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "reason_required", refused.json()
    event.refresh_from_db()
    assert event.rating_method == "FIDE"
    answer = api(user).patch(url, {"rating_method": "NRO", "reason": "national league"}, format="json")
    assert answer.status_code == 200 and answer.json()["rating_method"] == "NRO", answer.json()
    standings_recompute_event(event.pk)
    changes = api(user).get(f"/api/v1/events/{event.slug}/setting-changes/").json()
    assert [(c["setting"], c["before"], c["after"], c["reason"], c["user"]) for c in changes] == [
        ("rating_m", "FIDE", "NRO", "national league", user.username)
    ]
    assert changes[0]["standings_impact"] == []  # the entries keep their ratings: nothing moved
    assert "rating_m changed after the start: FIDE -> NRO; reason: national league" in event_export_trf(event=event)
