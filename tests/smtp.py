"""A real SMTP server process (aiosmtpd) for the email tests: it stores what it receives in a maildir."""

import mailbox
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from email import policy
from email.parser import BytesParser
from pathlib import Path

from tests.serving import free_port


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class SmtpServer:
    def __init__(self, folder: Path, port: int):
        self.folder, self.port = folder, port
        self.process: subprocess.Popen[bytes] | None = None

    def start(self):
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "aiosmtpd",
                "-n",
                "-l",
                f"127.0.0.1:{self.port}",
                "-c",
                "aiosmtpd.handlers.Mailbox",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 15
        while not _answers(self.port):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("the SMTP server did not start")
            time.sleep(0.05)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def messages(self):
        """Every message received so far: (recipients, subject, body)."""
        out = []
        for key in sorted(mailbox.Maildir(self.folder, create=True).keys()):
            raw = mailbox.Maildir(self.folder).get_bytes(key)
            message = BytesParser(policy=policy.default).parsebytes(raw)
            body = message.get_body(("plain",))
            assert body is not None
            out.append((message["To"], str(message["Subject"]), body.get_content()))
        return out

    def wait_for(self, count: int, timeout: float = 20):
        deadline = time.monotonic() + timeout
        while len(self.messages()) < count and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.messages()

    @property
    def email_url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"


@contextmanager
def smtp_server(folder: Path, start: bool = True):
    server = SmtpServer(folder, free_port())
    if start:
        server.start()
    try:
        yield server
    finally:
        server.stop()
