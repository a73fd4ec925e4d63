"""The pairing command line on FIDE's TRF-26 team sample (tests/fixtures/trf-samples): a team file is a team
Swiss (C.04.6). The sample is finished and Baku-accelerated, which the team pairing does not do: both are
refused with one line, nothing paired."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import REPO

SAMPLE = REPO / "tests" / "fixtures" / "trf-samples" / "fide-trf26-sample-team.trf"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pairings", *args]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)


def test_the_team_sample_is_read_as_a_team_swiss_and_its_acceleration_refused_in_one_line():
    answer = run("next", str(SAMPLE), "--json")
    assert answer.returncode == 2 and not answer.stdout
    assert answer.stderr.strip() == "error: a team Swiss with the Baku acceleration cannot be paired here"


def test_check_refuses_a_team_file_instead_of_replaying_its_players_as_an_individual_swiss():
    answer = run("check", str(SAMPLE))
    assert answer.returncode == 2 and not answer.stdout
    assert answer.stderr.strip().splitlines() == [
        "error: check replays individual tournaments; a team file's next round is paired with next"
    ]
