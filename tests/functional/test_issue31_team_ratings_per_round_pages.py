"""Issue 31, checklist row 29 on the pages: the organiser reads a newer rating list into a team league from round 3
(preview, then confirm), the team rating report shows each player's rating of round 1 and from round 3 on, and the
player's public page shows the rating of each round. Hand-worked values as in
tests/integration/test_issue31_team_ratings_per_round.py: A1 2100, then 2150 from round 3; C1 2080, then 2000."""

import html
import re

import pytest

from leagues.models import Event, Player
from tests.helpers import search
from tests.integration.test_issue31_team_ratings_per_round import NEWER_LIST
from tests.integration.test_team_rating_report import build_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_a_newer_list_read_on_the_page_shows_in_the_team_rating_report_and_the_player_page(client):
    season = build_season()
    event = season.event
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    client.force_login(season.organiser)
    url = f"/en/manage/events/{event.slug}/entries/ratings/"
    preview = client.post(url, {"action": "preview", "players": NEWER_LIST, "from_round": "3"})
    assert preview.status_code == 200
    shown = text(preview)
    assert "A1, Player ( Club A 1 ) 2100 2150" in shown and "C1, Player ( Club C 1 ) 2080 2000" in shown
    carried = search(r'name="content" value="([^"]+)"', preview.content.decode()).group(1)
    confirmed = client.post(url, {"action": "confirm", "content": carried, "from_round": "3"}, follow=True)
    assert confirmed.status_code == 200

    report = client.get(f"/en/manage/events/{event.slug}/rating-report/")
    row = next(r for r in report.content.decode().split("<tr>") if "A1, Player" in r)
    assert "2100" in row and "Rating 2150 from round 3 (a newer rating list)" in html.unescape(row)
    norwegian = client.get(f"/nb/manage/events/{event.slug}/rating-report/").content.decode()
    assert "Rating 2150 from round 3" not in norwegian and "2150" in norwegian

    a1 = Player.objects.get(fide_id=1500001)
    profile = text(client.get(f"/en/players/{a1.pk}/"))
    assert "Rating 2100 · Rating 2150 from round 3 (a newer rating list)" in profile
    page = client.get(f"/en/players/{a1.pk}/").content.decode()
    own = re.findall(r'class="num opt own-rating"><bdi dir="ltr">(\d*)</bdi>', page)
    opponents = re.findall(r'class="num opt opponent-rating"><bdi dir="ltr">(\d*)</bdi>', page)
    assert (own, opponents) == (["2100", "2100", "2150"], ["2070", "2090", "2000"])  # rounds 1, 2, 3
