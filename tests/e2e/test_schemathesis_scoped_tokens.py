"""Fuzz the live API with schemathesis with tokens of fewer scopes than the organiser's: a club secretary's, and
tokens for the new endpoints (a file of their own, so the suite's other process runs test_schemathesis.py
meanwhile). These runs fuzz (random data, positive and negative) without the coverage phase: its boundary values,
the same cases whatever the token, are sent with the organiser's token in test_schemathesis.py, and were two thirds
of these runs' time; SCHEMATHESIS_SCOPED_PHASES (e.g. coverage,fuzzing) makes a longer run."""

import os
from pathlib import Path

import pytest

from leagues.models import Role
from leagues.services.tokens import api_token_create
from tests.e2e.demo import load_demo
from tests.e2e.test_schemathesis import NEW_ENDPOINTS, REPORT, _organiser, _schemathesis
from tests.helpers import present

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHASES = ["--phases", os.environ.get("SCHEMATHESIS_SCOPED_PHASES", "fuzzing")]


def test_live_api_survives_fuzzing_with_a_secretarys_token(live_server):
    """A club secretary's token: writes within the club's games pass, the rest is refused, never a 5xx."""
    load_demo()
    secretary = present(Role.objects.filter(kind=Role.Kind.SECRETARY).select_related("user").first()).user
    _, token = api_token_create(user=secretary, name="fuzz", scopes=["results"])
    run = _schemathesis(live_server, token, *PHASES)
    Path(str(REPORT) + ".secretary").write_text(run.stdout + run.stderr)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]


@pytest.mark.parametrize("scopes", [["webhooks", "tokens"], ["read"]], ids=["in-scope", "out-of-scope"])
def test_tokens_webhooks_and_exports_survive_fuzzing_with_a_scoped_token(live_server, scopes):
    """The new endpoints with a token that may use them, and with one whose scope they refuse (403s,
    documented, never a 5xx)."""
    load_demo()
    _, token = api_token_create(user=_organiser(), name="fuzz", scopes=scopes)
    run = _schemathesis(live_server, token, *PHASES, "--include-path-regex", NEW_ENDPOINTS)
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]
