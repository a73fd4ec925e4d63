"""Serving the site as production does, for the health e2e test and tests/bench/bench_health.py (no Django
import here): a big event cut from a generated TRF, gunicorn started with a serving config, and heavy
pages fired at it while a health probe asks."""

import os
import secrets
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIG_TRF = ROOT / "tests/bench/data/swiss-1000-players.trf"
PRODUCTION = ["-c", "config/gunicorn.py"]  # the image's serving config (threaded workers)
SYNC_WORKERS = ["--workers", "3"]  # gunicorn's default worker class, as the site was served before


def first_players(data: bytes, players: int) -> bytes:
    """The file cut to its first `players` start numbers; a game against a later player becomes a zero bye."""
    out = []
    for line in data.decode("latin-1").splitlines():
        if line.startswith("001"):
            if int(line[4:8]) > players:
                continue
            head, blocks = line[:90], line[90:]  # round blocks " OOOO C R " from column 91
            cells = [blocks[i : i + 10] for i in range(0, len(blocks), 10)]
            cells = [c if not c[1:5].strip().isdigit() or int(c[1:5]) <= players else " 0000 - Z " for c in cells]
            value = {"1": 2, "+": 2, "W": 2, "F": 2, "U": 2, "=": 1, "D": 1, "H": 1}
            points = sum(value.get(c[8], 0) for c in cells) / 2
            head = head[:57] + " " * 11 + head[68:]  # the generator's FIDE ids repeat: none, as at a club event
            line = head[:80] + f"{points:4.1f}" + head[84:] + "".join(cells)
        out.append(line)
    return ("\n".join(out) + "\n").encode("latin-1")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str, timeout: float = 60) -> int:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        response.read()
        return response.status


def site_env(database_url: str) -> dict:
    """The site's settings without a broker (tasks in-process, each process its own page cache: every
    first render of a page in a fresh process is uncached) against `database_url`."""
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "CACHE_URL")}
    return env | {
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "ALLOWED_HOSTS": "127.0.0.1",
    }


@contextmanager
def gunicorn(env: dict, serving: list[str]):
    """gunicorn on a free loopback port with the given serving arguments; yields its base URL once /ping answers."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", *serving, "config.wsgi", "-b", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                get(f"{base}/ping", timeout=2)
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def heavy_pages_and_probes(base: str, heavy: list[str], probes: list[str], head_start: float = 0.3) -> dict:
    """Fire every heavy path at once, then (after `head_start` seconds, while they are in flight) each probe.
    Returns {path: (status, seconds from the first heavy request's start, own duration)} in completion order."""
    done: dict = {}
    lock = threading.Lock()
    start = time.monotonic()

    def fetch(key, path):
        began = time.monotonic()
        status: int | str
        try:
            status = get(base + path)
        except OSError as exc:
            status = f"error: {exc}"
        with lock:
            done[key] = (status, time.monotonic() - start, time.monotonic() - began)

    threads = [threading.Thread(target=fetch, args=(f"heavy {n}", path)) for n, path in enumerate(heavy)]
    for thread in threads:
        thread.start()
    time.sleep(head_start)
    probing = [threading.Thread(target=fetch, args=(path, path)) for path in probes]
    for thread in probing:
        thread.start()
    for thread in threads + probing:
        thread.join()
    return dict(sorted(done.items(), key=lambda item: item[1][1]))


class HungRedis:
    """Accepts every connection, reads nothing, answers nothing; holds the sockets until stopped."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", free_port()), backlog=128)
        self.url = f"redis://127.0.0.1:{self.listener.getsockname()[1]}/0"
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(connection)

    def close(self):
        self.listener.close()
        for connection in self.held:
            connection.close()
