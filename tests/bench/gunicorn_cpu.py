"""The image's gunicorn configuration (config/gunicorn.py) plus where the web's CPU goes, for a bench (not a test).

Each request's CPU time in the thread that answers it (time.thread_time: its own CPU, not its neighbours' nor its
wait for the interpreter), summed by the route it resolves to and its status, while the file named by the environ's
BENCH_CPU_COUNTING exists (the bench creates it when its night starts and removes it when the night ends). Each
process writes its sums to BENCH_CPU_BY_ROUTE.<pid>.json every 200 requests and when it stops."""

import json
import os
import time
from collections import defaultdict
from typing import Any

from config import gunicorn as image

globals().update({name: value for name, value in vars(image).items() if not name.startswith("_")})  # the image's

_spent: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])  # "METHOD route status" -> [requests, CPU seconds]
_counted = [0]


def _route(path: str) -> str:
    from django.urls import Resolver404, resolve

    try:
        return resolve(path).route
    except Resolver404:
        return "(no route)"


def _write() -> None:
    with open(f"{os.environ['BENCH_CPU_BY_ROUTE']}.{os.getpid()}.json", "w") as out:
        json.dump(_spent, out)


def pre_request(worker: Any, req: Any) -> None:
    req.bench_cpu_started = time.thread_time() if os.path.exists(os.environ["BENCH_CPU_COUNTING"]) else None


def post_request(worker: Any, req: Any, environ: dict[str, Any], resp: Any) -> None:
    started = getattr(req, "bench_cpu_started", None)
    if started is not None:
        spent = time.thread_time() - started
        totals = _spent[f"{req.method} {_route(req.path)} {str(resp.status).split()[0]}"]
        totals[0] += 1
        totals[1] += spent
        _counted[0] += 1
        if _counted[0] % 200 == 0:
            _write()
    image.post_request(worker, req, environ, resp)


def worker_exit(server: Any, worker: Any) -> None:
    _write()
