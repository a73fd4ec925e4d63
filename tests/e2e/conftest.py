"""The end-to-end tests' shared fixtures: a real Chromium driven through chromedriver."""

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.conftest import require

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


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
