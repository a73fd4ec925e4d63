"""Round pages as pairing cards (ratings, points before the round, byes after the boards) and printing."""

import re

import pytest

from tests.functional.test_more_pages import team_match  # noqa: F401 - the fixture
from tests.helpers import search

pytestmark = pytest.mark.django_db


def _cells(row):
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cell)).strip() for cell in re.findall(r"<td.*?</td>", row, re.S)
    ]


def test_round_shows_ratings_and_points_before_the_round_then_the_byes(client, bye_event):
    html = client.get("/en/events/bye-cup/rounds/3/").content.decode()
    body = search(r'<table class="pairings">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    first = _cells(re.findall(r"<tr>.*?</tr>", body, re.S)[0])
    bakke, dahl = (bye_event.entries.get(start_number=n) for n in (2, 3))
    # board 1: Bakke (0 + ½ before round 3) against Dahl (1 + 0)
    assert first == ["1", str(bakke.rating), "Bakke, Kari", "0.5", "1-0", "1", "Dahl, Ola", str(dahl.rating)]
    assert html.index('class="pairings"') < html.index('class="byes"')  # the byes after the boards
    assert "pairing-allocated bye" in html and "PAB" in html  # the word players use, the FIDE term explained


@pytest.mark.parametrize(
    "url", ["/en/events/bye-cup/", "/en/events/bye-cup/rounds/3/", "/en/events/bye-cup/crosstable/"]
)
def test_printed_pages_carry_a_qr_code_of_their_address(client, bye_event, url, settings):
    settings.SITE_URL = "https://league.example"
    html = client.get(url).content.decode()
    qr = re.search(r'<aside class="print-only print-qr"><svg[^>]*class="segno"><title>([^<]+)</title>', html)
    assert qr and qr.group(1) == f"https://league.example{url}"  # the site's address, whoever asks


def test_the_stylesheet_prints_on_a4_without_the_navigation(client):
    css = open("static/site.css").read()
    print_rules = css[css.index("@media print") :]
    assert "size: A4" in print_rules
    assert ".site-header" in print_rules and ".print-only { display: block; }" in print_rules


@pytest.mark.usefixtures("team_match")
def test_team_standings_count_matches_played_won_drawn_and_lost(client):
    html = client.get("/en/events/mini-division/").content.decode()
    for heading in ("Matches played", "Matches won", "Matches drawn", "Matches lost"):
        assert heading in html
    first = search(r"<tbody>\s*(<tr.*?</tr>)", html, re.S).group(1)
    assert "Lund SK 1" in first
    # rank, start number, club, then played, won, drawn, lost (the team's name is the row's header cell)
    assert _cells(first)[3:7] == ["1", "1", "0", "0"]


def test_before_and_after_read_in_the_page_direction(client, bye_event):
    from leagues.models import Game, ResultChange

    game = Game.objects.get(round__event=bye_event, round__number=3, board=1)
    moved = {"number": 2, "name": "Bakke, Kari", "rank": [2, 3], "points": [1.5, 1.0], "values": {"BH": [5, 4.5]}}
    ResultChange.objects.create(
        game=game, before="1-0", after="1/2-1/2", source="form", reason="sheet", standings_impact=[moved]
    )
    for lang, arrow, other in (("en", "→", "←"), ("he", "←", "→")):
        html = client.get(f"/{lang}/events/bye-cup/rounds/3/").content.decode()
        section = search(r'<section class="corrections">.*?</section>', html, re.S).group(0)
        assert section.count(arrow) == 3 and other not in section, lang  # place, points and BH alike


def test_charts_are_never_mirrored_in_hebrew(client, bye_event):
    """Rounds run left to right on every chart, in Hebrew too (the axis is a time line, as FIDE's lists)."""
    html = client.get("/he/events/bye-cup/players/1/").content.decode()
    charts = re.findall(r'<svg[^>]*role="img"[^>]*>', html)
    assert charts and all('dir="ltr"' in svg for svg in charts)
