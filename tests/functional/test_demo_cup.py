"""Issue 32: the demo has a team knock-out cup whose bracket shows something: eight teams, the quarter-finals
played (2-0, ½-1½, a 1-1 decided by board count, 2-0; QUARTER_FINALS of load_demo), the semi-finals made from
their winners and waiting for their cards, the final not known yet."""

import pytest
from rest_framework.test import APIClient

from tests.helpers import text_of

pytestmark = pytest.mark.django_db


def _sides(tie):
    return tie["home"]["start_number"], tie["away"]["start_number"]


def test_the_demo_cup_has_its_quarter_finals_played_and_its_semi_finals_made(demo, client):
    bracket = APIClient().get("/api/v1/events/demo-cup/bracket/").json()
    quarter, semi, final = bracket["rounds"]
    assert [(t["home"]["points"], t["away"]["points"]) for t in quarter["ties"]] == [
        ("2", "0"), ("0.5", "1.5"), ("1", "1"), ("2", "0"),
    ]  # fmt: skip
    assert [t["decided_by"] for t in quarter["ties"]] == ["score", "score", "board_count", "score"]
    winners = [t["home" if t["home"]["goes_through"] else "away"]["start_number"] for t in quarter["ties"]]
    assert [t["away"]["goes_through"] for t in quarter["ties"]] == [False, True, False, False]
    assert [_sides(t) for t in semi["ties"]] == [(winners[0], winners[1]), (winners[2], winners[3])]
    assert all(t["home"]["points"] is None for t in semi["ties"])  # their cards wait
    assert final["ties"][0]["home"]["start_number"] is None and bracket["champion"] is None
    page = text_of(client.get("/en/events/demo-cup/bracket/").content.decode())
    assert "Quarter-finals" in page and "Decided by: board count" in page
    assert "Not known yet: the winners of the round before." in page
