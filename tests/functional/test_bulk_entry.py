"""Issue #33: an organiser enters a whole list of players through the page: paste or upload (CSV in UTF-8 or
Latin-1, a spreadsheet, FIDE's rating-list file), read a preview naming every bad line, nothing saved until the
confirmation, which enters everyone in one go with the start numbers of FIDE's initial ranking."""

import base64
import io
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook

from leagues.models import ClubMembership, Entry, Player, SetupChange
from tests.factories import ClubFactory, EntryFactory, EventFactory, PlayerFactory, organiser_of
from tests.helpers import search

pytestmark = pytest.mark.django_db

FIDE_LIST = Path(__file__).resolve().parents[1] / "fixtures" / "fide" / "players_list_foa.txt"


@pytest.fixture
def open_event():
    """A Swiss open of a league with one club, nobody entered yet, round 1 not paired."""
    event = EventFactory(name="Fjord Open", slug="fjord-open", status="draft")
    club = ClubFactory(name="Fjord Chess Club", slug="fjord", short_name="Fjord")
    event.league.clubs.add(club)
    return event


def _url(event):
    return f"/en/manage/events/{event.slug}/entries/list/"


def _preview(client, event, **data):
    data.setdefault("action", "preview")
    return client.post(_url(event), data)


def _confirm(client, event, response):
    content = search(r'name="content" value="([^"]+)"', response.content.decode()).group(1)
    return client.post(_url(event), {"action": "confirm", "content": content})


def _names_in_order(event):
    return list(Entry.objects.filter(event=event).order_by("start_number").values_list("player__name", flat=True))


GOOD_LIST = (
    "name;FIDE id;rating;federation;birth year;sex;title;club\n"
    "Berg, Ola;1500018;1950;NOR;1980;M;;Fjord\n"
    "Dahl, Kari;;2105;NOR;1991;W;WFM;\n"
    "Eide, Per;;;NOR;2010;M;;Fjord Chess Club\n"
    "Aas, Liv;1500026;2105;NOR;1975;F;WIM;\n"
)


def test_the_preview_names_each_bad_line_and_saves_nothing(client, open_event):
    client.force_login(organiser_of(open_event.league))
    EntryFactory(event=open_event, start_number=1, player=PlayerFactory(name="Holm, Eva", fide_id=1500999))
    pasted = (
        "name,FIDE id,rating,federation,birth year\n"
        '"Berg, Ola",1500018,19x0,NOR,1980\n'  # line 2: unreadable rating
        '"Dahl, Kari",,2105,XYZ,1991\n'  # line 3: unknown federation
        ",,1800,NOR,1990\n"  # line 4: no name
        '"Lie, Tor",1500018,1700,NOR,1970\n'  # line 5: the FIDE id of line 2
        '"Holm, Eva",1500999,2000,NOR,1960\n'  # line 6: entered already
        '"Eide, Per",,1500,NOR,2010\n'  # line 7: fine
    )
    players_before = Player.objects.count()

    response = _preview(client, open_event, players=pasted)

    assert response.status_code == 400
    page = response.content.decode()
    problems = re.findall(r'<li class="line-problem">(.*?)</li>', page, re.S)
    text = [re.sub(r"<[^>]+>", "", p) for p in problems]
    assert any(t.startswith("Line 2:") and "19x0" in t for t in text)
    assert any(t.startswith("Line 3:") and "XYZ" in t for t in text)
    assert any(t.startswith("Line 4:") and "name is missing" in t for t in text)
    assert any(t.startswith("Line 5:") and "1500018" in t and "line 2" in t for t in text)
    assert any(t.startswith("Line 6:") and "entered already" in t for t in text)
    assert not any(t.startswith("Line 7:") for t in text)
    assert "Nothing has been saved" in page
    assert 'name="action" value="confirm"' not in page  # no way to confirm a list with problems
    assert Player.objects.count() == players_before
    assert Entry.objects.filter(event=open_event).count() == 1

    # a confirmation forged around the preview is refused too, naming the first bad line
    forged = client.post(
        _url(open_event), {"action": "confirm", "content": base64.b64encode(pasted.encode()).decode()}, follow=True
    )
    assert "Nothing was entered: line 2:" in forged.content.decode()
    assert Player.objects.count() == players_before
    assert Entry.objects.filter(event=open_event).count() == 1


