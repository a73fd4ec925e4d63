"""The small things of a season (issue 38) on the public pages: board statistics write half points as numbers,
the prize page keeps its tab, the standings' CSV is in sight and the widget offer is made once, a player's last
round says the place of the headline, logging in leads to the dashboard, and the site has an icon."""

import re

import pytest
from django.contrib.staticfiles import finders

from leagues.management.commands.load_demo import PASSWORD
from leagues.models import Event
from tests.helpers import search

pytestmark = pytest.mark.django_db

TEAM = "demo-division-1"
OPEN = "demo-autumn-open"


def test_board_statistics_write_half_points_as_the_other_pages_do(client, demo):
    page = client.get(f"/en/events/{TEAM}/boards/").content.decode()
    assert re.search(r'<bdi dir="ltr">\d+\.5</bdi>', page), "the demo has a player with a half point"
    assert not re.search(r">\d+/\d+<", page)  # a score of 2½ read "5/2"
    greek = client.get(f"/el/events/{TEAM}/boards/").content.decode()
    assert re.search(r'<bdi dir="ltr">\d+,5</bdi>', greek)


def test_the_prize_page_keeps_the_prizes_tab(client, demo):
    page = client.get(f"/en/events/{OPEN}/prizes/").content.decode()
    assert f'href="/en/events/{OPEN}/prizes/" aria-current="page">Prizes</a>' in page


def test_the_standings_csv_is_in_sight_and_the_widgets_are_offered_once(client, demo):
    page = client.get(f"/en/events/{OPEN}/").content.decode()
    legend = page[page.index('<details class="legend">') : page.index("</details>", page.index('class="legend"'))]
    assert "standings.csv" not in legend  # hidden under "What the columns mean"
    assert f'href="/en/events/{OPEN}/standings.csv" download' in page
    assert len(re.findall(r"Put this on your club(?:'|&#x27;)s site", page)) == 1
    offer = page[page.index('<details class="embed-offer">') :].split("</details>")[0]
    assert '<label for="embed-standings">Standings</label>' in offer
    assert '<label for="embed-results">Latest results</label>' in offer


def test_a_players_last_round_says_the_place_of_the_headline(client, demo):
    event = Event.objects.get(slug=OPEN)
    seen: dict = {}  # score -> the places of the players with it
    for number in event.entries.values_list("start_number", flat=True):
        page = client.get(f"/en/events/{OPEN}/players/{number}/").content.decode()
        headline = re.search(r'Place <bdi dir="ltr">([^<]+)</bdi>, score <bdi dir="ltr">([^<]+)</bdi>', page)
        if not headline:
            continue
        body = page[page.index("<tbody>", page.index('<abbr title="Place')) :].split("</tbody>")[0]
        cell = r'<td class="num opt"><bdi dir="ltr">([^<]*)</bdi></td>'
        rows = [re.findall(cell, row) for row in body.split("</tr>")]
        _score, place = [cells for cells in rows if cells and cells[0]][-1][:2]
        assert place == headline.group(1), (number, place, headline.group(1))
        seen.setdefault(headline.group(2), set()).add(place)
    # the demo has players on equal points with different places: by points alone they shared the best one
    assert any(len(places) > 1 for places in seen.values())


def test_logging_in_from_a_public_page_leads_to_the_dashboard(client, demo):
    page = client.get(f"/en/events/{OPEN}/").content.decode()
    link = search(r'<a href="(/en/accounts/login/[^"]*)">Log in</a>', page).group(1)
    form = client.get(link).content.decode()
    following = search(r'name="next" value="([^"]*)"', form).group(1)
    response = client.post(link, {"username": "organiser", "password": PASSWORD, "next": following})
    assert response.status_code == 302 and response["Location"] == "/en/manage/"


def test_every_page_has_the_sites_icon(client, demo):
    page = client.get("/en/").content.decode()
    icon = search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert icon.endswith("favicon.svg") and finders.find("favicon.svg")


def test_correction_notes_list_only_what_changed_in_the_standings_formats(client, bye_event):
    from leagues.models import Game, ResultChange

    game = Game.objects.get(round__event=bye_event, round__number=3, board=1)
    moved = {"number": 2, "name": "Bakke, Kari", "rank": [2, 2], "points": [1.5, 1.5], "values": {"BH": [5, 4.5]}}
    ResultChange.objects.create(
        game=game, before="1-0", after="1/2-1/2", source="form", reason="sheet", standings_impact=[moved]
    )
    html = client.get("/en/events/bye-cup/rounds/3/").content.decode()
    section = search(r'<section class="corrections">.*?</section>', html, re.S).group(0)
    assert "place 2" not in section and "points 1.5" not in section  # what stayed is not said
    assert '<abbr title="Buchholz"><bdi>BH</bdi></abbr> <bdi dir="ltr">5</bdi> → <bdi dir="ltr">4.5</bdi>' in section
    greek = client.get("/el/events/bye-cup/rounds/3/").content.decode()
    assert '<bdi dir="ltr">4,5</bdi>' in greek  # the language's decimal separator, as on the standings


def test_crosstable_opponent_links_are_named_by_the_opponent_and_the_round(client, demo):
    page = client.get(f"/en/events/{OPEN}/crosstable/").content.decode()
    link = r'<a href="/en/events/[^"]+/players/(\d+)/" title="([^"]+)" aria-label="([^"]+)">(\d+)</a>'
    links = re.findall(link, page)
    assert links
    for number, name, label, shown in links:
        assert shown == number and label.startswith(f"{number} {name}, round "), label
