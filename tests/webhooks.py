"""Webhook receiver processes for the tests and the benchmark, and checking what they received."""

import hashlib
import hmac
import json
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from tests.serving import free_port

RECEIVER = Path(__file__).resolve().parent / "e2e" / "webhook_receiver.py"


class Receiver:
    def __init__(self, port: int, log: Path):
        self.url = f"http://127.0.0.1:{port}/hook"
        self.log = log

    def received(self) -> list[dict]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]


@contextmanager
def receiver(tmp_path: Path, status: int = 200, delay: float = 0.0, name: str = "receiver", trickle: float = 0.0):
    """A real HTTP server process answering every POST with `status` after `delay` seconds; with `trickle`, one byte
    of the answer every `trickle` seconds."""
    port = free_port()
    log = tmp_path / f"{name}-{port}.jsonl"
    process = subprocess.Popen(
        [sys.executable, str(RECEIVER), str(port), str(log), str(status), str(delay), str(trickle)]
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield Receiver(port, log)
    finally:
        process.terminate()
        process.wait(timeout=10)


def signature_is_valid(secret: str, request: dict, tolerance: int = 300) -> bool:
    """What a receiver does: recompute HMAC-SHA256 over "<t>.<raw body>" and compare in constant time."""
    header = request["headers"]["X-Chess-League-Signature"]
    fields = dict(part.split("=", 1) for part in header.split(","))
    expected = hmac.new(secret.encode(), f"{fields['t']}.{request['body']}".encode(), hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"]) and abs(time.time() - int(fields["t"])) < tolerance
