"""The pairing command line (DESIGN.md "The pairing command line"), run as a real process, on
tournaments made by gacrux's random tournament generator. The reference for `next` is FIDE TEC's
own program (gacrux's pairingchecker) run alone on the same file."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.paths import REPO

from .builders import generated_tournaments


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pairings", *map(str, args)], cwd=REPO, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> list[Path]:
    """Three 30-player Swisses, 5 rounds played with zero/half-point byes and forfeits."""
    return generated_tournaments(
        tmp_path_factory.mktemp("gen"), players=30, rounds=5, first=0, count=3, byes=(0.03, 0.1, 0.05)
    )


def with_rounds(path: Path, total: int, tmp_path: Path, extra: Sequence[str] = ()) -> Path:
    """The same file announcing ``total`` rounds (so the next one can be paired)."""
    text = re.sub(r"^142 .*$", f"142 {total}", path.read_text(), flags=re.MULTILINE)
    out = tmp_path / path.name
    out.write_text(text.rstrip("\n") + "\n" + "".join(line + "\n" for line in extra))
    return out


def gacrux_alone(path: Path) -> list[tuple[int, ...]]:
    done = subprocess.run(
        [sys.executable, "-m", "gacrux.pairingchecker", "-i", str(path), "-p", "-dT"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = done.stdout.split("\n")
    count = int(lines[0])
    return [tuple(int(x) for x in line.split()) for line in lines[1 : count + 1]]


def test_next_is_fides_reference_pairing(played, tmp_path):
    for path in played:
        trf = with_rounds(path, 7, tmp_path)
        done = run("next", trf, "--json")
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["round"] == 6 and result["system"] == "dutch-2026"
        ours = [(p["white"], p["black"]) for p in result["pairings"]]
        ours += [(b["start_number"], 0) for b in result["byes"] if b["type"] == "PAB"]
        assert ours == gacrux_alone(trf)
        assert [p["board"] for p in result["pairings"]] == list(range(1, len(result["pairings"]) + 1))
        everyone = [n for p in result["pairings"] for n in (p["white"], p["black"])]
        everyone += [b["start_number"] for b in result["byes"]]
        assert sorted(everyone) == list(range(1, 31))


def test_next_leaves_out_the_byes_entered_before_the_pairing(played, tmp_path):
    # player 3: a half-point bye in the round 6 column; player 5: a full-point bye as a TRF-26
    # 240 record; 7 and 9 absent (XXZ). Points columns include the byes.
    lines = with_rounds(played[0], 7, tmp_path).read_text().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("001    3 "):
            lines[i] = (line[:80] + f"{float(line[80:84]) + 0.5:4.1f}" + line[84:]).ljust(139) + "  0000 - H"
        if line.startswith("001    5 "):
            lines[i] = line[:80] + f"{float(line[80:84]) + 1:4.1f}" + line[84:]
    trf = tmp_path / "byes.trf"
    trf.write_text("\n".join([*lines, "240 F   6    5", "XXZ 7 9"]) + "\n")
    done = run("next", trf, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    requested = [(b["start_number"], b["type"]) for b in result["byes"] if b["type"] != "PAB"]
    assert requested == [(3, "H"), (5, "F"), (7, "Z"), (9, "Z")]
    paired = {n for p in result["pairings"] for n in (p["white"], p["black"])}
    assert paired.isdisjoint({3, 5, 7, 9})
    assert len(paired) + len(result["byes"]) == 30


def test_next_text_output(played, tmp_path):
    done = run("next", with_rounds(played[1], 6, tmp_path))
    assert done.returncode == 0, done.stderr
    first, board1, *_ = done.stdout.splitlines()
    assert first == "Round 6 (dutch-2026)"
    assert re.fullmatch(r"Board +1: +\d+ - +\d+", board1)


def test_check_replays_every_round(played):
    for path in played:
        done = run("check", path, "--json")
        assert done.returncode == 0, done.stdout
        report = json.loads(done.stdout)
        assert [r["round"] for r in report["rounds"]] == [1, 2, 3, 4, 5]
        assert all(r["same"] for r in report["rounds"])
    assert run("check", played[0]).stdout.splitlines()[-2] == "0 of 5 rounds differ"


def test_without_record_152_the_initial_colour_is_read_from_round_one(played, tmp_path):
    # file 1 of the generator starts with black on top; without 152 the colour comes from round 1
    trf = tmp_path / "no-152.trf"
    text = played[1].read_text()
    assert "\n152 B\n" in text
    trf.write_text(text.replace("\n152 B\n", "\n"))
    done = run("check", trf)
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[-2] == "0 of 5 rounds differ"


def test_a_finished_event_has_no_next_round(played):
    done = run("next", played[0])
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip() == "error: round 6 cannot be paired: the event has 5 rounds"


def test_check_reports_a_round_paired_otherwise(played, tmp_path):
    # exchange the colours of one round-5 game in both records: the round no longer matches
    lines = played[0].read_text().splitlines()
    players = {int(line[4:8]): i for i, line in enumerate(lines) if line.startswith("001")}
    col = 91 + 10 * 4
    white = next(n for n, i in players.items() if lines[i][col + 5] == "w" and lines[i][col + 7] in "10=")
    black = int(lines[players[white]][col : col + 4])
    for number, colour in ((white, "b"), (black, "w")):
        line = lines[players[number]]
        lines[players[number]] = line[: col + 5] + colour + line[col + 6 :]
    trf = tmp_path / "swapped.trf"
    trf.write_text("\n".join(lines) + "\n")
    done = run("check", trf)
    assert done.returncode == 1
    assert "round 5: differs" in done.stdout and f"{black}-{white}" in done.stdout
    assert done.stdout.splitlines()[-2] == "1 of 5 rounds differ"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "error: No such file or directory"),
        ("012 nothing\n", "error: no player records (001) in the file"),
        (
            "012 t\n001    1 m    A                                 2000                             0.0\n"
            "001    2 m    B                                 1900                             0.0\n",
            "error: the number of rounds is not in the file (record 142 or XXR)",
        ),
    ],
)
def test_bad_input_is_one_line_and_nothing_paired(tmp_path, content, message):
    path = tmp_path / "bad.trf"
    if content is not None:
        path.write_text(content)
    for command in ("next", "check"):
        done = run(command, path, "--json")
        assert done.returncode == 2
        assert done.stdout == ""
        assert done.stderr.strip() == message


def test_a_round_robin_file_pairs_by_berger(tmp_path):
    lines = ["012 club round robin", "142 5", "192 FIDE_ROUNDROBIN"]
    lines += [f"001 {n:4d} m    {'Player ' + str(n):33} {2000 - n:4d} {'':26}  0.0 {'':4}" for n in range(1, 7)]
    trf = tmp_path / "rr.trf"
    trf.write_text("\n".join(lines) + "\n")
    result = json.loads(run("next", trf, "--json").stdout)
    assert result["system"] == "berger" and result["round"] == 1
    assert [(p["white"], p["black"]) for p in result["pairings"]] == [(1, 6), (2, 5), (3, 4)]
