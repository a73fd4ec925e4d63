"""Issue #35: security findings."""

import pytest

from tests.factories import EventFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["standings/", "results/", "teams/1/fixtures/"])
def test_a_widget_of_an_unknown_or_draft_event_is_not_found(client, path):
    EventFactory(slug="draft-cup", status="draft")
    assert client.get(f"/embed/en/events/no-such-event/{path}").status_code == 404
    assert client.get(f"/embed/en/events/draft-cup/{path}").status_code == 404

