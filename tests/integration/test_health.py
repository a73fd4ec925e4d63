"""Health and the sweep: what operators and organisers rely on."""

import io

import pytest
from django.core.management import call_command

from leagues.models import Event, Result, StandingsSnapshot
from leagues.services.results import result_record
from tests.factories import UserFactory, organiser_of, swiss_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"


def test_sweep_command_recomputes_events_left_behind():
    event, _entries, games = swiss_event(players=4)
    result_record(game_id=games[0].pk, result=Result.DRAW, user=organiser_of(event.league))
    Event.objects.filter(pk=event.pk).update(results_version=7)  # saved while the broker was down
    out = io.StringIO()
    call_command("standings_sweep", stdout=out)
    assert out.getvalue().startswith("1 event")
    assert StandingsSnapshot.objects.get(event=event).version == 7


def test_worker_status_page_is_for_staff_only(client):
    event, _entries, _games = swiss_event(players=4)
    Event.objects.filter(pk=event.pk).update(results_version=3)
    assert client.get("/admin/worker/").status_code == 302  # to the login page
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    page = client.get("/admin/worker/").content.decode()
    assert "Events whose standings are behind their results" in page
    assert event.name in page
