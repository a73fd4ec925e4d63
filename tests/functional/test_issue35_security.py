"""Issue #35: security findings."""

import pytest

from leagues.models import Prize
from tests.factories import EventFactory
from tests.workspace import division

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["standings/", "results/", "teams/1/fixtures/"])
def test_a_widget_of_an_unknown_or_draft_event_is_not_found(client, path):
    EventFactory(slug="draft-cup", status="draft")
    assert client.get(f"/embed/en/events/no-such-event/{path}").status_code == 404
    assert client.get(f"/embed/en/events/draft-cup/{path}").status_code == 404


def _prize_form(amounts):
    data = {
        "currency": "GBP",
        "method": "pool",
        "one_prize_per_player": "on",
        "remainder": "round_down",
        "item_tie": "lot",
        "published": "on",
        "prizes-TOTAL_FORMS": len(amounts),
        "prizes-INITIAL_FORMS": 0,
    }
    for index, amount in enumerate(amounts):
        data |= {
            f"prizes-{index}-kind": "place",
            f"prizes-{index}-place": index + 1,
            f"prizes-{index}-amount": amount,
            f"prizes-{index}-rank": 1,
        }
    return data


@pytest.mark.parametrize(
    "amounts",
    [["30000000"], ["21474836.48"], ["15000000", "15000000"], ["9999999999.99"]],
    ids=["one-too-big", "just-over", "sum-too-big", "form-max"],
)
@pytest.mark.parametrize("preview", [False, True])
def test_a_prize_fund_over_what_the_site_stores_is_refused_on_the_form(client, amounts, preview):
    d = division()
    client.force_login(d.organiser)
    url = f"/en/manage/events/{d.event.slug}/prizes/"
    assert client.post(url, _prize_form(["300"])).status_code == 302
    data = _prize_form(amounts) | ({"preview": "1"} if preview else {})
    refused = client.post(url, data)
    assert refused.status_code == 400
    assert "too large" in refused.content.decode()
    assert list(Prize.objects.filter(fund__event=d.event).values_list("amount", flat=True)) == [30000]
