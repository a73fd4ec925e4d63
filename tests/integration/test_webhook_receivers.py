"""Who keeps receiving: a draft event's results and standings reach only those who may see the draft (as in the
API), and a subscription stops receiving once its owner's role is removed or the owner is deactivated (tasks run
in-process here, to real receivers)."""

import json

import pytest
from rest_framework.test import APIClient

from leagues.models import Event, Result, Role, WebhookDelivery
from leagues.services.people import role_remove
from leagues.services.results import result_record
from leagues.services.webhooks import webhook_attempt, webhook_subscribe
from tests.factories import ClubFactory, UserFactory, organiser_of, swiss_event
from tests.webhooks import receiver

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]
EVENTS = ["result.recorded", "standings.updated"]


def secretary_of(club):
    secretary = UserFactory()
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=club)
    return secretary


def types_received(hook) -> list[str]:
    return sorted(json.loads(r["body"])["type"] for r in hook.received())


def test_a_draft_events_results_and_standings_reach_its_organisers_not_a_clubs_secretary(tmp_path):
    club = ClubFactory()
    event, _entries, games = swiss_event(players=4, club=club, status=Event.Status.DRAFT)
    organiser, secretary = organiser_of(event.league), secretary_of(club)
    with receiver(tmp_path, name="club") as club_hook, receiver(tmp_path, name="league") as league_hook:
        webhook_subscribe(user=secretary, url=club_hook.url, events=EVENTS, club=club.slug)
        webhook_subscribe(user=organiser, url=league_hook.url, events=EVENTS, league=event.league.slug)
        result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser)
        assert types_received(league_hook) == EVENTS  # the organiser sees the draft: the result and new standings
        api = APIClient()
        api.force_login(secretary)
        assert api.get(f"/api/v1/games/{games[0].pk}/").status_code == 404  # the secretary does not see it
        assert club_hook.received() == []
    assert not WebhookDelivery.objects.filter(subscription__owner=secretary).exists()


def test_a_secretary_whose_role_was_removed_receives_nothing_more(tmp_path):
    club = ClubFactory()
    event, _entries, games = swiss_event(players=4, club=club, status=Event.Status.RUNNING)
    organiser, secretary = organiser_of(event.league), secretary_of(club)
    with receiver(tmp_path) as hook:
        webhook_subscribe(user=secretary, url=hook.url, events=["result.recorded"], club=club.slug)
        result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser)
        assert types_received(hook) == ["result.recorded"]
        role_remove(role=Role.objects.get(user=secretary, club=club), league=event.league, user=organiser)
        result_record(game_id=games[1].pk, result=Result.DRAW, user=organiser)
        assert len(hook.received()) == 1


def test_a_deactivated_owner_receives_nothing_more_not_even_what_was_waiting(tmp_path):
    club = ClubFactory()
    event, _entries, games = swiss_event(players=4, club=club, status=Event.Status.RUNNING)
    organiser = organiser_of(event.league)
    with receiver(tmp_path) as hook:
        webhook_subscribe(user=organiser, url=hook.url, events=["result.recorded"], event=event.slug)
        result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser)
        assert len(hook.received()) == 1
        waiting = WebhookDelivery.objects.get()
        WebhookDelivery.objects.filter(pk=waiting.pk).update(status=WebhookDelivery.Status.FAILED)  # to be retried
        organiser.is_active = False
        organiser.save()
        webhook_attempt(str(waiting.pk))  # the worker's retry
        result_record(game_id=games[1].pk, result=Result.DRAW, user=UserFactory(is_superuser=True))
        assert len(hook.received()) == 1
    assert WebhookDelivery.objects.get(pk=waiting.pk).status == "failed"
    assert WebhookDelivery.objects.count() == 1