def test_confirming_enters_everyone_in_the_initial_ranking_without_duplicate_players(client, open_event):
    organiser = organiser_of(open_event.league)
    client.force_login(organiser)
    known = PlayerFactory(name="Berg, Ola", fide_id=1500018, rating=1900)  # in the registry, of no league
    club = open_event.league.clubs.get()

    preview = _preview(client, open_event, players=GOOD_LIST)

    assert preview.status_code == 200
    page = preview.content.decode()
    assert "4 players will be entered (3 new in the league's registry)" in page
    assert Entry.objects.filter(event=open_event).count() == 0  # nothing yet

    done = _confirm(client, open_event, preview)

    assert done.status_code == 302
    # FIDE's initial ranking: rating, then title (WIM before WFM), then name; unrated last
    assert _names_in_order(open_event) == ["Aas, Liv", "Dahl, Kari", "Berg, Ola", "Eide, Per"]
    assert Player.objects.filter(fide_id=1500018).count() == 1  # matched by FIDE id, not made again
    assert Entry.objects.get(event=open_event, player=known).rating == 1950  # the list's rating at the start
    dahl = Player.objects.get(name="Dahl, Kari")
    assert (dahl.federation, dahl.birth_year, dahl.sex, dahl.title, dahl.rating) == ("NOR", 1991, "w", "WFM", 2105)
    assert not dahl.clubs.exists()  # a player without a club is allowed
    assert ClubMembership.objects.filter(player__name="Eide, Per", club=club).exists()
    assert SetupChange.objects.filter(league=open_event.league, user=organiser, action="entered").exists()
    page = client.get(f"/en/manage/events/{open_event.slug}/entries/").content.decode()
    assert "4 players entered" in page

    # the same list again: every line is entered already, nothing is made twice
    again = _preview(client, open_event, players=GOOD_LIST)
    assert again.content.decode().count('<li class="line-problem">') == 4
    assert "entered already" in again.content.decode()
    assert Player.objects.filter(name="Eide, Per").count() == 1


def test_a_player_known_by_name_and_birth_year_is_not_made_again(client, open_event):
    client.force_login(organiser_of(open_event.league))
    dahl = PlayerFactory(name="Dahl, Kari", birth_year=1991)
    response = _confirm(client, open_event, _preview(client, open_event, players=GOOD_LIST))
    assert response.status_code == 302
    assert Player.objects.filter(name="Dahl, Kari").count() == 1
    assert Entry.objects.filter(event=open_event, player=dahl).exists()


def test_fide_rating_list_file(client, open_event):
    client.force_login(organiser_of(open_event.league))
    upload = SimpleUploadedFile("players_list_foa.txt", FIDE_LIST.read_bytes(), content_type="text/plain")

    preview = _preview(client, open_event, file=upload)

    assert preview.status_code == 200, preview.content.decode()
    assert "Østenstad, Åsmund" in preview.content.decode()  # the file is Latin-1
    _confirm(client, open_event, preview)
    assert _names_in_order(open_event) == [
        "Carlsen, Magnus",
        "Caruana, Fabiano",
        "Hou, Yifan",
        "Müller, Jürgen",
        "Østenstad, Åsmund",
        "Aas, Kari",  # no standard rating: unrated, last
    ]
    hou = Player.objects.get(fide_id=8602980)
    assert (hou.federation, hou.sex, hou.title, hou.birth_year, hou.rating) == ("CHN", "w", "GM", 1994, 2633)
    assert Player.objects.get(fide_id=25000017).rating is None


def test_spreadsheet(client, open_event):
    client.force_login(organiser_of(open_event.league))
    book = Workbook()
    sheet = book.active
    sheet.append(["Name", "FIDE ID", "Rating", "Fed", "Born", "Sex", "Title", "Club"])
    sheet.append(["Berg, Ola", 1500018, 1950, "NOR", 1980, "M", None, "Fjord"])
    sheet.append(["Dahl, Kari", None, 2105.0, "NOR", 1991, "W", "WFM", None])
    sheet.append(["Lie, Tor", None, "high", "NOR", 1970, "M", None, None])
    buffer = io.BytesIO()
    book.save(buffer)
    upload = SimpleUploadedFile("players.xlsx", buffer.getvalue())

    preview = _preview(client, open_event, file=upload)

    assert preview.status_code == 400
    text = re.sub(r"<[^>]+>", "", preview.content.decode())
    assert "Line 4: The rating “high” cannot be read" in text
    assert Entry.objects.filter(event=open_event).count() == 0

    book.active.delete_rows(4)
    buffer = io.BytesIO()
    book.save(buffer)
    preview = _preview(client, open_event, file=SimpleUploadedFile("players.xlsx", buffer.getvalue()))
    assert preview.status_code == 200
    _confirm(client, open_event, preview)
    assert _names_in_order(open_event) == ["Dahl, Kari", "Berg, Ola"]


def test_latin1_csv_with_accented_names(client, open_event):
    client.force_login(organiser_of(open_event.league))
    text = "Name\tRating\tFederation\nØdegård, Åse\t1800\tNOR\nNúñez, José\t1750\tESP\nÇelik, Ayşe\t1700\tTUR\n"
    # Windows-1252 has no ş: the Turkish name comes in UTF-8 lists; this one is a Latin-1 spreadsheet export
    latin1 = text.replace("Ayşe", "Ayse").encode("cp1252")
    preview = _preview(client, open_event, file=SimpleUploadedFile("players.csv", latin1, content_type="text/csv"))
    assert preview.status_code == 200
    _confirm(client, open_event, preview)
    assert _names_in_order(open_event) == ["Ødegård, Åse", "Núñez, José", "Çelik, Ayse"]

    # UTF-8 with a byte order mark, as Excel saves "CSV UTF-8"
    other = EventFactory(league=open_event.league, status="draft")
    utf8 = "\ufeff" + text.replace("Ødegård, Åse\t1800\tNOR\n", "").replace("Núñez, José\t1750\tESP\n", "")
    preview = _preview(client, other, file=SimpleUploadedFile("p.csv", utf8.encode("utf-8")))
    _confirm(client, other, preview)
    assert _names_in_order(other) == ["Çelik, Ayşe"]


