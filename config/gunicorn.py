"""How production serves the site: `gunicorn -c config/gunicorn.py config.wsgi` (the image's command).

Threaded workers (gthread): each of WEB_CONCURRENCY processes answers up to WEB_THREADS requests at
once, so a cheap request (/ping, /healthz, a cached page) is never queued behind a few slow ones (an
uncached 400-player crosstable takes most of a second). A worker takes a connection only while it has a
free thread (worker_connections = threads, no keep-alive), so the rest wait in the kernel's queue for
whichever worker frees a thread first, instead of behind busy threads of the worker that accepted them.
Health probes wait only when all WEB_CONCURRENCY × WEB_THREADS are busy (docs/operations.md).
Eight threads a process, not four: a thread waiting on PostgreSQL, Redis or a socket leaves the interpreter to
another, so more of them keep a process's core busy. In bench_federation's night (2 processes, 500 reads and 30
results a second asked on 2 cores) 8 threads served 423-433 reads a second at p99 802-821 ms where 4 served
263-286 at 1,206-1,245 ms; 16 did worse than 8 (397, 975 ms). With 250 reads a second asked, 8 threads served them
all at p50 82 ms where 4 served 233 at p50 511 ms, the sections as fresh (p99 21.5 against 19.9 s).
"""

import os
import select
from types import SimpleNamespace
from typing import Any

from gunicorn.glogging import Logger

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "8"))
worker_connections = threads
keepalive = 0
timeout = 30  # seconds without a sign of life from a worker's main loop before it is replaced
graceful_timeout = 30
accesslog = "-"
# gunicorn's default line, then the time the request took in milliseconds (%(M)s) and the worker's pid (%(p)s)
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms %(p)s'


class AccessLine(Logger):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn's logger, whose access line to standard output (accesslog "-", no logging configuration) is made of
    the fields the format names, not also a field for every request header, answer header and environ variable
    (about 60, each escaped), and written in one write, not through the logging module's lock that every thread of
    the process waits for. The same line (tests/unit/test_access_line.py), for 6-10 % less of a process's CPU per
    cached page answered 304 (0.90-0.93 ms against 0.95-1.02 ms: one process of 8 threads, wrk at 8 connections for
    15 s, six alternations; py-spy had the access line at 10 % of the process's samples). A line longer than one
    atomic write to a pipe goes through gunicorn's logger, so that two threads' lines never interleave."""

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        cfg = self.cfg
        if cfg.accesslog != "-" or cfg.logconfig or cfg.logconfig_dict or cfg.logconfig_json or cfg.syslog:
            return super().access(resp, req, environ, request_time)
        try:
            if "}" in cfg.access_log_format:  # a format naming headers or variables ({...}i, {...}o, {...}e)
                atoms = self.atoms(resp, req, environ, request_time)
            else:
                answer = SimpleNamespace(status=resp.status, sent=getattr(resp, "sent", None), headers=())
                fields = {name: environ[name] for name in _LINE_ENVIRON if name in environ}
                atoms = self.atoms(answer, (), fields, request_time)
            line = (cfg.access_log_format % self.atoms_wrapper_class(atoms) + "\n").encode("utf-8", "backslashreplace")
        except Exception:
            self.exception("Failed to format the access line")
            return None
        if len(line) > select.PIPE_BUF:
            return super().access(resp, req, environ, request_time)
        try:
            os.write(1, line)
        except OSError:
            self.exception("Failed to write the access line")
        return None


# what gunicorn's fields other than headers and variables read of the environ
_LINE_ENVIRON = (
    "REMOTE_ADDR",
    "REQUEST_METHOD",
    "RAW_URI",
    "SERVER_PROTOCOL",
    "PATH_INFO",
    "QUERY_STRING",
    "HTTP_REFERER",
    "HTTP_USER_AGENT",
    "HTTP_AUTHORIZATION",
)
logger_class = AccessLine
# no control socket: gunicornc is not used, and the chess user cannot write its default place
# ($HOME/.gunicorn, as /app belongs to root)
control_socket_disable = True


# gunicorn is untyped: its server, worker and request objects are Any here
def post_fork(server: Any, worker: Any) -> None:
    """A thread answering from the cache gets the interpreter back within a millisecond of asking, not Python's
    default 5 ms, while a neighbour thread renders or writes (a cached page asks for it a few times: Redis, socket)."""
    import sys

    sys.setswitchinterval(0.001)


# Python's full garbage collections hold every thread of a worker at once, for as long as they take to look at
# every object (Django's own, about 150,000 once the pages have been rendered: 40 ms quiet, 150-250 ms on a busy
# 2-core host). Objects that live as long as the worker are moved out of their reach (gc.freeze): those of the
# application once it is loaded, and those it builds on its first requests (URL patterns, compiled templates).
FROZEN_AFTER_REQUESTS = 500


def post_worker_init(worker: Any) -> None:
    import gc
    import itertools

    gc.freeze()
    worker.requests_answered = itertools.count(1)  # next() is one step for the interpreter: no request counted twice


def post_request(worker: Any, req: Any, environ: dict[str, Any], resp: Any) -> None:
    if next(worker.requests_answered) == FROZEN_AFTER_REQUESTS:
        import gc

        gc.freeze()  # without collecting first, which would be the very pause this avoids
