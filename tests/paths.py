"""Where the test data lives: inside the repository, so a clone with nothing beside it passes."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
GOLDEN = TESTS / "golden" / "data" / "fide2026"
BENCH = TESTS / "bench" / "data"
TRF_SAMPLES = TESTS / "fixtures" / "trf-samples"
