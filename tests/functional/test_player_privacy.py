"""Standings with the registry's columns; what is never public; initials that reach every page at once."""

import datetime
import re

import pytest

from leagues.errors import PermissionDenied
from leagues.models import Entry, Player, Prize, StandingsSnapshot
from leagues.services.players import player_set_anonymised
from leagues.services.prize_funds import PrizeInput, prize_fund_save
from tests.factories import UserFactory, organiser_of
from tests.helpers import search

pytestmark = pytest.mark.django_db


def _first_row(html):
    body = search(r'<table class="standings"[^>]*>.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    return re.findall(r"<tr[ >].*?</tr>", body, re.S)


def _registry(event):
    aas = Entry.objects.get(event=event, start_number=1).player
    assert aas is not None
    Player.objects.filter(pk=aas.pk).update(
        title="IM", federation="NOR", birth_year=1937, birth_date=datetime.date(1937, 7, 16), sex="m", fide_games=9
    )
    return aas


def test_standings_show_start_number_title_federation_rating_and_progress(client, bye_event):
    aas = _registry(bye_event)
    html = client.get("/en/events/bye-cup/").content.decode()
    headers = re.findall(r"<abbr title=\"([^\"]+)\">", html.split("<tbody>")[0])
    for heading in ("Rank", "Start number", "Federation", "Rating at the start"):
        assert heading in headers
    first = _first_row(html)[0]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", first))
    assert "IM" in text and "NOR" in text and str(aas.rating) in text and "Aas, Per" in text
    assert re.findall(r"<td[^>]*>(.*?)</td>", first)[1] == "1"  # the start number, after the rank
    assert "After round 3 of 3" in html
    assert "Last updated" in html
    assert "<script>" not in html and "standings.js" in html  # behaviour from a static file, no inline script


def test_birth_year_and_sex_are_never_public(client, bye_event):
    aas = _registry(bye_event)
    for url in ("/en/events/bye-cup/", "/en/events/bye-cup/players/1/", f"/api/v1/players/{aas.pk}/"):
        body = client.get(url).content.decode()
        assert "1937" not in body and "07-16" not in body and "07/16" not in body, url
    player = client.get(f"/api/v1/players/{aas.pk}/").json()
    assert not {"birth_year", "birth_date", "sex", "fide_games", "k_factor"} & set(player)
    assert (player["title"], player["federation"]) == ("IM", "NOR")
    listing = client.get("/api/v1/players/").json()["results"]
    assert all("birth_year" not in p and "sex" not in p for p in listing)


def test_api_standings_rows_carry_start_number_title_federation_rating(client, bye_event):
    _registry(bye_event)
    from tests.functional.conftest import publish_results

    publish_results(bye_event)
    rows = client.get("/api/v1/events/bye-cup/standings/").json()["rows"]
    aas = next(row for row in rows if row["start_number"] == 1)
    assert (aas["title"], aas["federation"], aas["rating"]) == (
        "IM",
        "NOR",
        bye_event.entries.get(start_number=1).rating,
    )


@pytest.mark.usefixtures("on_commit_runs")  # each save renews the pages' stamp when its transaction ends
def test_category_badge_only_once_the_organiser_publishes_the_prize(client, bye_event):
    _registry(bye_event)
    organiser = organiser_of(bye_event.league)
    s65 = PrizeInput(kind=Prize.Kind.CATEGORY, category="S65", eligibility_kind="born_before", eligibility_value="1950")
    prize_fund_save(event=bye_event, user=organiser, fields={"published": False}, prizes=[s65])
    assert 'class="badge"' not in client.get("/en/events/bye-cup/").content.decode()
    prize_fund_save(event=bye_event, user=organiser, fields={"published": True}, prizes=[s65])
    rows = _first_row(client.get("/en/events/bye-cup/").content.decode())
    badged = [row for row in rows if '<span class="badge">S65</span>' in row]
    assert len(badged) == 1 and "Aas, Per" in badged[0]


@pytest.mark.usefixtures("on_commit_runs")  # the anonymisation renews the pages when its transaction ends
def test_initials_reach_the_snapshot_the_cached_pages_and_the_api_at_once(client, bye_event):
    aas = Entry.objects.get(event=bye_event, start_number=1).player
    assert "Aas, Per" in client.get("/en/events/bye-cup/").content.decode()  # now cached
    assert any(r["name"] == "Aas, Per" for r in client.get("/api/v1/events/bye-cup/standings/").json()["rows"])
    assert aas is not None
    with pytest.raises(PermissionDenied):
        player_set_anonymised(player_id=aas.pk, anonymised=True, user=UserFactory())
    player_set_anonymised(player_id=aas.pk, anonymised=True, user=organiser_of(bye_event.league))
    snapshot = StandingsSnapshot.objects.get(event=bye_event)
    assert [r["name"] for r in snapshot.rows if r["start_number"] == 1] == ["P. A."]
    for url in ("/en/events/bye-cup/", "/he/events/bye-cup/", "/en/events/bye-cup/crosstable/"):
        html = client.get(url).content.decode()
        assert "Aas" not in html and "P. A." in html, url
    api_rows = client.get("/api/v1/events/bye-cup/standings/").json()["rows"]
    assert [r["name"] for r in api_rows if r["start_number"] == 1] == ["P. A."]
    assert client.get(f"/api/v1/players/{aas.pk}/").json()["name"] == "P. A."
    assert client.get("/api/v1/players/?name=Aas").json()["results"] == []
