"""A language added to settings.LANGUAGES needs no database migration (CONTRIBUTING.md, Add a language): the
models read the list when they need it, the migrations never copy it."""

import os
import subprocess
import sys

from tests.paths import REPO


def test_adding_a_language_to_the_settings_needs_no_migration(tmp_path):
    (tmp_path / "with_german.py").write_text(
        "from config.settings.test import *  # noqa: F403\nLANGUAGES = [*LANGUAGES, ('de', 'German')]  # noqa: F405\n",
        encoding="utf-8",
    )
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)]),
        "DJANGO_SETTINGS_MODULE": "with_german",
    }
    answer = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "leagues", "--check", "--dry-run", "--settings=with_german"],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert answer.returncode == 0, answer.stdout + answer.stderr
