"""Every page answers in all five languages, with the right <html lang> and direction."""

import re

import pytest

from leagues.models import Event, Game, Result, StandingsSnapshot
from tests.helpers import present, search

from .conftest import LANGUAGES

PAGES = [
    "/{lang}/",
    "/{lang}/clubs/",
    "/{lang}/clubs/oslo-sk/",
    "/{lang}/leagues/demo-league/seasons/2026/",
    "/{lang}/events/demo-autumn-open/",
    "/{lang}/events/demo-autumn-open/crosstable/",
    "/{lang}/events/demo-autumn-open/rounds/1/",
    "/{lang}/events/demo-autumn-open/rounds/2/",
    "/{lang}/events/demo-autumn-open/players/1/",
    "/{lang}/events/demo-autumn-open/why/",
    "/{lang}/events/demo-autumn-open/why/?a=1&b=2",
    "/{lang}/events/demo-division-1/",
    "/{lang}/events/demo-division-1/crosstable/",
    "/{lang}/events/demo-division-1/rounds/1/",
    "/{lang}/events/demo-division-1/teams/1/",
    "/{lang}/events/demo-division-1/boards/",
    "/{lang}/events/demo-autumn-open/prizes/",
    "/{lang}/events/demo-division-1/prizes/",
    "/{lang}/tiebreaks/",
    "/{lang}/tiebreaks/buchholz/",
    "/{lang}/tiebreaks/sonneborn-berger/",
    "/{lang}/tiebreaks/direct-encounter/",
    "/{lang}/tiebreaks/counts/",
    "/{lang}/tiebreaks/rating/",
    "/{lang}/tiebreaks/unplayed-rounds/",
    "/{lang}/tiebreaks/fide-vs-us-chess/",
    "/{lang}/tiebreaks/prizes/",
    "/{lang}/tiebreaks/calculator/",
    "/{lang}/tiebreaks/calculator/?rounds=2&kind_1=win&opponent_1=1&kind_2=hpb&opponent_2=",
]


def html_tag(html):
    return search(r"<html[^>]*>", html).group(0)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_page_answers_in_every_language(client, demo, lang, page):
    response = client.get(page.format(lang=lang))
    assert response.status_code == 200
    html = response.content.decode()
    tag = html_tag(html)
    assert f'lang="{lang}"' in tag
    assert ('dir="rtl"' if lang == "he" else 'dir="ltr"') in tag
    assert html.count("<h1") == 1


def standings_rows(html):
    body = search(r"<table class=\"standings\"[^>]*>.*?<tbody>(.*?)</tbody>", html, re.S).group(1)
    return re.findall(r"<tr[ >].*?</tr>", body, re.S)


@pytest.mark.django_db
def test_standings_page_shows_the_demo_swiss(client, demo):
    html = client.get("/en/events/demo-autumn-open/").content.decode()
    assert "Autumn Open 2026" in html
    assert "FIDE 2026 (C.07, from 1 March 2026)" in html  # the rule set named for people, never by its id
    event = Event.objects.get(slug="demo-autumn-open")
    assert len(standings_rows(html)) == event.entries.count()


@pytest.mark.django_db
def test_standings_columns_follow_the_published_order_with_translated_names(client, demo):
    html = client.get("/en/events/demo-autumn-open/").content.decode()
    headers = re.findall(r'<abbr title="([^"]+)"><bdi>([^<]+)</bdi></abbr>', html)
    assert headers[:3] == [("Buchholz Cut-1", "BH-C1"), ("Buchholz", "BH"), ("Sonneborn-Berger", "SB")]


@pytest.mark.django_db
def test_players_tied_after_every_tiebreak_share_the_place(client, demo):
    snapshot = StandingsSnapshot.objects.get(event__slug="demo-autumn-open")
    ranks = [row["rank"] for row in snapshot.rows]
    shared = [rank for rank in set(ranks) if ranks.count(rank) > 1]
    assert shared, "the demo has a shared place"
    html = client.get("/en/events/demo-autumn-open/").content.decode()
    for rank in shared:
        assert f"{rank}–{rank + ranks.count(rank) - 1}" in html


