"""The end-to-end tests' shared fixtures: a real Chromium driven through chromedriver."""

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


@pytest.fixture
def browser():
    require(
        Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists(),
        "Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)",
    )
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
        "--window-size=1280,900",
        "--lang=en-US",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


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
