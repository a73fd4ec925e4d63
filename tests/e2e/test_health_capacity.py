"""Health checks never wait behind heavy pages: gunicorn with the production serving config
(config/gunicorn.py) on PostgreSQL answers /ping and /healthz while eight uncached crosstables of a
400-player event are being rendered. The figures are in tests/bench/bench_health.py."""

import pytest
from django.contrib.auth import get_user_model

from leagues.models import League
from leagues.services.trf import event_import_trf
from tests.e2e.worker import database_url
from tests.serving import BIG_TRF, PRODUCTION, first_players, gunicorn, heavy_pages_and_probes, site_env

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_ping_and_healthz_answer_while_eight_uncached_400_player_crosstables_render(on_postgres):
    league = League.objects.create(name="Big open", slug="big-open")
    organiser = get_user_model().objects.create_superuser("big-organiser", password="not-used-x1")
    data = first_players(BIG_TRF.read_bytes(), 400)
    event = event_import_trf(league=league, name="Big open", slug="big-open", data=data, user=organiser)
    assert event.entries.count() == 400

    with gunicorn(site_env(database_url()), PRODUCTION) as base:
        crosstable = f"/en/events/{event.slug}/crosstable/"
        # the probes go out while the eight requests are in flight: a crosstable renders in about 0.3 s on a quiet
        # machine, so a later head start may find them answered already
        timings = heavy_pages_and_probes(base, [crosstable] * 8, ["/ping", "/healthz"], head_start=0.05)

    order = list(timings)
    assert {status for status, _, _ in timings.values()} == {200}, timings
    heavy = [key for key in order if key.startswith("heavy")]
    assert len(heavy) == 8
    # /ping is answered while the crosstables are still being rendered: it was not queued behind them all (how many
    # finish before it is the machine's load, not the site's); /healthz (which also reads the queues) answered 200
    # during the renders, as checked above, in whatever order load gives
    assert order.index("/ping") < order.index(heavy[-1]), timings
