import os

from celery import Celery
from celery.signals import beat_init, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("chess_league", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
@beat_init.connect
def refuse_to_start_without_a_broker(**_):
    """Without CELERY_BROKER_URL every process runs its tasks itself: a worker or beat would wait for nothing."""
    if app.conf.task_always_eager:
        raise SystemExit(
            "CELERY_BROKER_URL is not set: tasks run inside each process, so there is no worker or beat to run"
        )
