"""The repository stands alone: its code, tests and docs never read the folder beside it."""

import re
import subprocess

from tests.paths import BENCH, GOLDEN, REPO

OUTSIDE = re.compile(r"""\.\./shared|["']shared["']\s*/|parent\s*/\s*["']shared""")


def tracked_text_files():
    names = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    for name in names.splitlines():
        if name.endswith((".py", ".md", ".toml", ".yml", ".yaml", ".cfg", ".txt", ".html", ".sh")) or name in (
            "Makefile",
            ".ci/run",
            "Dockerfile",
        ):
            yield name


def test_no_file_refers_to_the_folder_beside_the_repository():
    offenders = [
        f"{name}:{number}"
        for name in tracked_text_files()
        for number, line in enumerate((REPO / name).read_bytes().decode("utf-8", "replace").splitlines(), 1)
        if OUTSIDE.search(line) and name != "tests/unit/test_repository_stands_alone.py"
    ]
    assert offenders == []


def test_golden_and_bench_data_are_inside_the_repository():
    assert GOLDEN.is_relative_to(REPO) and BENCH.is_relative_to(REPO)
    assert len(list(GOLDEN.glob("*.json"))) >= 40
    assert len(list((GOLDEN / "team").glob("*.json"))) == 10
    assert (BENCH / "swiss-2000-players.trf").stat().st_size > 100_000
