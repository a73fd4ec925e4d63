"""The Random Tournament Generator and the Pairing-and-Tiebreak Checker (issue 31, DESIGN.md "The pairing
command line"): generated files are paired as FIDE's reference program pairs them, read by FIDE's tools, and the
checker finds a pairing or a ranking that someone changed by hand."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.golden.checker import checker_values
from tests.paths import REPO


def pairings(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pairings", *map(str, args)], cwd=REPO, capture_output=True, text=True, timeout=300
    )


PLANS = [
    ("--players", "24", "--rounds", "6", "--seed", "11", "--hpb", "0.06", "--zpb", "0.04", "--forfeits", "0.05"),
    ("--players", "33", "--rounds", "7", "--seed", "12", "--baku", "--hpb", "0.03", "--forfeits", "0.03"),
    ("--players", "15", "--rounds", "5", "--seed", "13", "--zpb", "0.08", "--criteria", "BH,SB,WIN"),
]


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("generated")
    paths = []
    for index, plan in enumerate(PLANS):
        path = folder / f"t{index}.trf"
        done = pairings("generate", *plan, "-o", path)
        assert done.returncode == 0, done.stderr
        paths.append(path)
    return paths


def encoding_of(path: Path) -> str:
    """As tiebreaks.trf.write.encode_trf writes: Latin-1 when every character fits, else UTF-8."""
    try:
        path.read_bytes().decode("utf-8").encode("latin-1")
    except UnicodeDecodeError:
        return "latin-1"
    except UnicodeEncodeError:
        return "utf-8"
    return "latin-1"


def player_lines(path: Path) -> dict[int, str]:
    text = path.read_bytes().decode(encoding_of(path))
    return {int(line[4:8]): line for line in text.splitlines() if line.startswith("001")}


def test_the_same_seed_gives_the_same_file_and_another_seed_another(tmp_path):
    first, again, other = (tmp_path / f"{name}.trf" for name in ("first", "again", "other"))
    for path, seed in ((first, "5"), (again, "5"), (other, "6")):
        assert pairings("generate", "--players", "12", "--rounds", "4", "--seed", seed, "-o", path).returncode == 0
    assert first.read_bytes() == again.read_bytes()
    assert first.read_bytes() != other.read_bytes()


def test_the_file_has_what_was_asked_for(generated):
    byes_forfeits, baku, listed = (path.read_bytes().decode(encoding_of(path)) for path in generated)
    blocks = re.findall(r"  ([ \d]{4}) ([wb-]) (.)", byes_forfeits)
    codes = {code for _opponent, _colour, code in blocks}
    assert {"H", "Z", "+", "-", "1", "0", "="} <= codes  # byes asked for, absences, forfeits, games
    assert len(player_lines(generated[0])) == 24 and "\n142 6" in byes_forfeits
    assert "192 FIDE_DUTCH_2026_BAKU" in baku and "\n250 " in baku
    assert "\n202 BH,SB,WIN" in listed
    # start numbers follow the initial ranking: rated players by rating, unrated after them
    ratings = [int(line[48:52]) for _number, line in sorted(player_lines(generated[1]).items())]
    rated = [r for r in ratings if r]
    assert rated == sorted(rated, reverse=True) and ratings[: len(rated)] == rated


def test_our_checker_passes_every_generated_file(generated):
    for path in generated:
        done = pairings("check", path, "--json")
        assert done.returncode == 0, done.stdout + done.stderr
        report = json.loads(done.stdout)
        assert all(r["same"] for r in report["rounds"]) and report["standings"]["follows"]


def test_fides_pairing_checker_and_tiebreak_checker_read_the_files(generated):
    for path, plan in zip(generated, PLANS, strict=True):
        done = subprocess.run(
            [sys.executable, "-m", "gacrux.pairingchecker", "-c", "-i", str(path), "-b", encoding_of(path)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        report = json.loads(done.stdout)
        assert report["status"]["error"] == [] and report["pairingResult"]["check"] is True, path.name
        rounds = int(plan[plan.index("--rounds") + 1])
        values = checker_values(path, ["BH", "SB"], rounds=rounds, encoding=encoding_of(path))
        assert set(values) == set(player_lines(path))  # every player read


def swap_opponents(path: Path, round_number: int, out: Path) -> tuple[int, int, int, int]:
    """Round ``round_number`` re-paired by hand: boards a-b and c-d become a-d and c-b (results kept)."""
    lines = player_lines(path)
    start = 91 + 10 * (round_number - 1)  # the opponent's columns 92-95 of round 1 (TRF-16), 10 a round

    def block(number: int) -> str:
        return lines[number][start : start + 8]  # opponent, colour, result: "  12 w 1"

    whites = [n for n in sorted(lines) if block(n)[5] == "w" and block(n)[:4] != "0000" and block(n)[7] in "10="]
    # two boards white scored the same on: each result still agrees with the new opponent's
    a, c = next((a, c) for a in whites for c in reversed(whites) if a != c and block(a)[7] == block(c)[7])
    b, d = int(block(a)[:4]), int(block(c)[:4])
    changed = dict(lines)
    for player, opponent in ((a, d), (c, b), (b, c), (d, a)):
        line = changed[player]
        changed[player] = line[:start] + f"{opponent:4d}" + line[start + 4 :]
    text = path.read_bytes().decode(encoding_of(path))
    for number, line in changed.items():
        text = text.replace(lines[number], line)
    out.write_bytes(text.encode(encoding_of(path)))
    return a, b, c, d


def test_the_checker_finds_a_pairing_changed_by_hand(generated, tmp_path):
    wrong = tmp_path / "wrong-pairing.trf"
    a, b, c, d = swap_opponents(generated[0], 3, wrong)
    done = pairings("check", wrong, "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    differing = [r["round"] for r in report["rounds"] if not r["same"]]
    assert differing and differing[0] == 3
    recorded = report["rounds"][2]["recorded"]
    assert {"white": a, "black": d} in recorded and {"white": c, "black": b} in recorded


def test_the_checker_finds_a_ranking_against_the_tiebreak_list(generated, tmp_path):
    path = generated[0]
    lines = player_lines(path)
    by_rank = sorted(lines, key=lambda n: int(lines[n][85:89]))
    first, last = by_rank[0], by_rank[-1]  # different points: no tie-break can justify the swap
    text = path.read_bytes().decode(encoding_of(path))
    swapped = {first: lines[last][85:89], last: lines[first][85:89]}
    for number, rank in swapped.items():
        text = text.replace(lines[number], lines[number][:85] + rank + lines[number][89:])
    wrong = tmp_path / "wrong-ranking.trf"
    wrong.write_bytes(text.encode(encoding_of(path)))
    done = pairings("check", wrong, "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert all(r["same"] for r in report["rounds"])  # the pairings are as they were
    differences = report["standings"]["differences"]
    assert {d["start_number"] for d in differences} == {first, last}
    top = next(d for d in differences if d["start_number"] == last)
    assert top["file_rank"] == 1 and top["rank"][0] > 1
    assert f"{last} " in pairings("check", wrong).stdout.split("placed against the tie-break list")[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "1", "--rounds", "1"), "at least 2 players"),
        (("--players", "6", "--rounds", "6"), "1 to 5 rounds"),
        (("--players", "10", "--rounds", "3", "--hpb", "1.5"), "--hpb is a rate"),
        (("--players", "10", "--rounds", "3", "--criteria", "NOPE"), "NOPE"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(args, message, tmp_path):
    out = tmp_path / "never.trf"
    done = pairings("generate", *args, "-o", out)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()
