"""Explained values a reader can check by hand: the player page, "why is A above B", guides, calculator."""

import re

import pytest
from django.utils import translation

from tests.helpers import search, section, text_of
from tiebreaks.explanations import explain_trace

pytestmark = pytest.mark.django_db


def test_player_page_explains_a_bye_capped_at_half_the_rounds(client, bye_event):
    html = client.get("/en/events/bye-cup/players/1/").content.decode()
    bh = section(html, "Buchholz:")
    assert "Buchholz: 4" in bh
    # the dummy: own score 2.5 capped at 0.5 x 3 rounds = 1.5, and the article that says so
    assert "own score, 2.5, capped at half a point per round: 1.5" in bh
    assert "16.4.2" in bh
    assert "Bakke, Kari, final score 1.5" in bh  # a real opponent and where the number came from
    assert "1.5 + 1 + 1.5 = 4" in bh


def test_player_page_says_which_element_the_cut_removed_and_why(client, bye_event):
    html = client.get("/en/events/bye-cup/players/1/").content.decode()
    cut = section(html, "Buchholz Cut-1")
    assert "Buchholz Cut-1: 2.5" in cut
    assert "voluntary unplayed round" in cut and "16.5" in cut
    assert "1.5 + 1 = 2.5" in cut


def test_player_page_explanations_are_in_the_readers_language(client, bye_event):
    english = client.get("/en/events/bye-cup/players/1/").content.decode()
    assert "16.4.2" in client.get("/he/events/bye-cup/players/1/").content.decode()
    # the Hebrew page is not the English page with another <html lang>
    hebrew = client.get("/he/events/bye-cup/players/1/").content.decode()
    assert 'lang="he"' in hebrew and 'dir="rtl"' in hebrew
    assert english.count("16.4.2") == hebrew.count("16.4.2")


def test_player_page_shows_round_by_round_and_charts(client, bye_event):
    html = client.get("/en/events/bye-cup/players/2/").content.decode()
    text = text_of(html)
    assert "Aas, Per" in text and "Dahl, Ola" in text and "Eide, Liv" in text
    assert html.count("<svg") == 2
    assert "Score after each round" in html


def test_why_names_the_criterion_that_separated_two_players(client, bye_event):
    html = client.get("/en/events/bye-cup/why/?a=4&b=2").content.decode()
    text = text_of(html)
    assert "Bakke, Kari is listed above Eide, Liv." in text
    assert "Buchholz Cut-1 separates them: Bakke, Kari has 4, Eide, Liv has 3." in text
    decided = search(r'<tr class="decided">(.*?)</tr>', html, re.S).group(1)
    assert "BH-C1" in decided


def test_why_says_when_points_alone_decide(client, bye_event):
    text = text_of(client.get("/en/events/bye-cup/why/?a=1&b=3").content.decode())
    assert "Their points differ: Aas, Per has 2.5, Dahl, Ola has 1." in text
    assert "no tiebreak was needed" in text


def test_why_says_when_nothing_separates_two_players(client, demo):
    from leagues.models import StandingsSnapshot

    snapshot = StandingsSnapshot.objects.get(event__slug="demo-autumn-open")
    ranks = [row["rank"] for row in snapshot.rows]
    a, b = next((r1, r2) for r1, r2 in zip(snapshot.rows, snapshot.rows[1:], strict=False) if r1["rank"] == r2["rank"])
    text = text_of(
        client.get(f"/en/events/demo-autumn-open/why/?a={a['start_number']}&b={b['start_number']}").content.decode()
    )
    assert "Nothing separates" in text
    assert ranks.count(a["rank"]) >= 2


def test_team_page_shows_match_cards_and_board_results(client, demo):
    html = client.get("/en/events/demo-division-1/teams/1/").content.decode()
    assert 'class="match-card"' in html
    assert "½-½" in html or "1-0" in html or "0-1" in html


