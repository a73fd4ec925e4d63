"""Fuzz the live API with schemathesis (positive and negative data): no 5xx, every response valid."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from leagues.models import Event, Role
from leagues.services.tokens import api_token_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
REPORT = Path(os.environ.get("SCHEMATHESIS_REPORT", "/tmp/schemathesis-summary.txt"))


NEW_ENDPOINTS = r"^/api/v1/(tokens|webhooks|events/[^/]+/(export|standings\.|crosstable)|seasons/[^/]+/bundle)"


def _organiser():
    return Event.objects.get(slug="demo-autumn-open").league.role_set.get(kind="organiser").user


def test_live_api_survives_fuzzing(live_server):
    call_command("load_demo", stdout=open(os.devnull, "w"))
    _, token = api_token_create(user=_organiser(), name="fuzz", scopes=["organiser", "tokens", "webhooks"])
    run = _schemathesis(live_server, token)
    REPORT.write_text(run.stdout + run.stderr)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]


@pytest.mark.parametrize("scopes", [["webhooks", "tokens"], ["read"]], ids=["in-scope", "out-of-scope"])
def test_tokens_webhooks_and_exports_survive_fuzzing_with_a_scoped_token(live_server, scopes):
    """The new endpoints with a token that may use them, and with one whose scope they refuse (403s,
    documented, never a 5xx)."""
    call_command("load_demo", stdout=open(os.devnull, "w"))
    _, token = api_token_create(user=_organiser(), name="fuzz", scopes=scopes)
    run = _schemathesis(live_server, token, "--include-path-regex", NEW_ENDPOINTS)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]


def test_live_api_survives_fuzzing_with_a_secretarys_token(live_server):
    """A club secretary's token: writes within the club's games pass, the rest is refused, never a 5xx."""
    call_command("load_demo", stdout=open(os.devnull, "w"))
    secretary = Role.objects.filter(kind=Role.Kind.SECRETARY).select_related("user").first().user
    _, token = api_token_create(user=secretary, name="fuzz", scopes=["results"])
    run = _schemathesis(live_server, token)
    Path(str(REPORT) + ".secretary").write_text(run.stdout + run.stderr)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]


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
        "--no-color",
        "--suppress-health-check",
        "all",
        # the fuzzer would find its own token's prefix and revoke it (tests/integration/test_api_tokens.py)
        "--exclude-path-regex",
        r"^/api/v1/tokens/\{prefix\}/$",
        *extra,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=1200)