@pytest.mark.django_db
def test_team_standings_show_match_points_then_game_points(client, demo):
    html = client.get("/en/events/demo-division-1/").content.decode()
    headers = re.findall(r'<abbr title="([^"]+)"><bdi>([^<]+)</bdi></abbr>', html)
    assert headers[:2] == [("Match points", "MP"), ("Game points", "GP")]
    assert "<svg" in html and 'role="img"' in html  # the match-point race


@pytest.mark.django_db
def test_numbers_in_tables_keep_left_to_right_inside_hebrew(client, demo):
    html = client.get("/he/events/demo-autumn-open/").content.decode()
    assert 'dir="rtl"' in html_tag(html)
    cells = re.findall(r'<td dir="ltr">', html)
    assert len(cells) >= 11
    # a left-to-right page: its cells inherit the page's direction, so the numbers read the same without it
    english = client.get("/en/events/demo-autumn-open/").content.decode()
    assert 'dir="ltr"' in html_tag(english) and 'dir="rtl"' not in english
    assert len(re.findall(r"<td>", english)) >= 11


@pytest.mark.django_db
def test_swiss_crosstable_is_a_wallchart_with_colours(client, demo):
    html = client.get("/en/events/demo-autumn-open/crosstable/").content.decode()
    assert 'class="crosstable wallchart"' in html
    assert "colour-w" in html and "colour-b" in html


def wallchart_row(html, entry):
    """The wallchart row of one entry (its name cell links to its page)."""
    return next(row for row in html.split("<tr>") if f'players/{entry.start_number}/"><bdi>{entry.name}<' in row)


@pytest.mark.django_db
def test_wallchart_cells_show_the_forfeit_and_the_byes_of_each_row(client, demo):
    """Read across a player's row: a forfeit is + for the winner and − for the one who did not come, each
    linked to the opponent; a bye has no opponent, only its kind (a half-point bye ½, a pairing-allocated +)."""
    html = client.get("/en/events/demo-autumn-open/crosstable/").content.decode()
    forfeit = Game.objects.select_related("white__player", "black__player").get(
        round__event__slug="demo-autumn-open", result=Result.BLACK_WINS_FORFEIT
    )
    white, black = forfeit.white, forfeit.black
    # the link's accessible name says whom and which round, not only the start number it shows
    link = (
        '<a href="/en/events/demo-autumn-open/players/{0.start_number}/" title="{0.name}"'
        ' aria-label="{0.start_number} {0.name}, round {1}">{0.start_number}</a>'
    )
    number = forfeit.round.number
    assert link.format(black, number) + '<span class="colour colour-w" title="White">w</span>−' in wallchart_row(
        html, white
    )
    assert link.format(white, number) + '<span class="colour colour-b" title="Black">b</span>+' in wallchart_row(
        html, black
    )
    for result, shown in (
        (Result.HALF_POINT_BYE, 'half-point bye"><bdi dir="ltr">bye ½'),
        (Result.PAIRING_BYE, 'pairing-allocated bye"><bdi dir="ltr">bye +'),
    ):
        bye = Game.objects.select_related("white__player").filter(round__event__slug="demo-autumn-open", result=result)
        assert f'<span title="{shown}</bdi></span>' in wallchart_row(html, present(bye.first()).white)


@pytest.mark.django_db
def test_team_round_shows_match_cards_with_boards(client, demo):
    html = client.get("/en/events/demo-division-1/rounds/1/").content.decode()
    assert html.count('class="match-card"') == 2
    assert "Board" in html


@pytest.mark.django_db
def test_club_page_lists_its_team_and_players(client, demo):
    html = client.get("/en/clubs/oslo-sk/").content.decode()
    assert "Oslo Sjakkselskap 1" in html
    assert "Hansen, Ingrid" in html


