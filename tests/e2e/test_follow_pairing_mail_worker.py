"""Issue #33's promise, through a real Celery worker and a real SMTP server process: a follower receives the pairing
e-mail within a minute of publishing, in their language. Results wait FOLLOW_DIGEST_SECONDS (60 by default) to make
one digest; a round's pairings, published all at once, do not wait. The test prints how long the e-mail took (the
figure the issue's closing note asks for; machine load moves it, so it is printed, not asserted) and fails only if
it never arrives within twice the promise. The e-mail is kept in ARTIFACTS_DIR (email-follow-pairing-nb.txt) to be
shown."""

import datetime
import time

import pytest

from leagues.models import Event, Round
from leagues.services.follows import follow_start
from leagues.services.round_pairings import pairing_publish, round_pair
from tests.conftest import require
from tests.e2e.test_browser import artifact
from tests.e2e.worker import TEST_BROKER, broker_for_this_process, celery_worker, redis_answers
from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory, organiser_of
from tests.smtp import SmtpServer, free_port

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Berg, Anna", "Demir, Elif", "Kaya, Mert", "Levi, Noa"]
PROMISE = 60  # seconds, issue #33


def test_a_follower_gets_the_pairing_within_a_minute_of_publishing(on_postgres, tmp_path, settings):
    require(redis_answers(TEST_BROKER), f"Redis does not answer at {TEST_BROKER}")
    settings.FOLLOW_DIGEST_SECONDS = PROMISE  # the default: the pairing must not wait for it
    event = EventFactory(rounds_count=3, status=Event.Status.PUBLISHED, name="Fjord Open")
    players = [PlayerFactory(name=name) for name in NAMES]
    for n, player in enumerate(players, start=1):
        EntryFactory(event=event, start_number=n, player=player, rating=2400 - 10 * n)
    Round.objects.update_or_create(
        event=event, number=1, defaults={"date": datetime.date(2026, 12, 18), "start_time": datetime.time(18, 30)}
    )
    organiser = organiser_of(event.league)
    fan = UserFactory(email="fan@example.org")
    follow_start(user=fan, language="nb", player_id=players[0].pk)  # an account follows at once, in Norwegian
    pairing = round_pair(event=event, round_number=1, user=organiser)  # paired in this process (eager)
    pairing.refresh_from_db()

    port = free_port()
    server = SmtpServer(tmp_path / "mail", port)
    server.start()
    try:
        env = {"EMAIL_URL": f"smtp://127.0.0.1:{port}", "FOLLOW_DIGEST_SECONDS": str(PROMISE)}
        with celery_worker(TEST_BROKER, env_extra=env), broker_for_this_process(TEST_BROKER):
            published = time.monotonic()
            pairing_publish(pairing=pairing, user=organiser)
            messages = server.wait_for(1, timeout=2 * PROMISE)
            took = time.monotonic() - published
    finally:
        server.stop()
    print(f"\nthe follower's pairing e-mail arrived {took:.1f} s after publishing (promise: {PROMISE} s)")
    ((recipients, subject, body),) = messages
    artifact("email-follow-pairing-nb.txt").write_text(f"To: {recipients}\nSubject: {subject.strip()}\n\n{body}")
    assert recipients == "fan@example.org"
    assert subject.strip() == "Berg, Anna: paring for runde 1"  # in the follower's language
    assert "18:30" in body or "18.30" in body
