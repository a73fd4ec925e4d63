"""The production image's contents, built without Docker: scripts/build-image (the script the Dockerfile
runs) into a fresh virtual environment, on a copy of the repository made the way Docker makes its
build context (.dockerignore). Then the built site is served by gunicorn with the production settings."""

import fnmatch
import json
import os
import re
import secrets
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.helpers import search
from tests.paths import REPO
from tests.serving import free_port

pytestmark = pytest.mark.image


def dockerignore_patterns() -> list[str]:
    lines = (REPO / ".dockerignore").read_text().splitlines()
    return [line.strip().rstrip("/") for line in lines if line.strip() and not line.startswith("#")]


def ignored(relative: str, patterns: list[str]) -> bool:
    for pattern in patterns:
        if pattern.startswith("**/"):
            if fnmatch.fnmatch(relative.rsplit("/", 1)[-1], pattern[3:]):
                return True
        elif fnmatch.fnmatch(relative, pattern):
            return True
    return False


def copy_build_context(destination: Path) -> None:
    patterns = dockerignore_patterns()
    for folder, dirs, files in os.walk(REPO):
        relative_folder = Path(folder).relative_to(REPO)
        dirs[:] = [d for d in dirs if not ignored((relative_folder / d).as_posix(), patterns)]
        for name in files:
            relative = (relative_folder / name).as_posix()
            if not ignored(relative, patterns):
                (destination / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO / relative, destination / relative)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(context folder, virtual environment) after scripts/build-image ran."""
    root = tmp_path_factory.mktemp("image")
    context, venv = root / "app", root / "venv"
    copy_build_context(context)
    assert not list(context.rglob("*.mo")), ".dockerignore keeps compiled translations out of the context"
    run = subprocess.run(
        [str(context / "scripts" / "build-image"), str(venv)],
        env={**os.environ, "PYTHON": shutil.which("python3") or "python3"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return context, venv


def test_the_build_context_leaves_out_secrets_tests_and_local_state(built):
    context, _ = built
    for absent in (".env", ".git", ".venv", "tests", "db.sqlite3"):
        assert not (context / absent).exists(), absent
    assert (context / "manage.py").exists() and (context / "scripts" / "build-image").exists()


def test_every_language_has_its_compiled_translations(built):
    context, _ = built
    catalogs = sorted(p.parent.parent.name for p in (context / "locale").glob("*/LC_MESSAGES/django.po"))
    assert catalogs == ["el", "he", "nb", "tr"]
    for language in catalogs:
        compiled = context / "locale" / language / "LC_MESSAGES" / "django.mo"
        assert compiled.stat().st_size > 1000, language


def test_static_files_are_collected_with_hashed_names_and_compressed_copies(built):
    context, _ = built
    manifest = json.loads((context / "staticfiles" / "staticfiles.json").read_text())["paths"]
    for source in ("site.css", "calculator.js", "admin/css/base.css"):
        hashed = manifest[source]
        assert hashed != source
        assert (context / "staticfiles" / hashed).exists()
        assert (context / "staticfiles" / f"{hashed}.gz").exists()


def fetch(url: str, **headers) -> tuple[int, dict, str]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def test_the_built_site_serves_translated_pages_static_files_and_its_health_check(built):
    context, venv = built
    port = free_port()
    env = {
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
        "HOME": os.environ.get("HOME", "/tmp"),
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        # the pages below read no database and send no task: valid addresses that lead nowhere
        "DATABASE_URL": "postgres://chess@db.invalid:5432/chess_league",
        "CELERY_BROKER_URL": "redis://redis.invalid:6379/0",
        "ALLOWED_HOSTS": "league.example.org",
        "NUM_PROXIES": "1",
        "PORT": str(port),
    }
    server = subprocess.Popen(
        [str(venv / "bin" / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi", "--workers", "1"],
        cwd=context,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            health = subprocess.run([str(venv / "bin" / "python"), "scripts/healthcheck.py"], cwd=context, env=env)
            if health.returncode == 0 or server.poll() is not None:
                break
            time.sleep(0.2)
        assert health.returncode == 0, "the image's HEALTHCHECK does not pass"

        host = {"Host": "league.example.org"}
        status, headers, _ = fetch(f"{base}/en/tiebreaks/", **host)
        assert status == 301 and headers["Location"] == "https://league.example.org/en/tiebreaks/"

        tls = {**host, "X-Forwarded-Proto": "https"}  # what the proxy in front says
        status, _, english = fetch(f"{base}/en/tiebreaks/calculator/", **tls)
        assert status == 200
        for name in ("site.css", "calculator.js"):
            hashed = re.search(rf"/static/({name.split('.')[0]}\.[0-9a-f]{{12}}\.{name.split('.')[1]})", english)
            assert hashed, f"{name} is not served under its hashed name"
            status, headers, _ = fetch(f"{base}/static/{hashed.group(1)}", **tls)
            assert status == 200 and "immutable" in headers["Cache-Control"]

        heading, direction = {}, {}
        for language in ("en", "el", "he"):
            status, _, page = fetch(f"{base}/{language}/tiebreaks/", **tls)
            assert status == 200
            heading[language] = search(r"<h1>(.*?)</h1>", page, re.S).group(1)
            direction[language] = search(r'<html [^>]*dir="(\w+)"', page).group(1)
        assert direction == {"en": "ltr", "el": "ltr", "he": "rtl"}
        assert re.search("[\u0370-\u03ff]", heading["el"]), heading  # Greek letters
        assert re.search("[\u0590-\u05ff]", heading["he"]), heading  # Hebrew letters
        assert heading["en"] not in (heading["el"], heading["he"])
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=30)
    assert "Traceback" not in errors, errors
