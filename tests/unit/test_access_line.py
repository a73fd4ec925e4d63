"""The web's access line (config/gunicorn.py's AccessLine, written without gunicorn's field for every header and
variable) is the line gunicorn's own logger writes for the same request: operators read it, and so do the benches
(bench_federation's time in gunicorn)."""

import datetime
import re
from types import SimpleNamespace

import pytest
from gunicorn.config import Config
from gunicorn.glogging import Logger

from config import gunicorn as serving


def _config(accesslog: str) -> Config:
    cfg = Config()
    cfg.set("accesslog", accesslog)
    cfg.set("access_log_format", serving.access_log_format)
    return cfg


def _request(user_agent: str):
    """A conditional read as gunicorn's threaded worker hands it to the logger: its environ, request and answer."""
    environ = {
        "REMOTE_ADDR": "192.0.2.7",
        "REMOTE_PORT": "51234",
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/he/events/open-section-k/?round=3",
        "PATH_INFO": "/he/events/open-section-k/",
        "QUERY_STRING": "round=3",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "HTTP_HOST": "chess.example.org",
        "HTTP_USER_AGENT": user_agent,
        "HTTP_REFERER": "https://chess.example.org/he/",
        "HTTP_IF_NONE_MATCH": '"1796693423-d53dcb60-standings-he"',
        "HTTP_ACCEPT_LANGUAGE": "he-IL,he;q=0.9",
        "wsgi.url_scheme": "http",
    }
    request = SimpleNamespace(headers=[("HOST", "chess.example.org"), ("USER-AGENT", user_agent)])
    answer = SimpleNamespace(status="304 Not Modified", sent=0, headers=[("ETag", '"1796693423-d53dcb60"')])
    return answer, request, environ, datetime.timedelta(milliseconds=12, microseconds=400)


def _without_the_time(lines: str) -> str:
    return re.sub(r"\[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\]", "[time]", lines)


@pytest.mark.parametrize(
    "user_agent",
    [
        'Mozilla/5.0 (X11; Linux x86_64) "quoted" Chrome/131.0',  # a quote, which the line escapes
        "Sjakkappen/2.1 (Åse Ørnulf's telefon; עברית)",
        "Long/1.0 " + "x" * 5000,  # longer than one atomic write to a pipe: through gunicorn's own logger
    ],
)
def test_the_access_line_is_the_line_gunicorns_logger_writes(tmp_path, capfd, user_agent):
    answer, request, environ, took = _request(user_agent)
    theirs = tmp_path / "access.log"
    Logger(_config(str(theirs))).access(answer, request, environ, took)
    serving.AccessLine(_config("-")).access(answer, request, environ, took)
    ours = capfd.readouterr().out
    assert ours.count("\n") == 1 and '"GET /he/events/open-section-k/?round=3 HTTP/1.1" 304 0' in ours
    assert _without_the_time(ours) == _without_the_time(theirs.read_text(encoding="utf-8"))