@pytest.mark.django_db
def test_season_page_lists_its_division_and_events(client, demo):
    html = client.get("/en/leagues/demo-league/seasons/2026/").content.decode()
    assert "Division 1" in html and "Autumn Open 2026" in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/en/events/no-such-event/",
        "/en/events/no-such-event/crosstable/",
        "/en/events/demo-autumn-open/players/999/",
        "/en/events/demo-autumn-open/rounds/99/",
        "/en/events/demo-autumn-open/teams/1/",
        "/en/events/demo-autumn-open/why/?a=1&b=999",
        "/en/clubs/no-such-club/",
        "/en/leagues/demo-league/seasons/1999/",
        "/en/tiebreaks/no-such-guide/",
    ],
)
def test_unknown_things_are_404(client, demo, url):
    assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_draft_events_are_not_public(client, demo):
    Event.objects.filter(slug="demo-autumn-open").update(status=Event.Status.DRAFT)
    try:
        assert client.get("/en/events/demo-autumn-open/").status_code == 404
        assert client.get("/en/events/demo-autumn-open/players/1/").status_code == 404
    finally:
        Event.objects.filter(slug="demo-autumn-open").update(status=Event.Status.PUBLISHED)


def test_root_redirects_to_a_language(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == "/en/"


@pytest.mark.django_db
def test_standings_say_being_updated_while_results_are_newer(client, demo):
    url = "/en/events/demo-autumn-open/"
    assert "Being updated" not in client.get(url).content.decode()
    version = Event.objects.get(slug="demo-autumn-open").results_version
    Event.objects.filter(slug="demo-autumn-open").update(results_version=999)
    from leagues.page_cache import event_pages_changed

    event_pages_changed(slug="demo-autumn-open")  # what the result service does after its commit
    try:
        assert "Being updated" in client.get(url).content.decode()
    finally:
        Event.objects.filter(slug="demo-autumn-open").update(results_version=version)


@pytest.mark.django_db
def test_pages_read_the_snapshot_and_never_run_the_engine(client, demo, monkeypatch):
    import tiebreaks.engine.ranking

    def forbidden(*args, **kwargs):
        raise AssertionError("the engine ran on a request")

    monkeypatch.setattr(tiebreaks.engine.ranking, "_compute_standings", forbidden)
    for url in [
        "/en/events/demo-autumn-open/",
        "/en/events/demo-autumn-open/players/1/",
        "/en/events/demo-autumn-open/why/?a=1&b=2",
        "/en/events/demo-autumn-open/crosstable/",
    ]:
        assert client.get(url).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_statistics_of_the_demo_division(client, demo, lang):
    from leagues.models import Game

    response = client.get(f"/{lang}/events/demo-division-1/boards/")
    assert response.status_code == 200
    html = response.content.decode()
    board_one = Game.objects.filter(round__event__slug="demo-division-1", board=1).exclude(result="").first()
    assert board_one is not None
    assert board_one.white_player is not None
    assert board_one.white_player.name in html
    assert client.get(f"/{lang}/events/demo-autumn-open/boards/").status_code == 404


@pytest.mark.django_db
def test_standings_csv_names_the_rule_set_and_matches_the_snapshot(client, demo):
    import csv

    from leagues.models import StandingsSnapshot

    response = client.get("/en/events/demo-autumn-open/standings.csv")
    assert response["Content-Type"].startswith("text/csv")
    first, *rest = response.content.decode().splitlines()
    assert "rule set: fide-2026" in first and "criteria: BH/C1, BH, SB" in first
    rows = list(csv.reader(rest))
    assert rows[0] == ["rank", "start_number", "name", "points", "BH/C1", "BH", "SB", "withdrawn_after_round"]
    snapshot = StandingsSnapshot.objects.get(event__slug="demo-autumn-open")
    assert [int(r[1]) for r in rows[1:]] == [row["start_number"] for row in snapshot.rows]
