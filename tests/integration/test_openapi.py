"""The API is documented: the live schema matches the committed snapshot, and the docs page answers."""

from pathlib import Path

import pytest
from django.core.management import call_command

SNAPSHOT = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"


def test_live_schema_matches_the_committed_snapshot(tmp_path, on_postgres):
    """Integer limits in the schema come from the database, so the snapshot is PostgreSQL's."""
    live = tmp_path / "openapi.yaml"
    call_command("spectacular", "--file", str(live), "--validate", "--fail-on-warn")
    assert live.read_text() == SNAPSHOT.read_text(), (
        "The API schema changed. If that is intended, run `make schema` and commit docs/openapi.yaml."
    )


@pytest.mark.django_db
def test_schema_and_interactive_docs_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/events/{slug}/standings/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()
