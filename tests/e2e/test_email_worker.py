"""Through a real Celery worker: while the mail server is down the email is retried with backoff, and it
arrives once the server is up; the result was saved at once."""

import tempfile
import time
from pathlib import Path

import pytest
import redis

from leagues.models import TeamMatch
from leagues.services.match_cards import match_card_submit
from tests.conftest import require
from tests.e2e.worker import TEST_BROKER, broker_for_this_process, celery_worker, redis_answers
from tests.smtp import SmtpServer, free_port
from tests.workspace import division

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_email_is_retried_until_the_mail_server_answers(on_postgres, tmp_path):
    require(redis_answers(TEST_BROKER), f"Redis does not answer at {TEST_BROKER}")
    redis.Redis.from_url(TEST_BROKER).flushdb()
    port = free_port()
    server = SmtpServer(tmp_path / "mail", port)
    d = division()
    match = d.match()
    games = list(match.games.order_by("board"))
    env = {"EMAIL_URL": f"smtp://127.0.0.1:{port}", "EMAIL_RETRY_SECONDS": "1"}
    log = Path(tempfile.gettempdir()) / "e2e-email-worker.log"
    log.unlink(missing_ok=True)
    with celery_worker(TEST_BROKER, env_extra=env, log_path=log), broker_for_this_process(TEST_BROKER):
        match_card_submit(
            match_id=match.pk, results={games[0].pk: ("1-0", 0)}, user=d.secretaries[0], expected_version=0
        )
        assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.SUBMITTED  # saved, mail or not
        time.sleep(2.5)  # the first tries fail: nothing listens yet
        assert server.messages() == []
        server.start()
        try:
            messages = server.wait_for(1, timeout=30)
        finally:
            server.stop()
    assert [to for to, _subject, _body in messages] == ["sec-bosporus@example.org"]
    assert "Retry in" in log.read_text(errors="replace")  # the worker logged its retries
