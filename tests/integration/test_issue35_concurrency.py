"""Issue 35: requests that meet in the database at the same moment. Each is either done or refused with 409 and
a sentence saying to try again; none answers a server error (it was a deadlock: 500), nothing is half saved.

Real concurrent requests: each thread its own client and its own database connection (PostgreSQL)."""

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from leagues.models import Game, Result, RoundPairing
from leagues.services.results import result_record
from leagues.services.round_pairings import pairing_publish, round_pair
from leagues.services.tokens import api_token_create
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of, swiss_event
from tests.helpers import another_connection_waits_for_a_lock, present, text_of

pytestmark = pytest.mark.django_db(transaction=True)  # threads: each its own connection, meeting in PostgreSQL


def _event(players=8, rounds=5):
    event = EventFactory(rounds_count=rounds)
    for n in range(1, players + 1):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2400 - 10 * n)
    return event, organiser_of(event.league)


def _token(user):
    return api_token_create(user=user, name="t", scopes=["organiser"])[1]


def _at_once(*requests):
    """Run each request (a function of a fresh API client) in its own thread, all released together; their
    answers in the order given."""
    start = threading.Barrier(len(requests))
    answers: list[object] = [None] * len(requests)  # each request's answer, or the exception it raised

    def run(index, request):
        try:
            client = APIClient()
            start.wait(120)  # released together once all are ready, however slow the machine
            answers[index] = request(client)
        except Exception as exc:  # the test client raises what the view raised: a server error
            answers[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, r)) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    return answers


def _shape(answer):
    """(status, code) of an answer, the exception itself when the view raised (a server error)."""
    if isinstance(answer, Exception) or answer is None:
        return answer
    return answer.status_code, answer.json().get("code") if answer.status_code >= 400 else None


TRY_AGAIN = (409, "busy")


@pytest.mark.parametrize("trial", range(3))
def test_three_pair_round_requests_at_once_each_pair_or_say_try_again(trial):
    event, user = _event()
    token = _token(user)
    url = f"/api/v1/events/{event.slug}/rounds/1/pairing/"

    def pair(client):
        return client.post(url, HTTP_AUTHORIZATION=f"Token {token}")

    answers = [_shape(a) for a in _at_once(pair, pair, pair)]
    assert all(a in ((202, None), TRY_AGAIN) for a in answers), answers
    assert (202, None) in answers
    pairings = RoundPairing.objects.filter(round__event=event, round__number=1)
    assert pairings.count() == 1
    assert pairings.get().status == RoundPairing.Status.READY, pairings.get().problem
    # the organiser asks once more (as the message says) and gets the round paired
    assert APIClient().post(url, HTTP_AUTHORIZATION=f"Token {token}").status_code == 202


def _published_round_paired_again(django_capture_on_commit_callbacks):
    event, user = _event(players=8)
    with django_capture_on_commit_callbacks(execute=True):
        pairing = round_pair(event=event, round_number=1, user=user)
    pairing_publish(pairing=RoundPairing.objects.get(pk=pairing.pk), user=user)
    with django_capture_on_commit_callbacks(execute=True):
        round_pair(event=event, round_number=1, user=user)  # the organiser pairs round 1 again
    return event, user


@pytest.mark.parametrize("trial", range(4))
def test_a_result_entered_while_the_round_is_published_again_is_saved_or_refused_cleanly(
    trial, django_capture_on_commit_callbacks
):
    event, user = _published_round_paired_again(django_capture_on_commit_callbacks)
    token = _token(user)
    games = list(Game.objects.filter(round__event=event, round__number=1, black__isnull=False).order_by("board"))
    last = games[-1]

    def publish(client):
        return client.post(
            f"/api/v1/events/{event.slug}/rounds/1/pairing/publish/", HTTP_AUTHORIZATION=f"Token {token}"
        )

    def result(client):
        return client.post(
            f"/api/v1/games/{last.pk}/result/",
            {"result": Result.DRAW},
            format="json",
            HTTP_AUTHORIZATION=f"Token {token}",
        )

    published, entered = (_shape(a) for a in _at_once(publish, result))
    assert published in ((200, None), (400, "round_played"), TRY_AGAIN), published
    assert entered in ((200, None), (404, "unknown_game"), TRY_AGAIN), entered
    boards = Game.objects.filter(round__event=event, round__number=1, black__isnull=False)
    pairing = RoundPairing.objects.get(round__event=event, round__number=1)
    if published == (200, None):  # the new boards replaced the old ones; the result is in none of them
        assert pairing.status == RoundPairing.Status.PUBLISHED
        assert not boards.exclude(result=Result.PENDING).exists()
        assert not Game.objects.filter(pk=last.pk).exists()
    else:  # the old boards stand, the result on its board if it was saved
        assert pairing.status == RoundPairing.Status.READY
        assert sorted(boards.values_list("pk", flat=True)) == [g.pk for g in games]
        assert Game.objects.get(pk=last.pk).result == (Result.DRAW if entered == (200, None) else Result.PENDING)
    assert boards.count() == 4


