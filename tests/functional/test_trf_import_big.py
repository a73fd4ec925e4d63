"""A big TRF file (above settings.TRF_IMPORT_IN_REQUEST_MAX players × rounds, lowered here so a 9-player file
is "big") is confirmed at once and imported by a worker (eager here); its page follows the progress, then
links to the event; a refusal saves nothing; a double click imports once."""

import html
import json

import pytest
from django.utils import translation

from leagues.manage.views import IMPORT_SESSION_KEY
from leagues.models import Event, ImportJob, Player
from leagues.services import trf_jobs
from leagues.services.trf import event_import_trf
from tests.factories import EventFactory, ImportJobFactory, LeagueFactory, UserFactory, organiser_of
from tests.functional.test_trf_import_preview import confirm, upload
from tests.paths import GOLDEN

TRF = json.loads((GOLDEN / "swiss-p009-r05-s01004.json").read_text())["trf"]  # 9 players × 5 rounds
pytestmark = pytest.mark.django_db


@pytest.fixture
def page(client, settings):
    settings.TRF_IMPORT_IN_REQUEST_MAX = 20
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    return client, f"/en/manage/leagues/{league.slug}/import/"


def text(response):
    return html.unescape(response.content.decode())


def test_a_big_file_is_confirmed_at_once_then_imported_by_a_worker_whose_progress_the_page_follows(
    page, django_capture_on_commit_callbacks
):
    client, url = page
    assert upload(client, url, TRF).status_code == 200
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        answer = confirm(client, url, TRF)
    assert answer.status_code == 302 and "/import/" in answer.url
    assert not Event.objects.filter(slug="club-open").exists()  # the worker has not run yet
    waiting = client.get(answer.url)
    body = text(waiting)
    assert "The file is being imported by a worker." in body and "<progress" in body
    assert "9 players, 5 rounds." in body and "Waiting for a worker" in body
    status_url = f"{answer.url}status/"
    assert f'data-progress-status="{status_url}"' in body and "progress.js" in body
    assert client.get(status_url).json()["status"] == "queued"
    for callback in callbacks:  # the worker's turn
        callback()
    status = client.get(status_url).json()
    assert status["status"] == "done" and status["progress"] == 100
    done = text(client.get(answer.url))
    assert "Event imported. Its standings are being computed." in done
    event = Event.objects.get(slug="club-open")
    assert f'href="/en/events/{event.slug}/' in done and "Go to “Club open”" in done
    assert event.entries.count() == 9 and event.rounds.count() == 5
    back = text(client.get(url))  # the upload page leads back to the import
    assert "Big files imported by a worker" in back and f'href="{answer.url}"' in back and "imported" in back


def test_a_double_click_on_confirm_imports_once(page, django_capture_on_commit_callbacks):
    client, url = page
    upload(client, url, TRF)
    pending = client.session[IMPORT_SESSION_KEY]
    with django_capture_on_commit_callbacks(execute=True):
        first = confirm(client, url, TRF)
    session = client.session
    session[IMPORT_SESSION_KEY] = pending  # the second click was sent with the session of the first
    session.save()
    with django_capture_on_commit_callbacks(execute=True):
        second = confirm(client, url, TRF)
    with django_capture_on_commit_callbacks(execute=True):
        third = confirm(client, url, TRF)  # and a third one after the first answered
    assert first.status_code == second.status_code == third.status_code == 302
    assert first.url == second.url == third.url
    assert ImportJob.objects.count() == 1 and Event.objects.filter(slug="club-open").count() == 1
    assert "Event imported." in text(client.get(first.url))