def test_guides_worked_example_gives_three_different_winners(client):
    html = client.get("/en/tiebreaks/").content.decode()
    winners = re.findall(r'<strong class="winner">([^<]+)</strong>', html)
    # by hand (opponents' final scores): BH Ana 13, Bo 13.5, Cai 12.5; Cut-1 Ana 12, Bo 11.5, Cai 11.5;
    # Median-1 Ana 8, Bo 7.5, Cai 8.5
    assert winners == ["Bo", "Ana", "Cai"]


def test_guides_examples_follow_the_engine_not_typed_numbers(client, monkeypatch):
    import tiebreaks.examples

    monkeypatch.setattr(
        tiebreaks.examples,
        "THREE_PLAYERS",
        [
            ("Ana", [("win", 1), ("win", 1), ("win", 1), ("win", 1), ("loss", 5)]),
            ("Bo", [("win", 4), ("loss", 3), ("win", 2.5), ("win", 2), ("win", 2)]),
            ("Cai", [("win", 3), ("win", 3), ("loss", 3), ("win", 2.5), ("win", 1)]),
        ],
    )
    html = client.get("/en/tiebreaks/").content.decode()
    winners = re.findall(r'<strong class="winner">([^<]+)</strong>', html)
    # by hand: BH Ana 9, Bo 13.5, Cai 12.5; Cut-1 Ana 8, Bo 11.5, Cai 11.5 (shared, listed by start
    # number); Median-1 Ana 3, Bo 7.5, Cai 8.5
    assert winners == ["Bo", "Bo", "Cai"]


def test_bye_guide_shows_the_2026_cap(client):
    text = text_of(client.get("/en/tiebreaks/unplayed-rounds/").content.decode())
    # 4.5 of 5 with a half-point bye in round 3; opponents 3.5, 3, 2.5, 2: dummy min(4.5, 2.5) = 2.5
    assert "Buchholz: 13.5" in text
    assert "Buchholz Cut-1: 11" in text
    assert "capped at half a point per round: 2.5" in text


def calc(client, lang="en", **rounds):
    query = "&".join(f"{k}={v}" for k, v in rounds.items())
    return client.get(f"/{lang}/tiebreaks/calculator/?{query}")


def test_calculator_derives_the_score_and_explains_the_values(client):
    response = calc(
        client,
        rounds=5,
        kind_1="win",
        opponent_1="3.5",
        kind_2="win",
        opponent_2="3",
        kind_3="hpb",
        opponent_3="",
        kind_4="win",
        opponent_4="2.5",
        kind_5="win",
        opponent_5="2",
    )
    html = response.content.decode()
    text = text_of(html)
    assert "Your score: 4.5" in text
    assert "Buchholz: 13.5" in text  # by hand: 3.5 + 3 + 2.5 (capped dummy) + 2.5 + 2
    assert "Buchholz Cut-1: 11" in text
    assert "Sonneborn-Berger: 12.25" in text  # 3.5 + 3 + 2.5 x 0.5 + 2.5 + 2
    assert "16.4.2" in text


def test_calculator_forfeit_win_is_capped_at_the_no_shows_score(client):
    text = text_of(
        calc(
            client,
            rounds=5,
            kind_1="forfeit_win",
            opponent_1="1.5",
            kind_2="win",
            opponent_2="3.5",
            kind_3="win",
            opponent_3="3",
            kind_4="loss",
            opponent_4="4",
            kind_5="win",
            opponent_5="2.5",
        ).content.decode()
    )
    assert "Your score: 4 " in text
    assert "Buchholz: 14.5" in text and "16.4.1" in text


