"""TRF import of a big event through the upload page, as an organiser does it (not a test).

    .venv/bin/python tests/bench/bench_import.py [--file tests/bench/data/swiss-1000-players.trf] [--players 400]
        [--rounds 9]

Cuts the file to its first PLAYERS players (their games with each other; games against the others become
absences) and its first ROUNDS rounds, then posts it to the import page (upload → preview, confirm) with
Redis as broker and cache, as production runs, and prints how long each request took to answer. A file of
more players × rounds than TRF_IMPORT_IN_REQUEST_MAX is confirmed at once and imported by a worker: the
bench then runs that task in this process, as a worker would, and prints how long it took. It also prints
how many on-commit hooks the import ran and how many recomputes it sent (the recompute itself is left out:
bench_pipeline.py measures it; not with ``--worker``, whose worker runs them out of the bench's sight). With
``--worker`` a real Celery worker (one process, its own Redis database) imports the big file and the bench
polls the page's status URL as the page does, printing the steps it saw.

The two figures of issue 19: ``--players 400 --rounds 9`` (confirmed in the request, goal ≤ 5 s) and
``--file tests/bench/data/swiss-2000-players.trf --players 2000`` (the confirmation answers at once).
"""

import argparse
import hashlib
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chess_league_bench")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"

from tests.bench.bench_pipeline import ensure_database  # noqa: E402
from tests.processes import celery_worker_command  # noqa: E402
from tests.serving import first_players  # noqa: E402


def first_rounds(data: bytes, rounds: int) -> bytes:
    """The file cut to its first `rounds` rounds (points columns recomputed, 142 says the rounds)."""
    value = {"1": 2, "+": 2, "W": 2, "F": 2, "U": 2, "=": 1, "D": 1, "H": 1}
    out = []
    for line in data.decode("latin-1").splitlines():
        if line.startswith("001"):
            head, cells = line[:90], line[90 : 90 + 10 * rounds]
            points = sum(value.get(cells[i + 8 : i + 9], 0) for i in range(0, len(cells), 10)) / 2
            line = head[:80] + f"{points:4.1f}" + head[84:] + cells
        elif line.startswith("142"):
            line = f"142 {rounds}"
        out.append(line)
    return ("\n".join(out) + "\n").encode("latin-1")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", default=str(ROOT / "tests/bench/data/swiss-1000-players.trf"))
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=0, help="keep only the first ROUNDS rounds (0: all)")
    parser.add_argument(
        "--worker", action="store_true", help="a real Celery worker imports a big file; the page's status is polled"
    )
    args = parser.parse_args()
    # a Redis database of the benches' own (the suite uses 15 and 14): no test's worker takes the import task
    os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/12")
    worker = subprocess.Popen(celery_worker_command(), cwd=ROOT, env=os.environ.copy()) if args.worker else None
    try:
        run(args, worker is not None)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)


def run(args: argparse.Namespace, with_worker: bool) -> None:
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.conf import settings
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    from leagues.models import Event, Game, ImportJob, League
    from leagues.services import results, trf_jobs

    data = first_players(Path(args.file).read_bytes(), args.players)
    if args.rounds:
        data = first_rounds(data, args.rounds)
    League.objects.filter(slug="bench-import").delete()
    Event.objects.filter(slug="bench-import").delete()
    league = League.objects.create(name="Bench import", slug="bench-import")
    user = get_user_model().objects.filter(is_superuser=True, username="bench-import").first()
    user = user or get_user_model().objects.create_superuser("bench-import", password="not-used-bench-x1")
    sent: list[int] = []
    hooks: list[Callable[[], object]] = []
    queued: list[int] = []
    # the bench patches the site's own functions for its run (mypy checks neither the patch nor its signature)
    results.enqueue_recompute = lambda event_id: sent.append(event_id)  # type: ignore[attr-defined,assignment,return-value]  # count, and leave the queue empty
    if not with_worker:
        trf_jobs.enqueue_trf_import = lambda job_id: queued.append(job_id)  # type: ignore[attr-defined]  # this process runs it below
    original_on_commit = connection.on_commit
    connection.on_commit = lambda func, robust=False: (hooks.append(func), original_on_commit(func, robust))[1]  # type: ignore[method-assign,func-returns-value]
    client = Client()
    client.force_login(user)
    url = f"/en/manage/leagues/{league.slug}/import/"
    started = time.perf_counter()
    preview = client.post(
        url, {"name": "Bench import", "slug": "bench-import", "file": SimpleUploadedFile("bench.trf", data)}
    )
    previewed = time.perf_counter() - started
    assert preview.status_code == 200, preview.content.decode()[:2000]
    started = time.perf_counter()
    answer = client.post(
        url, {"confirm": "1", "publish": "1", "digest": hashlib.sha256(data).hexdigest(), "edition": "fide-2026"}
    )
    confirmed = time.perf_counter() - started
    assert answer.status_code == 302, answer.content.decode()[:2000]
    ran = 0.0
    steps: list[str] = []
    if with_worker and "/import/" in answer["Location"]:  # follow the page's status as progress.js does
        started = time.perf_counter()
        while True:
            status = client.get(f"{answer['Location']}status/").json()
            if not steps or steps[-1] != status["step"]:
                steps.append(status["step"])
            if status["status"] not in ("queued", "running"):
                break
            time.sleep(0.1)
        ran = time.perf_counter() - started
        queued.append(int(answer["Location"].rstrip("/").rsplit("/", 1)[1]))
        job = ImportJob.objects.get(pk=queued[0])
        assert job.status == ImportJob.Status.DONE, job.problem
    elif queued:
        started = time.perf_counter()
        trf_jobs.import_job_run(job_id=queued[0])
        ran = time.perf_counter() - started
        job = ImportJob.objects.get(pk=queued[0])
        assert job.status == ImportJob.Status.DONE, job.problem
    connection.on_commit = original_on_commit  # type: ignore[method-assign]
    event = Event.objects.get(slug="bench-import")
    games = Game.objects.filter(round__event=event).count()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}; load {os.getloadavg()}")
    size = f"{event.entries.count()} players × {event.rounds.count()} rounds, {games} games and byes"
    how = (
        f"queued for a worker (above {settings.TRF_IMPORT_IN_REQUEST_MAX} players × rounds), "
        + (f"the page saw it done {ran:.2f} s later" if with_worker else f"task {ran:.2f} s")
        if queued
        else "imported in the request"
    )
    counted = "" if with_worker else f"; {len(hooks)} on-commit hooks, {len(sent)} recomputes sent"  # not the worker's
    print(f"{size}: upload and preview {previewed:.2f} s, confirm answered in {confirmed:.2f} s, {how}{counted}")
    if steps:
        print("the page's steps: " + " → ".join(steps))


if __name__ == "__main__":
    main()
