"""End to end with a real Celery worker (issue #34): a 400-player, 10-round open played on the site, its 2,000 games
written by python-chess into one PGN file (tests/pgn_event.py), uploaded on the event's moves page. The file is above
PGN_ATTACH_IN_REQUEST_MAX_CHARS, so the page hands it to the worker and follows its progress; the worker reads it and
matches every game to its board; once the organiser confirms, the worker attaches all 2,000 in one transaction and
the page reports completion; every board's PGN download then reads back with the moves of the file."""

import io

import chess.pgn
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from leagues.models import GamePgn, PgnImportJob
from leagues.services.games import pgn_read
from tests.e2e.worker import wait_until
from tests.factories import organiser_of
from tests.helpers import text_of
from tests.pgn_event import event_pgn, played_open

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_2000_game_file_is_read_matched_and_attached_by_the_worker_whose_progress_the_page_reports(worker, client):
    event = played_open(players=400, rounds=10)
    pgn = event_pgn(event)
    assert pgn.count("[Event ") == 2000 and len(pgn) > settings.PGN_ATTACH_IN_REQUEST_MAX_CHARS
    client.force_login(organiser_of(event.league))
    page = f"/en/manage/events/{event.slug}/moves/"

    answer = client.post(page, {"pgn_file": SimpleUploadedFile("open.pgn", pgn.encode())})
    assert answer.status_code == 302
    job_page, status_url = answer.url, f"{answer.url}status/"
    assert f'data-progress-status="{status_url}"' in client.get(job_page).content.decode()
    seen = []

    def ended(wanted):
        status = client.get(status_url).json()
        seen.append((status["status"], status["progress"]))
        return status["status"] in (wanted, "failed")

    assert wait_until(lambda: ended("checked"), timeout=300, step=0.1), seen
    assert client.get(status_url).json() | {"step": ""} == {
        "status": "checked",
        "progress": 100,
        "step": "",
        "problem": "",
    }
    checked = text_of(client.get(job_page).content.decode())
    assert "2000 games read; 2000 matched to a board." in checked
    assert "Games waiting for a decision" not in checked and not GamePgn.objects.exists()

    assert client.post(job_page, {"attach": "1"}).status_code == 302
    assert wait_until(lambda: ended("done"), timeout=300, step=0.1), seen
    status = client.get(status_url).json()
    assert (status["status"], status["progress"], status["step"], status["problem"]) == ("done", 100, "Attached", "")
    assert "The moves of 2000 games were attached." in text_of(client.get(job_page).content.decode())
    assert all(progress <= 100 for _status, progress in seen)

    assert GamePgn.objects.filter(game__round__event=event).count() == 2000
    job = PgnImportJob.objects.get()
    assert (job.games, job.matched, job.attached, job.text) == (2000, 2000, 2000, "")
    file_games = pgn_read(pgn)
    for number in (1, 777, 2000):  # a few boards' downloads read back with the file's moves
        expected = file_games[number - 1]
        round_number, board = int(expected.headers["Round"]), int(expected.headers["Board"])
        game = event.rounds.get(number=round_number).games.get(board=board)
        downloaded = chess.pgn.read_game(io.StringIO(client.get(f"/api/v1/games/{game.pk}/pgn/").content.decode()))
        assert downloaded is not None and not downloaded.errors
        downloaded.headers["Result"] = "*"
        assert downloaded.accept(chess.pgn.StringExporter(headers=False, columns=None)) == expected.movetext
