"""Issue #31 (FIDE's 2026 checklist, ratings per round): a league whose season sees two rating lists.

Four players of a three-round league (one game a month). The September list gives A 1800, B 1600, C 1500,
D 1400; the November list (1 November, before round 3 on 10 November) gives B 1700 and D 1450. A meets D,
C and B (round 3); C meets B, A and D (round 3).

By hand (as tests/unit/engine/test_ratings_per_round.py): A's ARO with the first ratings, FIDE's rule unless the
regulations say otherwise, is (1400 + 1500 + 1600) / 3 = 1500; with the rating of each round
(1400 + 1500 + 1700) / 3 = 1533.33 -> 1533, and TPR 1533 + 273 (2½ of 3 = 83 %) = 1806. C's ARO: 1600 first,
(1600 + 1800 + 1450) / 3 = 1617 per round.
"""

import datetime
import re

import pytest
from rest_framework.test import APIClient

from leagues.models import EntryRating, Event, Result, SetupChange
from leagues.services.entries import entry_register
from leagues.services.fide_check import event_fide_check
from leagues.services.tokens import api_token_create
from leagues.services.trf import event_export_trf, event_import_trf
from pairings.fide_tools import fide_tiebreaks
from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of
from tests.functional.conftest import publish_results, record
from tests.helpers import present, search, section, text_of
from tiebreaks.trf import read_trf

pytestmark = pytest.mark.django_db

NOVEMBER_LIST = "FIDE id;name;rating\n1500010;A, Anna;1800\n1500029;B, Bjorn;1700\n1500037;C, Cato;1500\n"
NOVEMBER_LIST += "1500045;D, Dina;1450\n1500053;Z, Nobody;2000\n"


@pytest.fixture
def league():
    event = EventFactory(
        name="Winter League",
        slug="winter-league",
        rounds_count=3,
        system=Event.System.ROUND_ROBIN,
        starts_on=datetime.date(2026, 9, 10),
        tiebreak_criteria=["ARO", "TPR"],
    )
    entries = {}
    for number, (label, name, fide_id, rating) in enumerate(
        [
            ("A", "A, Anna", 1500010, 1800),
            ("B", "B, Bjorn", 1500029, 1600),
            ("C", "C, Cato", 1500037, 1500),
            ("D", "D, Dina", 1500045, 1400),
        ],
        start=1,
    ):
        player = PlayerFactory(name=name, fide_id=fide_id, rating=rating)
        event.league.players.add(player)
        entries[label] = EntryFactory(event=event, start_number=number, player=player, rating=rating)
    a, b, c, d = (entries[x] for x in "ABCD")
    record(event, 1, 1, a, d, Result.WHITE_WINS)
    record(event, 1, 2, b, c, Result.DRAW)
    record(event, 2, 1, c, a, Result.BLACK_WINS)
    record(event, 2, 2, d, b, Result.BLACK_WINS)
    record(event, 3, 1, a, b, Result.DRAW)
    record(event, 3, 2, c, d, Result.WHITE_WINS)
    for number, day in (
        (1, datetime.date(2026, 9, 10)),
        (2, datetime.date(2026, 10, 10)),
        (3, datetime.date(2026, 11, 10)),
    ):
        event.rounds.filter(number=number).update(date=day)
    return event


def refresh(client, event):
    """The organiser reads the November list on the event's page and confirms it (the round from the date)."""
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/entries/ratings/"
    preview = client.post(url, {"action": "preview", "players": NOVEMBER_LIST, "list_date": "2026-11-01"})
    assert preview.status_code == 200
    shown = text_of(preview.content.decode())
    assert "2 ratings change from round 3; 2 stay; 1 lines name no player of the event." in shown
    assert "B, Bjorn 1600 1700" in shown and "D, Dina 1400 1450" in shown
    assert not EntryRating.objects.exists()  # nothing saved before the confirmation
    content = search(r'name="content" value="([^"]+)"', preview.content.decode()).group(1)
    done = client.post(url, {"action": "confirm", "content": content, "from_round": "3", "list_date": "2026-11-01"})
    assert done.status_code == 302
    return event


def player_page(client, event, number):
    return client.get(f"/en/events/{event.slug}/players/{number}/").content.decode()


def test_a_newer_list_gives_ratings_from_the_round_after_its_date(client, league):
    refresh(client, league)
    newer = {(present(r.entry.player).name, r.from_round, r.rating, r.list_date) for r in EntryRating.objects.all()}
    assert newer == {
        ("B, Bjorn", 3, 1700, datetime.date(2026, 11, 1)),
        ("D, Dina", 3, 1450, datetime.date(2026, 11, 1)),
    }
    assert SetupChange.objects.filter(action=SetupChange.Action.RATED).exists()
    # the same list read again changes nothing more
    without_round = client.post(
        f"/en/manage/events/{league.slug}/entries/ratings/", {"action": "preview", "players": NOVEMBER_LIST}
    )
    assert without_round.status_code == 400
    assert "Name the round the newer ratings apply from, or the list" in text_of(without_round.content.decode())
    again = client.post(
        f"/en/manage/events/{league.slug}/entries/ratings/",
        {"action": "preview", "players": NOVEMBER_LIST, "from_round": "3"},
    )
    assert "0 ratings change from round 3; 4 stay" in text_of(again.content.decode())


