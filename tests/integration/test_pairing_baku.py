"""The Baku acceleration (FIDE C.04.5) offered on the site: set in the event's settings form, used by
the pairing service, shown on the event pages, in the API and in the TRF export."""

import pytest
from django.urls import reverse

from leagues.errors import ServiceError
from leagues.models import Event
from leagues.services.events import event_save
from leagues.services.round_pairings import pairing_publish
from leagues.services.trf import event_export_trf
from pairings import pair_round
from pairings.trf import read_event
from tests.integration.test_round_pairings import _event, _pair, _play_all

pytestmark = pytest.mark.django_db

PLAYERS = 16  # GA: start numbers 1..2 * ceil(16 / 4) = 8


def _accelerate_through_the_form(client, event, user):
    client.force_login(user)
    data = {
        "name": event.name,
        "slug": event.slug,
        "season": "",
        "kind": event.kind,
        "system": event.system,
        "rounds_count": event.rounds_count,
        "venue": "",
        "time_control": "",
        "boards": event.boards,
        "points_win": "1",
        "points_draw": "0.5",
        "points_loss": "0",
        "primary_score": event.primary_score,
        "match_points_win": "2",
        "match_points_draw": "1",
        "match_points_loss": "0",
        "board_one_white_for_home": "on",
        "baku_acceleration": "on",
    }
    response = client.post(reverse("manage:event-edit", args=[event.league.slug, event.slug]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    event.refresh_from_db()
    assert event.baku_acceleration


def test_round_one_pairs_the_top_half_among_itself_only_with_the_acceleration(
    client, django_capture_on_commit_callbacks
):
    plain, user = _event(players=PLAYERS, rounds=7)
    accelerated, other = _event(players=PLAYERS, rounds=7)
    _accelerate_through_the_form(client, accelerated, other)

    def ga(number):
        return number <= 8

    without = _pair(plain, user, 1, django_capture_on_commit_callbacks).boards
    # without: the top half meets the bottom half on every board (1-9, 2-10, ...)
    assert all(ga(w) != ga(b) for w, b in without)
    with_baku = _pair(accelerated, other, 1, django_capture_on_commit_callbacks).boards
    # with: GA's virtual point makes it a score group of its own, so GA meets GA and GB meets GB
    # (1-5, 2-6, 3-7, 4-8 and 9-13, ...), C.04.5
    assert all(ga(w) == ga(b) for w, b in with_baku)
    assert {frozenset(b) for b in with_baku if ga(b[0])} == {frozenset((n, n + 4)) for n in (1, 2, 3, 4)}

    page = client.get(reverse("leagues:event-standings", args=[accelerated.slug])).content.decode()
    assert "Baku acceleration" in page
    assert "Baku acceleration" in client.get(reverse("manage:event", args=[accelerated.slug])).content.decode()
    assert "Baku acceleration" not in client.get(reverse("leagues:event-standings", args=[plain.slug])).content.decode()
    api = client.get(f"/api/v1/events/{accelerated.slug}/").json()
    assert api["baku_acceleration"] is True


def test_the_export_pairs_as_the_site_with_the_acceleration(client, django_capture_on_commit_callbacks):
    event, user = _event(players=PLAYERS, rounds=7)
    _accelerate_through_the_form(client, event, user)
    pairing_publish(pairing=_pair(event, user, 1, django_capture_on_commit_callbacks), user=user)
    _play_all(event, 1, user)
    text = event_export_trf(event=event)
    assert "192 FIDE_DUTCH_2026_BAKU" in text
    assert [line[:3] for line in text.splitlines()].count("250") == 2  # a win's worth, then a draw's
    exported = read_event(text)
    assert exported.baku
    site = _pair(event, user, 2, django_capture_on_commit_callbacks)
    assert site.boards == [[b.white, b.black] for b in pair_round(exported.state(2)).boards]


def test_only_an_individual_swiss_is_accelerated():
    event, user = _event(players=4, rounds=3)
    with pytest.raises(ServiceError, match="Swiss"):
        event_save(
            league=event.league,
            user=user,
            fields={"system": Event.System.ROUND_ROBIN, "baku_acceleration": True},
            event=event,
        )
    event.refresh_from_db()
    assert not event.baku_acceleration and event.system == Event.System.SWISS
