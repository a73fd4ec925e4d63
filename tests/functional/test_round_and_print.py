"""Round pages as pairing cards (ratings, points before the round, byes after the boards) and printing."""

import re

import pytest

from tests.functional.test_more_pages import team_match  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def _cells(row):
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cell)).strip() for cell in re.findall(r"<td.*?</td>", row, re.S)
    ]


def test_round_shows_ratings_and_points_before_the_round_then_the_byes(client, bye_event):
    html = client.get("/en/events/bye-cup/rounds/3/").content.decode()
    body = re.search(r'<table class="pairings">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    first = _cells(re.findall(r"<tr>.*?</tr>", body, re.S)[0])
    bakke, dahl = (bye_event.entries.get(start_number=n) for n in (2, 3))
    # board 1: Bakke (0 + ½ before round 3) against Dahl (1 + 0)
    assert first == ["1", str(bakke.rating), "Bakke, Kari", "0.5", "1-0", "1", "Dahl, Ola", str(dahl.rating)]
    assert html.index('class="pairings"') < html.index('class="byes"')  # the byes after the boards
    assert "pairing-allocated bye" in html and "PAB" in html  # the word players use, the FIDE term explained


@pytest.mark.parametrize(
    "url", ["/en/events/bye-cup/", "/en/events/bye-cup/rounds/3/", "/en/events/bye-cup/crosstable/"]
)
def test_printed_pages_carry_a_qr_code_of_their_address(client, bye_event, url):
    html = client.get(url).content.decode()
    qr = re.search(r'<aside class="print-only print-qr"><svg[^>]*class="segno"><title>([^<]+)</title>', html)
    assert qr and qr.group(1) == f"http://testserver{url}"


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
    first = re.search(r"<tbody>\s*(<tr.*?</tr>)", html, re.S).group(1)
    assert "Lund SK 1" in first
    assert re.findall(r'<td class="num opt" dir="ltr">(\d+)</td>', first)[1:] == ["1", "1", "0", "0"]
