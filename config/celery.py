import os
from typing import Any

from celery import Celery, Task
from celery.signals import beat_init, celeryd_init, task_prerun, worker_init, worker_ready
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("chess_league", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Four queues, so that one kind of work never waits behind another: a slow webhook receiver or a big import holds
# its own queue's workers, never the recomputes (docker-compose.yml gives each queue its pool of workers).
# "celery" is the queue of every task before there were four: the recompute workers still empty it.
QUEUES = ("recompute", "pairing", "email", "webhooks")
ROUTES = {
    "leagues.tasks.standings_recompute": "recompute",
    "leagues.tasks.standings_sweep": "recompute",
    "leagues.tasks.event_pages_render": "recompute",
    "leagues.tasks.match_cards_auto_confirm": "recompute",
    "leagues.tasks.round_pairing_compute": "pairing",
    "leagues.tasks.trf_import_run": "pairing",
    "leagues.tasks.pgn_import_run": "pairing",
    "leagues.tasks.event_fide_check": "pairing",
    "leagues.tasks.export_build": "pairing",
    "leagues.tasks.send_notification": "email",
    "leagues.tasks.send_email": "email",
    "leagues.tasks.follow_digest": "email",
    "leagues.tasks.match_cards_remind": "email",
    "leagues.tasks.webhook_paused_email": "email",
    "leagues.tasks.webhooks_fan_out": "webhooks",
    "leagues.tasks.webhook_deliver": "webhooks",
}
app.conf.task_queues = [Queue(name) for name in (*QUEUES, "celery")]  # a worker without -Q takes all of them
app.conf.task_default_queue = "recompute"
app.conf.task_routes = {task: {"queue": queue} for task, queue in ROUTES.items()}


@celeryd_init.connect
@beat_init.connect
def patient_broker_connections(**_: Any) -> None:
    """The web's half-second broker timeouts (settings) are for requests; a worker or beat waits for Redis."""
    options = dict(app.conf.broker_transport_options)
    for name in ("socket_timeout", "socket_connect_timeout"):
        options.pop(name, None)
    app.conf.broker_transport_options = options


@worker_init.connect
@beat_init.connect
def refuse_to_start_without_a_broker(**_: Any) -> None:
    """Without CELERY_BROKER_URL every process runs its tasks itself: a worker or beat would wait for nothing."""
    if app.conf.task_always_eager:
        raise SystemExit(
            "CELERY_BROKER_URL is not set: tasks run inside each process, so there is no worker or beat to run"
        )


@task_prerun.connect
def queue_beat(task: Task | None = None, **_: Any) -> None:
    """Each queue's last started task, for /healthz: a queue with tasks waiting and none started is stalled."""
    from leagues.broker import record_queue_beat

    queue = ((task and getattr(task.request, "delivery_info", None)) or {}).get("routing_key")
    if queue:
        record_queue_beat(queue)


@worker_ready.connect
def beat_when_ready(**_: Any) -> None:
    """A worker that has just started is alive before its first task (web processes leave heavy pages to a worker
    that is alive: leagues/page_cache/worker.py)."""
    from leagues.broker import record_heartbeat

    record_heartbeat()