@pytest.mark.parametrize(
    ("rounds", "field", "message"),
    [
        ({"kind_1": "win", "opponent_1": ""}, "opponent_1", "Enter the opponent's final score"),
        ({"kind_1": "win", "opponent_1": "abc"}, "opponent_1", "Enter a number"),
        ({"kind_1": "win", "opponent_1": "1.3"}, "opponent_1", "half points"),
        ({"kind_1": "win", "opponent_1": "-1"}, "opponent_1", "cannot be negative"),
        ({"kind_1": "win", "opponent_1": "9"}, "opponent_1", "cannot score more than 2"),
        ({"kind_1": "loss", "opponent_1": "0"}, "opponent_1", "at least 1"),
        ({"kind_1": "hpb", "opponent_1": "2"}, "opponent_1", "A bye has no opponent"),
        ({"kind_1": "", "opponent_1": ""}, "kind_1", "Choose what happened in round 1"),
        ({"kind_1": "nonsense", "opponent_1": ""}, "kind_1", "Select a valid choice"),
    ],
)
def test_calculator_explains_each_invalid_field(client, rounds, field, message):
    response = calc(client, rounds=2, kind_2="draw", opponent_2="1", **rounds)
    assert response.status_code == 200
    html = response.content.decode()
    errors = re.findall(rf'id="id_{field}_error">([^<]*)<', html)
    assert errors and message in errors[0].replace("&#x27;", "'")
    # screen readers: the field says it is invalid and points at its message
    field_tag = search(rf'<(?:input|select)[^>]*id="id_{field}"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in field_tag and f'aria-describedby="id_{field}_error"' in field_tag
    assert "Your score" not in html


def test_calculator_without_input_shows_an_empty_form(client):
    html = calc(client).content.decode()
    assert 'name="kind_1"' in html and "field-error" not in html


def test_explanation_module_turns_reason_codes_into_sentences():
    trace = {
        "criterion": "BH/C1",
        "value": 2.5,
        "total": 2.5,
        "divisor": None,
        "rounding": None,
        "reason": None,
        "details": {"own_score": 2.5, "dummy_bye_cap": 1.5},
        "elements": [
            {
                "round": 1,
                "opponent": 7,
                "dummy": False,
                "value": 1.5,
                "points": 1,
                "contribution": 1.5,
                "reason": "actual_score",
                "article": "8.1",
                "vur": False,
                "removed": None,
                "adjustments": [],
            },
            {
                "round": 2,
                "opponent": None,
                "dummy": True,
                "value": 1.5,
                "points": 0.5,
                "contribution": 1.5,
                "reason": "dummy_cap_half_rounds",
                "article": "16.4.2",
                "vur": True,
                "removed": "cut_vur_first",
                "adjustments": [],
            },
            {
                "round": 3,
                "opponent": 8,
                "dummy": False,
                "value": 1,
                "points": 0,
                "contribution": 1,
                "reason": "actual_score",
                "article": "8.1",
                "vur": False,
                "removed": None,
                "adjustments": [],
            },
        ],
    }
    with translation.override("en"):
        explained = explain_trace(trace, name_of={7: "Moe, Eirik"})
    assert explained.name.long == "Buchholz Cut-1"
    assert explained.elements[0].text == "Round 1: Moe, Eirik, final score 1.5."
    assert "16.5" in explained.elements[1].removed and not explained.elements[1].kept
    assert explained.arithmetic == "1.5 + 1 = 2.5"  # the removed dummy is not a term


def test_calculator_keeps_what_was_typed_when_the_number_of_rounds_changes(client):
    html = calc(client, rounds=4, resize=1, kind_1="draw", opponent_1="2.5").content.decode()
    assert html.count('name="kind_') == 4
    assert re.search(r'<option value="draw" selected>', html)
    assert 'value="2.5"' in html
    assert "field-error" not in html and "Your score" not in html


@pytest.mark.parametrize("lang", ["en", "el", "he"])
@pytest.mark.parametrize("page", ["/events/bye-cup/", "/events/bye-cup/players/1/"])
def test_the_rule_set_is_named_as_readers_know_it_never_by_its_id(client, bye_event, lang, page):
    text = text_of(client.get(f"/{lang}{page}").content.decode())
    with translation.override(lang):
        name = translation.gettext("FIDE 2026 (C.07, from 1 March 2026)")
    assert name in text
    assert "fide-2026" not in text