def test_a_300_line_list(client, open_event):
    client.force_login(organiser_of(open_event.league))
    lines = ["name\trating\tfederation\tbirth year"]  # as a spreadsheet copies its cells: tabs
    lines += [f"Player{n:03}, Test\t{1000 + n}\tNOR\t{1950 + n % 60}" for n in range(300)]
    lines[151] = "Player150, Test\tfifteen hundred\tNOR\t1990"

    preview = _preview(client, open_event, players="\n".join(lines))

    assert preview.status_code == 400
    text = re.sub(r"<[^>]+>", "", preview.content.decode())
    assert "Line 152: The rating “fifteen hundred” cannot be read" in text
    assert "1 line has a problem" in text
    assert Entry.objects.filter(event=open_event).count() == 0

    lines[151] = "Player150, Test\t1150\tNOR\t1990"
    preview = _preview(client, open_event, players="\n".join(lines))
    assert preview.status_code == 200
    assert _confirm(client, open_event, preview).status_code == 302
    numbers = list(
        Entry.objects.filter(event=open_event).order_by("start_number").values_list("start_number", "rating")
    )
    assert [n for n, _rating in numbers] == list(range(1, 301))
    assert [r for _n, r in numbers] == sorted((1000 + n for n in range(300)), reverse=True)


def test_a_player_without_a_club_is_entered_by_hand(client, open_event):
    league = open_event.league
    client.force_login(organiser_of(league))
    response = client.post(f"/en/manage/leagues/{league.slug}/players/", {"name": "Guest, Gina", "rating": "1600"})
    assert response.status_code == 302
    gina = Player.objects.get(name="Guest, Gina")
    assert not gina.clubs.exists()
    response = client.post(f"/en/manage/events/{open_event.slug}/entries/", {"player": gina.pk, "late_bye": "zero"})
    assert response.status_code == 302
    assert Entry.objects.filter(event=open_event, player=gina).exists()


def test_a_league_of_clubs_only_refuses_a_player_without_a_club(client, open_event):
    league = open_event.league
    league.players_without_club = False
    league.save()
    client.force_login(organiser_of(league))
    response = client.post(f"/en/manage/leagues/{league.slug}/players/", {"name": "Guest, Gina", "rating": "1600"})
    assert response.status_code == 400
    assert not Player.objects.filter(name="Guest, Gina").exists()
    preview = _preview(client, open_event, players="name;club\nGuest, Gina;\nBerg, Ola;Fjord\n")
    text = re.sub(r"<[^>]+>", "", preview.content.decode())
    assert "Line 2: The league enters players of its clubs only" in text
    assert "Line 3" not in text


def test_columns_named_in_the_organisers_language(client, open_event):
    client.force_login(organiser_of(open_event.league))
    pasted = "Navn;Rating;Forbund;Fødselsår;Kjønn;Tittel;Klubb\nBerg, Ola;1950;NOR;1980;M;FM;Fjord\n"
    preview = _preview(client, open_event, players=pasted)
    assert preview.status_code == 200
    _confirm(client, open_event, preview)
    berg = Player.objects.get(name="Berg, Ola")
    assert (berg.rating, berg.federation, berg.birth_year, berg.title) == (1950, "NOR", 1980, "FM")


def test_the_api_previews_and_enters_a_list(open_event):
    from rest_framework.test import APIClient

    from leagues.services.tokens import api_token_create

    _, key = api_token_create(user=organiser_of(open_event.league), name="entries", scopes=["organiser"])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    url = f"/api/v1/events/{open_event.slug}/entry-list/"
    bad = GOOD_LIST.replace("2105;NOR;1991", "21O5;NOR;1991")

    preview = api.post(url, {"content": bad}, format="json")

    assert preview.status_code == 200
    body = preview.json()
    assert body["ok"] is False
    assert [(line["line"], line["problems"]) for line in body["lines"] if line["problems"]] == [
        (3, ["The rating “21O5” cannot be read: a number from 0 to 3500."])
    ]
    refused = api.post(url, {"content": bad, "confirm": True}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "list_has_problems"
    assert Entry.objects.filter(event=open_event).count() == 0

    done = api.post(url, {"content": GOOD_LIST, "confirm": True}, format="json")
    assert done.status_code == 201 and done.json() == {"entered": 4}
    assert _names_in_order(open_event) == ["Aas, Liv", "Dahl, Kari", "Berg, Ola", "Eide, Per"]

    _, results_key = api_token_create(user=organiser_of(open_event.league), name="results", scopes=["results"])
    results_only = APIClient()
    results_only.credentials(HTTP_AUTHORIZATION=f"Bearer {results_key}")
    assert results_only.post(url, {"content": GOOD_LIST}, format="json").status_code == 403
