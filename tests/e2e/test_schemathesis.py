"""Fuzz the live API with schemathesis (positive and negative data): no 5xx, every response valid."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from leagues.models import Event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
REPORT = Path(os.environ.get("SCHEMATHESIS_REPORT", "/tmp/schemathesis-summary.txt"))


def test_live_api_survives_fuzzing(live_server):
    call_command("load_demo", stdout=open(os.devnull, "w"))
    organiser = Event.objects.get(slug="demo-autumn-open").league.role_set.get(kind="organiser").user
    token = Token.objects.create(user=organiser).key
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
        os.environ.get("SCHEMATHESIS_EXAMPLES", "25"),
        "--seed",
        "2026",
        "--header",
        f"Authorization: Token {token}",
        "--workers",
        "1",
        "--no-color",
        "--suppress-health-check",
        "all",
    ]
    run = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    REPORT.write_text(run.stdout + run.stderr)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]
