import os

from celery import Celery
from celery.signals import beat_init, celeryd_init, worker_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("chess_league", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@celeryd_init.connect
@beat_init.connect
def patient_broker_connections(**_):
    """The web's half-second broker timeouts (settings) are for requests; a worker or beat waits for Redis."""
    options = dict(app.conf.broker_transport_options)
    for name in ("socket_timeout", "socket_connect_timeout"):
        options.pop(name, None)
    app.conf.broker_transport_options = options


@worker_init.connect
@beat_init.connect
def refuse_to_start_without_a_broker(**_):
    """Without CELERY_BROKER_URL every process runs its tasks itself: a worker or beat would wait for nothing."""
    if app.conf.task_always_eager:
        raise SystemExit(
            "CELERY_BROKER_URL is not set: tasks run inside each process, so there is no worker or beat to run"
        )


@worker_ready.connect
def beat_when_ready(**_):
    """A worker that has just started is alive before its first task (web processes leave heavy pages to a worker
    that is alive: leagues/page_cache.py)."""
    from leagues.broker import record_heartbeat

    record_heartbeat()