def test_a_newer_list_for_round_one_is_refused(client, league):
    client.force_login(organiser_of(league.league))
    response = client.post(
        f"/en/manage/events/{league.slug}/entries/ratings/",
        {"action": "preview", "players": NOVEMBER_LIST, "from_round": "1"},
    )
    assert response.status_code == 400 and not EntryRating.objects.exists()


def test_first_rating_by_default_the_page_shows_each_rounds_rating(client, league):
    refresh(client, league)
    publish_results(league)
    page = player_page(client, league, 1)
    # A's rounds: own rating and the opponent's in each round (B is 1700 in round 3, the November list)
    rows = re.findall(r"<tr>\s*<td class=\"num\"><a[^>]*>.*?</tr>", page, re.S)
    assert [
        (
            text_of(search(r'class="num opt own-rating">(.*?)</td>', r, re.S).group(1)).strip(),
            text_of(search(r'class="num opt opponent-rating">(.*?)</td>', r, re.S).group(1)).strip(),
        )
        for r in rows
    ] == [("1800", "1400"), ("1800", "1500"), ("1800", "1700")]
    aro = section(page, "ARO")
    assert "1500" in aro and "Round 3: B, Bjorn is rated 1600." in aro  # FIDE's rule: the first rating
    standings = client.get(f"/api/v1/events/{league.slug}/standings/").json()
    values = {row["start_number"]: row["values"] for row in standings["rows"]}
    assert values[1]["ARO"] in (1500, "1500") and values[3]["ARO"] in (1600, "1600")
    assert "in the round they met" not in text_of(client.get(f"/en/events/{league.slug}/").content.decode())
    b_page = text_of(player_page(client, league, 2))
    assert "Rating 1700 from round 3 (a newer rating list)" in b_page


def test_rating_of_each_round_when_the_regulations_say_so(client, league):
    refresh(client, league)
    response = client.post(
        f"/en/manage/events/{league.slug}/policy/",
        {"rule_set": "fide-2026", "criteria": "ARO, TPR", "tiebreak_ratings": "round"},
    )
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.tiebreak_ratings == Event.TiebreakRatings.ROUND
    publish_results(league)
    page = player_page(client, league, 1)
    aro = section(page, "ARO")
    assert "Round 3: B, Bjorn was rated 1700 in that round (a newer rating list)." in aro
    assert "1533" in aro
    standings = client.get(f"/api/v1/events/{league.slug}/standings/").json()
    values = {row["start_number"]: row["values"] for row in standings["rows"]}
    assert str(values[1]["ARO"]) == "1533" and str(values[1]["TPR"]) == "1806" and str(values[3]["ARO"]) == "1617"
    shown = text_of(client.get(f"/en/events/{league.slug}/").content.decode())
    assert "read each opponent's rating in the round they met, as the event's regulations say" in shown


def test_the_rating_report_and_its_trf_name_the_newer_ratings(client, league):
    refresh(client, league)
    report = text_of(client.get(f"/en/manage/events/{league.slug}/rating-report/").content.decode())
    assert "Rating method FIDE rating" in report
    assert "Ratings in rating-based tie-breaks the first rating (at the start of the event)" in report
    assert "from round 3: 1700" in report and "from round 3: 1450" in report
    trf = client.get(f"/en/manage/events/{league.slug}/rating-report/report.trf").content.decode()
    assert "### rating from round 3:    2 1700 (list of 2026-11-01)" in trf.splitlines()
    assert {p.start_number: p.rating for p in read_trf(trf).participants}[2] == 1600  # TRF: the rating at start


