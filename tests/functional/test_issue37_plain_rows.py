"""The big tables (standings, Swiss wallchart, a round's page) read the entries as plain rows (issue #37): what a
reader sees of a player there is what the player's own page shows, their club, title, withdrawal and initials."""

import re

import pytest

from leagues.models import ClubMembership, Entry, Player
from leagues.services.players import player_set_anonymised
from tests.factories import ClubFactory, organiser_of

pytestmark = pytest.mark.django_db


def _row_of(html: str, name: str) -> str:
    """The table row whose link (not an opponent's title) names `name`."""
    return next(row for row in re.findall(r"<tr[ >].*?</tr>", html, re.S) if f"<bdi>{name}</bdi></a>" in row)


@pytest.fixture
def changed(bye_event):
    """Aas an International Master, Bakke a member of a second club since (the first one is shown), Dahl
    anonymised, Eide withdrawn after round 3: changed before any page is read (nothing cached yet)."""
    entries = Entry.objects.filter(event=bye_event)
    players = {entry.start_number: entry.player for entry in entries if entry.player is not None}
    Player.objects.filter(pk=players[1].pk).update(title="IM")
    ClubMembership.objects.create(player=players[2], club=ClubFactory(name="Later Club", slug="later"))
    player_set_anonymised(player_id=players[3].pk, anonymised=True, user=organiser_of(bye_event.league))
    Entry.objects.filter(event=bye_event, start_number=4).update(withdrawn_after_round=3)
    return bye_event


def test_standings_show_title_first_club_initials_and_withdrawal(client, changed):
    html = client.get("/en/events/bye-cup/").content.decode()
    assert '<abbr class="chess-title" title="International Master">IM</abbr>' in _row_of(html, "Aas, Per")
    bakke = _row_of(html, "Bakke, Kari")
    assert 'data-club="fjord"' in bakke and "Fjord Chess Club" in bakke and "Later Club" not in bakke
    assert "Dahl" not in html and "O. D." in html
    assert 'class="badge withdrawn"' in _row_of(html, "Eide, Liv")
    assert '<option value="later">' not in html  # the club filter offers the clubs shown only


def test_wallchart_and_round_page_show_initials_withdrawal_and_byes(client, changed):
    wallchart = client.get("/en/events/bye-cup/crosstable/").content.decode()
    assert "Dahl" not in wallchart and "O. D." in wallchart
    assert 'class="badge withdrawn"' in _row_of(wallchart, "Eide, Liv")
    round_page = client.get("/en/events/bye-cup/rounds/3/").content.decode()
    assert "Dahl" not in round_page and "O. D." in _row_of(round_page, "Bakke, Kari")
    byes = re.search(r'<ul class="byes">(.*?)</ul>', round_page, re.S)
    assert byes is not None
    assert re.search(r"Aas, Per</bdi></a>\s*: half-point bye", byes.group(1)), byes.group(1)
    assert 'class="badge withdrawn"' in byes.group(1)  # Eide's pairing-allocated bye