def test_result_record_and_publish_through_the_services_never_meet_in_a_deadlock(django_capture_on_commit_callbacks):
    """The same meeting at the services (no door): both finish, one after the other."""
    event, user = _published_round_paired_again(django_capture_on_commit_callbacks)
    last = present(
        Game.objects.filter(round__event=event, round__number=1, black__isnull=False).order_by("board").last()
    )
    pairing = RoundPairing.objects.get(round__event=event, round__number=1)
    outcomes = _at_once(
        lambda _client: pairing_publish(pairing=pairing, user=user),
        lambda _client: result_record(game_id=last.pk, result=Result.DRAW, user=user),
    )
    for outcome in outcomes:
        assert not isinstance(outcome, Exception) or getattr(outcome, "code", None) in (
            "round_played",
            "unknown_game",
        ), repr(outcome)


def _deadlocked_by_a_competitor(game, request):
    """Run `request` (in this thread) while another connection holds `game`'s row and waits for the event's row,
    which the request holds: a real deadlock, which PostgreSQL ends by rolling back the request. Returns the request's
    answer. The request is held just before it asks for the game's row until PostgreSQL shows the competitor waiting
    for the event's row, so the deadlock is there when the request starts waiting, and the request's own check (after
    deadlock_timeout, 1 s) finds it whatever the machine's load; the competitor looks only after ten minutes."""
    from django.db import transaction

    from leagues.models import Event
    from tests.e2e.worker import wait_until

    held, go = threading.Event(), threading.Event()

    def competitor():
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL deadlock_timeout = '10min'")
                Game.objects.select_for_update().get(pk=game.pk)
                held.set()
                go.wait(120)  # once the request holds the event's row
                list(Event.objects.select_for_update().filter(pk=game.round.event_id))
        finally:
            connection.close()

    def before_the_games_row(execute, sql, params, many, context):
        if not go.is_set() and 'FROM "leagues_game"' in sql and "FOR UPDATE" in sql:
            go.set()  # the request holds the event's row: the competitor asks for it, then the request goes on
            assert wait_until(another_connection_waits_for_a_lock, timeout=120), "the competitor never waited"
        return execute(sql, params, many, context)

    thread = threading.Thread(target=competitor, daemon=True)
    thread.start()
    assert held.wait(120), "the competitor never took the game's row"
    try:
        with connection.execute_wrapper(before_the_games_row):
            return request()
    finally:
        go.set()
        thread.join(120)


def test_the_api_answers_a_deadlock_with_409_try_again_and_saves_nothing():
    event, _entries, games = swiss_event(players=4)
    user = organiser_of(event.league)
    token = _token(user)
    answer = _deadlocked_by_a_competitor(
        games[0],
        lambda: APIClient().post(
            f"/api/v1/games/{games[0].pk}/result/",
            {"result": Result.DRAW},
            format="json",
            HTTP_AUTHORIZATION=f"Token {token}",
        ),
    )
    assert answer.status_code == 409, answer.content
    assert answer.json() == {
        "code": "busy",
        "message": "Someone else changed this event at the same moment, so nothing of this was saved. "
        "Please try again.",
    }
    assert Game.objects.get(pk=games[0].pk).result == Result.PENDING
    # asked again, it is saved
    again = APIClient().post(
        f"/api/v1/games/{games[0].pk}/result/",
        {"result": Result.DRAW},
        format="json",
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    assert again.status_code == 200
    assert Game.objects.get(pk=games[0].pk).result == Result.DRAW


def test_the_round_sheet_answers_a_deadlock_with_a_try_again_page_in_the_readers_language(client):
    event, _entries, games = swiss_event(players=4)
    user = organiser_of(event.league)
    client.force_login(user)
    sheet = {f"result_{g.pk}": Result.WHITE_WINS for g in games} | {f"version_{g.pk}": g.version for g in games}
    url = f"/el/manage/events/{event.slug}/rounds/1/"
    page = _deadlocked_by_a_competitor(games[1], lambda: client.post(url, sheet))
    assert page.status_code == 409
    text = text_of(page.content.decode())
    assert "Δοκιμάστε ξανά" in text  # "try again", in Greek
    assert not Game.objects.filter(pk__in=[g.pk for g in games]).exclude(result=Result.PENDING).exists()
    assert client.post(url, sheet).status_code == 302  # sent again, the sheet is saved
    assert set(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("result", flat=True)) == {
        Result.WHITE_WINS
    }


def test_three_pair_round_requests_at_once_on_the_pairing_page_each_pair_or_say_try_again():
    from django.test import Client

    event, user = _event()
    url = f"/en/manage/events/{event.slug}/pairing/1/"

    def pair(_client):
        page = Client()
        page.force_login(user)
        return page.post(url, {"action": "pair"})

    answers = _at_once(pair, pair, pair)
    statuses = [a if isinstance(a, Exception) else a.status_code for a in answers]
    assert all(s in (302, 409) for s in statuses), statuses
    for answer in answers:
        if answer.status_code == 409:
            assert "Please try again" in text_of(answer.content.decode())
    pairings = RoundPairing.objects.filter(round__event=event, round__number=1)
    assert pairings.count() == 1 and pairings.get().status == RoundPairing.Status.READY