def test_the_api_sets_the_rating_of_each_round_and_the_rating_method(league):
    api = APIClient()
    _, key = api_token_create(user=organiser_of(league.league), name="settings", scopes=["organiser"])
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    url = f"/api/v1/events/{league.slug}/settings/"
    assert api.get(url).json()["tiebreak_ratings"] == "first"
    locked = api.patch(url, {"tiebreak_ratings": "round", "rating_method": "HBFN"}, format="json")
    assert locked.status_code == 400 and locked.json()["code"] == "fide_mode_locked"  # started: FIDE locks it
    Event.objects.filter(pk=league.pk).update(fide_mode=False)  # out of FIDE mode: a recorded hard warning
    answer = api.patch(url, {"tiebreak_ratings": "round", "rating_method": "HBFN", "reason": "HBFN"}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["tiebreak_ratings"] == "round" and answer.json()["rating_method"] == "HBFN"
    refused = api.patch(url, {"tiebreak_ratings": "latest"}, format="json")
    assert refused.status_code == 400


def test_the_rating_method_chooses_the_registry_rating_of_a_new_entry(client, league):
    player = PlayerFactory(name="E, Emil", rating=1700, rating_national=1850)
    league.league.players.add(player)
    Event.objects.filter(pk=league.pk).update(rating_method=Event.RatingMethod.HBFN, status=Event.Status.DRAFT)
    league.refresh_from_db()
    entry = entry_register(event=league, user=organiser_of(league.league), player=player)
    assert entry.rating == 1850


@pytest.mark.usefixtures("on_commit_runs")  # the check chooses its transaction's isolation level: the fixture lets it
def test_fides_checker_agrees_with_the_first_rating_and_skips_the_rating_of_each_round(client, league):
    """The site's check with FIDE's own tie-break checker (gacrux, one rating per player: the TRF's, at the start)
    compares ARO and TPR under FIDE's rule; under the rating of each round it leaves them out, since the checker
    computes something else, rather than reporting a difference that is the regulations' choice."""
    refresh(client, league)
    publish_results(league)
    first = event_fide_check(event_id=league.pk)
    assert first is not None and first.tiebreaks_ok is True  # ARO 1500 / TPR 1773 for A, as the checker says
    Event.objects.filter(pk=league.pk).update(tiebreak_ratings=Event.TiebreakRatings.ROUND)
    league.refresh_from_db()
    publish_results(league)
    per_round = event_fide_check(event_id=league.pk)
    assert per_round is not None and per_round.tiebreaks_ok is True
    assert not [d for d in per_round.differences if d.get("criterion") in ("ARO", "TPR")]
    # what the checker computes from the export is the first rating's value, not the site's 1533
    fide = fide_tiebreaks(
        event_export_trf(event=league), ["PTS", "ARO"], rounds=3, rule_set="fide-2026", round_robin=True
    )
    site = {row["start_number"]: row["values"]["ARO"] for row in league.snapshot.rows}
    assert (fide[1][1], site[1]) == (1500, 1533)


def test_the_sites_trf_keeps_the_newer_ratings_through_export_and_import(client, league):
    """TRF-26 holds one rating per player: the export writes the first rating in the 001 records and the newer
    ones (and the regulations' choice) in ``###`` lines, which the site's import reads back."""
    refresh(client, league)
    Event.objects.filter(pk=league.pk).update(tiebreak_ratings=Event.TiebreakRatings.ROUND)
    league.refresh_from_db()
    exported = event_export_trf(event=league)
    assert "### rating-based tie-breaks: rating of each round" in exported.splitlines()
    copy = event_import_trf(
        league=league.league,
        name="Winter League (copy)",
        slug="winter-league-copy",
        data=exported.encode(),
        user=organiser_of(league.league),
        start_date="2026-09-10",
    )
    assert copy.tiebreak_ratings == Event.TiebreakRatings.ROUND
    newer = {
        (r.entry.start_number, r.from_round, r.rating, r.list_date)
        for r in EntryRating.objects.filter(entry__event=copy)
    }
    assert newer == {(2, 3, 1700, datetime.date(2026, 11, 1)), (4, 3, 1450, datetime.date(2026, 11, 1))}
    assert {e.start_number: e.rating for e in copy.entries.all()} == {1: 1800, 2: 1600, 3: 1500, 4: 1400}


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_the_rating_guide_says_which_rating_counts_when_a_new_list_appears(client, lang):
    shown = text_of(client.get(f"/{lang}/tiebreaks/rating/").content.decode())
    expected = {
        "en": "FIDE uses each player's first rating, the one at the start, unless the event's regulations say",
        "nb": "bruker FIDE hver spillers første rating, den ved start, med mindre turneringens reglement",
    }
    assert expected[lang] in shown


def test_the_api_previews_and_saves_a_newer_rating_list(league):
    api = APIClient()
    _, key = api_token_create(user=organiser_of(league.league), name="ratings", scopes=["organiser"])
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    url = f"/api/v1/events/{league.slug}/ratings-list/"
    preview = api.post(url, {"content": NOVEMBER_LIST, "list_date": "2026-11-01"}, format="json")
    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert (body["ok"], body["confirmed"], body["from_round"], body["unchanged"], body["not_entered"]) == (
        True,
        False,
        3,
        2,
        1,
    )
    assert [(c["start_number"], c["before"], c["after"]) for c in body["changes"]] == [(2, 1600, 1700), (4, 1400, 1450)]
    assert not EntryRating.objects.exists()
    refused = api.post(url, {"content": NOVEMBER_LIST}, format="json")  # neither a round nor the list's date
    assert refused.status_code == 400 and not EntryRating.objects.exists()
    done = api.post(url, {"content": NOVEMBER_LIST, "from_round": 3, "confirm": True}, format="json")
    assert done.status_code == 200 and done.json()["confirmed"] is True
    assert sorted(EntryRating.objects.values_list("entry__start_number", "from_round", "rating")) == [
        (2, 3, 1700),
        (4, 3, 1450),
    ]