def test_a_double_click_on_confirming_a_small_file_imports_once(client, django_capture_on_commit_callbacks):
    league = LeagueFactory()  # the file is imported in the request
    client.force_login(organiser_of(league))
    url = f"/en/manage/leagues/{league.slug}/import/"
    upload(client, url, TRF)
    pending = client.session[IMPORT_SESSION_KEY]
    first = confirm(client, url, TRF)
    session = client.session
    session[IMPORT_SESSION_KEY] = pending  # the second click was sent with the session of the first
    session.save()
    second = confirm(client, url, TRF)
    assert first.status_code == second.status_code == 302
    assert first.url == second.url == "/en/events/club-open/"
    assert Event.objects.filter(slug="club-open").count() == 1
    assert ImportJob.objects.get().status == ImportJob.Status.DONE


def test_a_refusal_by_the_worker_is_shown_and_saves_nothing(page, django_capture_on_commit_callbacks):
    client, url = page
    upload(client, url, TRF)
    EventFactory(slug="club-open")  # another league took the address meanwhile
    players = Player.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        answer = confirm(client, url, TRF)
    assert answer.status_code == 302
    body = text(client.get(answer.url))
    assert "The file could not be imported; nothing was saved." in body
    assert "An event with the address “club-open” exists already." in body
    assert client.get(f"{answer.url}status/").json()["status"] == "failed"
    assert Player.objects.count() == players and Event.objects.filter(slug="club-open").count() == 1


def test_the_workers_refusal_is_in_the_language_of_the_organiser_who_confirmed(
    client, settings, django_capture_on_commit_callbacks
):
    settings.TRF_IMPORT_IN_REQUEST_MAX = 20
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    url = f"/he/manage/leagues/{league.slug}/import/"
    upload(client, url, TRF)
    EventFactory(slug="club-open")
    with django_capture_on_commit_callbacks(execute=False):  # the worker, not this request, runs it
        confirm(client, url, TRF)
    job = ImportJob.objects.get(league=league)
    with translation.override("en"):  # a worker's own language
        trf_jobs.import_job_run(job_id=job.pk)
    job.refresh_from_db()
    english = "An event with the address “club-open” exists already."
    with translation.override("he"):
        hebrew = translation.gettext("An event with the address “%(slug)s” exists already.") % {"slug": "club-open"}
    assert job.status == ImportJob.Status.FAILED and job.problem == hebrew != english


def test_a_broker_that_cannot_take_the_import_fails_it_with_a_clear_message(
    page, django_capture_on_commit_callbacks, monkeypatch
):
    client, url = page
    upload(client, url, TRF)

    def broker_down(job_id):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(trf_jobs, "enqueue_trf_import", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        answer = confirm(client, url, TRF)
    assert answer.status_code == 302
    body = text(client.get(answer.url))
    assert "The import could not be handed to a worker; nothing was saved. Please upload the file again." in body
    assert not Event.objects.filter(slug="club-open").exists()


def test_a_file_with_problems_is_refused_before_any_worker_is_asked(page):
    client, url = page
    bad = TRF.replace("\n001    1", "\n001 abcd", 1)
    assert upload(client, url, bad).status_code == 400
    refused = confirm(client, url, bad)
    assert refused.status_code == 400 and "upload it again" in text(refused)
    assert not ImportJob.objects.exists() and not Event.objects.filter(slug="club-open").exists()


def test_only_the_leagues_organisers_follow_its_imports(client):
    job = ImportJobFactory()
    url = f"/en/manage/leagues/{job.league.slug}/import/{job.pk}/"
    client.force_login(organiser_of(job.league))
    assert client.get(f"{url}status/").json()["status"] == "queued"
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    assert client.get(f"{url}status/").status_code == 404


def test_the_import_tells_its_steps_in_order(db):
    league = LeagueFactory()
    steps = []
    event_import_trf(
        league=league,
        name="Club open",
        slug="club-open",
        data=TRF.encode(),
        user=organiser_of(league),
        progress=lambda step, done, total: steps.append((step, done, total)),
    )
    assert [step for step, _done, _total in steps] == ["reading", "players", "games", "checking"]
    assert ("players", 0, 9) in steps
