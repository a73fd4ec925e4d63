"""Each event is checked with FIDE's own tools after every round (issue #30): the worker runs FIDE's pairing checker
and tie-break checker on the event's TRF export and stores the verdict; the standings page shows it in every
language, with the differences and a link to the TRF file, and the API gives it."""

from html import unescape

import pytest

from leagues.errors import ServiceError
from leagues.models import FideCheck, Game, Result, RoundPairing
from leagues.services.results import result_record
from leagues.services.round_pairings import pairing_publish, pairing_swap, round_pair
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of

# the recompute and the check run after each commit
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

LANGUAGES = {
    "en": "Checked with FIDE's tools",
    "el": "Ελέγχθηκε με τα εργαλεία της FIDE",
    "tr": "FIDE'nin araçlarıyla denetlendi",
    "he": "נבדק בכלים של FIDE",
    "nb": "Kontrollert med FIDEs verktøy",
}


def _event(system="swiss", players=6):
    event = EventFactory(rounds_count=3 if system == "swiss" else players - 1, system=system)
    event.tiebreak_criteria = ["BH/C1", "BH", "SB"] if system == "swiss" else ["SB", "DE", "KS"]
    event.save()
    for n in range(1, players + 1):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(name=f"Player{n}, Test"), rating=2100 - 10 * n)
    return event


def _swapped_by_hand(pairing, user):
    """Two players of different boards exchanged (the first exchange the site accepts: no rematch)."""
    (a, b), (c, d) = pairing.boards[0], pairing.boards[1]
    for first, second in ((a, c), (a, d), (b, c), (b, d)):
        try:
            return pairing_swap(pairing=pairing, first=first, second=second, reason="same family", user=user)
        except ServiceError:
            continue
    raise AssertionError("no exchange accepted")


def _play_round(event, user, number, by_hand=False):
    pairing = round_pair(event=event, round_number=number, user=user)
    pairing.refresh_from_db()
    assert pairing.status == RoundPairing.Status.READY, pairing.problem
    if by_hand:
        pairing = _swapped_by_hand(pairing, user)
    pairing_publish(pairing=pairing, user=user)
    for game in Game.objects.filter(round__event=event, round__number=number, black__isnull=False).order_by("board"):
        result_record(game_id=game.pk, result=Result.WHITE_WINS if game.board % 2 else Result.DRAW, user=user)


def test_a_round_paired_as_fide_pairs_it_is_shown_checked_in_every_language(client):
    event = _event()
    user = organiser_of(event.league)
    _play_round(event, user, 1)
    check = FideCheck.objects.get(event=event)
    assert (check.rounds, check.pairings_ok, check.tiebreaks_ok, check.differences) == (1, True, True, [])
    event.refresh_from_db()
    assert check.version == event.results_version
    for language, title in LANGUAGES.items():
        html = client.get(f"/{language}/events/{event.slug}/").content.decode()
        assert title in html, language
        assert f'href="/api/v1/events/{event.slug}/export.trf"' in html
    api = client.get(f"/api/v1/events/{event.slug}/fide-check/").json()
    assert api["checked"] and api["rounds"] == 1 and api["pairings_ok"] and api["tiebreaks_ok"]
    assert api["differences"] == [] and api["trf"].endswith(f"/api/v1/events/{event.slug}/export.trf")


def test_a_pairing_changed_by_hand_is_shown_as_differing_from_fides(client):
    event = _event()
    user = organiser_of(event.league)
    _play_round(event, user, 1)
    _play_round(event, user, 2, by_hand=True)
    check = FideCheck.objects.get(event=event)
    assert check.rounds == 2 and check.pairings_ok is False
    assert [d["round"] for d in check.differences if d["kind"] == "pairing"] == [2]
    html = unescape(client.get(f"/en/events/{event.slug}/").content.decode())
    assert "FIDE's tools disagree" in html and "Pairings: FIDE's pairing checker pairs differently." in html
    assert "Round 2: this site paired" in html
    assert client.get(f"/api/v1/events/{event.slug}/fide-check/").json()["pairings_ok"] is False


def test_a_round_robin_is_checked_as_a_round_robin(client):
    """The TRF export says it is a round robin (192), so FIDE's checker pairs it by the Berger tables; a round
    robin's Koya score mid-event counts the free round's player as paired, as FIDE's checker does."""
    event = _event(system="rr", players=5)
    user = organiser_of(event.league)
    _play_round(event, user, 1)
    check = FideCheck.objects.get(event=event)
    assert (check.pairings_ok, check.tiebreaks_ok, check.differences) == (True, True, [])
    assert "192 FIDE_ROUNDROBIN" in client.get(f"/api/v1/events/{event.slug}/export.trf").content.decode()


def test_no_verdict_in_the_middle_of_a_round(client):
    event = _event()
    user = organiser_of(event.league)
    round_pair(event=event, round_number=1, user=user)
    pairing_publish(pairing=RoundPairing.objects.get(round__event=event), user=user)
    game = Game.objects.filter(round__event=event, black__isnull=False).first()
    assert game is not None
    result_record(game_id=game.pk, result=Result.DRAW, user=user)
    assert not FideCheck.objects.filter(event=event).exists()
    assert client.get(f"/api/v1/events/{event.slug}/fide-check/").json()["checked"] is False
    assert "FIDE's tools" not in unescape(client.get(f"/en/events/{event.slug}/").content.decode())


def test_the_check_of_an_unknown_event_is_not_found(client):
    answer = client.get("/api/v1/events/no-such-event/fide-check/")
    assert answer.status_code == 404
    assert answer.json()["code"] == "unknown_event"
