"""The CPU a bench step costs: this process's, and that of the PostgreSQL process serving its connection."""

import os
import time
from pathlib import Path


class Clock:
    """CPU seconds of this process, and of the database's process serving this connection (10 ms ticks)."""

    def __init__(self):
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.stat = Path(f"/proc/{cursor.fetchone()[0]}/stat")
        self.tick = os.sysconf("SC_CLK_TCK")

    def database(self) -> float:
        try:
            fields = self.stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the database runs elsewhere: only this process is counted
            return 0.0
        return (int(fields[11]) + int(fields[12])) / self.tick

    def __call__(self) -> tuple[float, float]:
        return time.process_time(), self.database()
