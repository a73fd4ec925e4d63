"""docs/api-guide.md's examples run as written: every `bash` and `python` block, in order, against a live
server with the demo data, a token of the demo's organiser and a real webhook receiver."""

import os
import re
import subprocess
import sys
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from leagues.services.tokens import api_token_create
from leagues.services.webhooks import sign
from tests.e2e.demo import load_demo
from tests.paths import REPO
from tests.webhooks import receiver

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
GUIDE = REPO / "docs" / "api-guide.md"
BLOCK = re.compile(r"^```(bash|python)\n(.*?)^```$", re.S | re.M)


def test_every_example_of_the_api_guide_runs_against_the_demo(live_server, tmp_path):
    load_demo()
    organiser = get_user_model().objects.get(username="organiser")
    _, token = api_token_create(user=organiser, name="guide", scopes=["organiser", "tokens", "webhooks"])
    blocks = BLOCK.findall(GUIDE.read_text())
    assert {kind for kind, _ in blocks} == {"bash", "python"} and len(blocks) >= 8

    with receiver(tmp_path, 200) as hooks:
        env = {**os.environ, "BASE": live_server.url, "TOKEN": token, "RECEIVER": hooks.url}
        namespace: dict[str, Any] = {}
        for number, (kind, code) in enumerate(blocks, 1):
            if kind == "bash":
                run = subprocess.run(
                    ["bash", "-euo", "pipefail", "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True
                )
            else:
                run = subprocess.run(
                    [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True
                )
                if "def " in code:  # the receiver's functions are checked below
                    exec(compile(code, f"api-guide block {number}", "exec"), namespace)  # noqa: S102 - the guide's own code
            assert run.returncode == 0, f"block {number} ({kind}) failed:\n{code}\n{run.stdout}\n{run.stderr}"
        assert hooks.received(), "the guide's test event did not reach the receiver"

    verify = namespace["verify_signature"]
    body = b'{"id":"d1","type":"test","data":{}}'
    now = int(time.time())
    assert verify("whsec_abc", sign("whsec_abc", now, body), body)
    assert not verify("whsec_abc", sign("whsec_other", now, body), body)
    assert not verify("whsec_abc", sign("whsec_abc", now - 3600, body), body)
    assert not verify("whsec_abc", sign("whsec_abc", now, body), body + b" ")
