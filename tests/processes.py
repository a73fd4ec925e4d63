"""The command lines of the site's own processes, as the tests and the benchmarks start them."""

import sys


def celery_worker_command(
    *, name: str | None = None, concurrency: int = 1, level: str = "warning", queues: str | None = None
) -> list[str]:
    """A Celery worker of the site: `concurrency` processes, named `name@host` if given, taking the `queues` given
    (comma-separated; by default every queue); no gossip, mingle or heartbeat (the tests' and benches' workers find
    each other through the broker only)."""
    named = ["-n", f"{name}@%h"] if name else []
    named += ["-Q", queues] if queues else []
    return [
        *(sys.executable, "-m", "celery", "-A", "config", "worker", "-l", level, *named),
        *("--concurrency", str(concurrency), "--without-gossip", "--without-mingle", "--without-heartbeat"),
    ]
