"""Fuzz the live API with schemathesis (positive and negative data): no 5xx, every response valid. The organiser's
token here, and the stateful phase; the tokens of fewer scopes in test_schemathesis_scoped_tokens.py (two files: the
suite's two processes fuzz at once)."""

import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from leagues.models import Event, Scope
from leagues.services.tokens import api_token_create
from tests.e2e.demo import load_demo

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
REPORT = Path(os.environ.get("SCHEMATHESIS_REPORT", "/tmp/schemathesis-summary.txt"))


NEW_ENDPOINTS = r"^/api/v1/(tokens|webhooks|events/[^/]+/(export|standings\.|crosstable)|seasons/[^/]+/bundle)"


def _organiser():
    return Event.objects.get(slug="demo-autumn-open").league.role_set.get(kind="organiser").user


def test_live_api_survives_fuzzing(live_server):
    load_demo()
    _, token = api_token_create(user=_organiser(), name="fuzz", scopes=["organiser", "tokens", "webhooks"])
    # the stateful phase runs in the test below, with a token of every scope
    run = _schemathesis(live_server, token, "--phases", "examples,coverage,fuzzing")
    REPORT.write_text(run.stdout + run.stderr)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]


def test_live_api_survives_stateful_fuzzing_with_a_long_lived_token_of_every_scope(live_server):
    """A token of every scope that lives ten years, through schemathesis' stateful phase: sequences of calls where
    one answer feeds the next (a webhook made, then read, changed, tested and deleted; a token made, then listed; an
    event's settings read, then changed), along the links schemathesis infers from the schema and the answers. Never
    a 5xx, every answer as documented. CI runs the stateful phase alone, 20 scenarios (the other runs above fuzz each
    operation); SCHEMATHESIS_PHASES (e.g. fuzzing,stateful), SCHEMATHESIS_STATEFUL_EXAMPLES and SCHEMATHESIS_MAX_TIME
    (seconds, repeating until spent) make a longer run."""
    load_demo()
    _, token = api_token_create(
        user=_organiser(), name="fuzz", scopes=list(Scope.values), expires_at=timezone.now() + timedelta(days=3650)
    )
    extra = [
        "--phases",
        os.environ.get("SCHEMATHESIS_PHASES", "stateful"),
        "--max-examples",
        os.environ.get("SCHEMATHESIS_STATEFUL_EXAMPLES", "20"),
    ]
    if os.environ.get("SCHEMATHESIS_MAX_TIME"):
        extra += ["--max-time", os.environ["SCHEMATHESIS_MAX_TIME"]]
    run = _schemathesis(live_server, token, *extra)
    Path(str(REPORT) + ".stateful").write_text(run.stdout + run.stderr)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]
    assert re.search(r"Stateful \(in ", run.stdout), "the stateful phase did not run"


def _schemathesis(live_server, token, *extra):
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "run",
        f"{live_server.url}/api/schema/",
        "--mode",
        "all",
        "--checks",
        "not_a_server_error,response_schema_conformance,status_code_conformance",
        "--max-examples",
        os.environ.get("SCHEMATHESIS_EXAMPLES", "15"),  # 15 keeps the suite's four runs near 6 minutes; raise it to dig
        "--seed",
        os.environ.get("SCHEMATHESIS_SEED", "2026"),
        "--header",
        f"Authorization: Bearer {token}",
        "--workers",
        "1",
        # the schema is generated on each request: a loaded machine takes longer than the 10 s default to answer
        "--request-timeout",
        "120",
        "--no-color",
        "--suppress-health-check",
        "all",
        # the fuzzer would find its own token's prefix and revoke it (tests/integration/test_api_tokens.py)
        "--exclude-path-regex",
        r"^/api/v1/tokens/\{prefix\}/$",
        *extra,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=1200)
