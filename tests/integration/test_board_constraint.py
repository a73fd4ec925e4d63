"""One game per board: per match in team events, per round outside matches; kept by PostgreSQL and by
SQLite (the demo's database) alike, so `manage.py` warns about nothing there."""

import os
import subprocess
import sys

import pytest
from django.db import IntegrityError, transaction

from tests.factories import GameFactory, TeamMatchFactory
from tests.paths import REPO

pytestmark = pytest.mark.django_db


def test_a_second_game_on_a_board_of_the_round_is_refused():
    game = GameFactory(board=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(round=game.round, board=1)


def test_a_second_game_on_a_board_of_the_match_is_refused_but_another_match_may_use_it():
    match = TeamMatchFactory()
    GameFactory(round=match.round, match=match, board=1, white=match.home, black=match.away)
    other = TeamMatchFactory(round=match.round)
    GameFactory(round=match.round, match=other, board=1, white=other.home, black=other.away)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(round=match.round, match=match, board=1, white=match.home, black=match.away)


def test_no_system_check_warning_on_sqlite(tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    out = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and "W047" not in out.stdout + out.stderr
    assert "System check identified no issues (0 silenced)" in out.stdout
