"""What a newcomer sees from `make demo`: the migrate and load_demo steps, run as the Makefile runs them."""

import os
import subprocess
import sys

from tests.paths import REPO


def manage(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )


def test_the_demo_prints_where_to_go_and_how_to_log_in_and_nothing_else(tmp_path):
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/tmp"),
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}",
    }
    migrate = manage(env, "migrate", "--no-input", "-v", "0")
    assert migrate.returncode == 0 and migrate.stdout + migrate.stderr == "", migrate.stdout + migrate.stderr

    demo = manage(env, "load_demo")
    assert demo.returncode == 0 and demo.stderr == "", demo.stderr  # no log lines
    lines = demo.stdout.splitlines()
    assert lines[0] == "Demo league loaded: http://127.0.0.1:8000/en/"
    assert "http://127.0.0.1:8000/en/accounts/login/" in lines[1]
    assert "http://127.0.0.1:8000/en/manage/" in lines[1]
    assert "/admin/" not in demo.stdout
    logins = [line.split() for line in lines[3:]]
    assert len(logins) == 5  # the organiser and one secretary for each of the four clubs
    assert logins[0][0] == "organiser"

    check = "\n".join(
        f"print(authenticate(username={user!r}, password={password!r}) is not None)" for user, password in logins
    )
    shell = manage(env, "shell", "-v", "0", "-c", "from django.contrib.auth import authenticate\n" + check)
    assert shell.stdout.split() == ["True"] * 5, shell.stdout + shell.stderr
