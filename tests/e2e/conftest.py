"""The end-to-end tests' shared fixtures: a real Chromium driven through chromedriver."""

import contextlib
import shutil
import tempfile
from pathlib import Path

import pytest
from django.core.servers.basehttp import WSGIRequestHandler

from tests.conftest import require

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

# The live server (Django's development server in a thread) sends each answer's headers and body in separate writes:
# with Nagle's algorithm, the body waited for the client's delayed acknowledgement, 40 ms on every request (the API
# fuzzing spent most of its time waiting). gunicorn, as the site is served, sets TCP_NODELAY on its sockets.
WSGIRequestHandler.disable_nagle_algorithm = True

# It also reads no chunked request body (Transfer-Encoding: chunked, no Content-Length, as the API fuzzing sends an
# empty body): the body stayed on the kept-alive connection and its "0" was read as the next request, answered by a
# bare "<!DOCTYPE HTML>" error page the client took for a broken connection. gunicorn reads such a body; here it is
# read past after the answer, so the client's next request on the connection is read as sent.
_handle_one_request = WSGIRequestHandler.handle_one_request


def _skip_chunked_body(rfile):
    while True:
        size = int(rfile.readline(65537).split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                pass  # trailer fields
            return
        rfile.read(size + 2)  # the chunk and its CRLF


def _handle_one_request_reading_past_a_chunked_body(self):
    self.headers = None
    _handle_one_request(self)
    if self.headers is not None and "chunked" in self.headers.get("Transfer-Encoding", "").lower():
        try:
            _skip_chunked_body(self.rfile)
        except ValueError:
            self.close_connection = True


# Django's handler patched on purpose, for every end-to-end test
WSGIRequestHandler.handle_one_request = _handle_one_request_reading_past_a_chunked_body  # type: ignore[method-assign]


WINDOW = (1280, 900)


def _chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="chromium-e2e-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        "--lang=en-US",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver, profile


def _quit(driver, profile: str) -> None:
    with contextlib.suppress(Exception):  # a browser that no longer answers
        driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _as_new(driver) -> None:
    """The browser as a test's new one would be: one new tab (the page the test left is closed, its scripts stop; its
    device emulation and scripts added to new documents were the closed tab's), the window's size, no cookies and an
    empty cache (the site keeps nothing in local or session storage), the timeouts as at the start."""
    with contextlib.suppress(Exception):
        driver.switch_to.alert.dismiss()
    left = driver.window_handles
    driver.switch_to.new_window("tab")
    for handle in left:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(driver.window_handles[0])
    driver.set_window_size(*WINDOW)
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    driver.implicitly_wait(0)


@pytest.fixture(scope="session")
def _one_chromium():
    """The test process's Chromium, started by its first browser test (starting one took 2 s a test under load)."""
    kept: list = []  # (driver, profile folder)
    yield kept
    for driver, profile in kept:
        _quit(driver, profile)


@pytest.fixture
def browser(_one_chromium):
    """A real Chromium, as new for each test: the process's one browser with a new tab, its cookies and cache emptied
    after each test (a browser that no longer answers is replaced)."""
    require(
        Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists(),
        "Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)",
    )
    if not _one_chromium:
        _one_chromium.append(_chromium())
    driver, _profile = _one_chromium[0]
    yield driver
    try:
        _as_new(driver)
    except Exception:
        _quit(*_one_chromium.pop())


@pytest.fixture
def worker(on_postgres):
    """A real Celery worker process on the test database and Redis; this process sends tasks to it."""
    import redis

    from tests.e2e.worker import TEST_BROKER, broker_for_this_process, celery_worker, redis_answers

    require(redis_answers(TEST_BROKER), f"Redis does not answer at {TEST_BROKER}")
    redis.Redis.from_url(TEST_BROKER).flushdb()
    with (
        celery_worker(TEST_BROKER, log_path=Path(tempfile.gettempdir()) / "e2e-worker.log") as process,
        broker_for_this_process(TEST_BROKER),
    ):
        yield process
