"""The guides and the calculator as a reader uses them: the FIDE / US Chess comparison computed by the
engine, the calculator without JavaScript plus its live result region, and the GET language switcher."""

import re

import pytest

from tests.helpers import present, search, section, text_of

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------- FIDE vs US Chess


def test_fide_vs_us_chess_guide_computes_the_us_values(client):
    html = client.get("/en/tiebreaks/fide-vs-us-chess/").content.decode()
    text = text_of(html).replace(" :", ":")
    # 4.5 of 5, half-point bye in round 3, opponents 3.5, 3, 2.5, 2 (all from games).
    # FIDE 2026: dummy min(4.5, ½ × 5) = 2.5, BH 13.5; FIDE 2023: dummy 4.5, BH 15.5.
    # US Chess: the bye is an opponent with 0: Solkoff 11; plus score, MM drops the 0: 11;
    # Median drops the 0 and the 3.5: 7.5. Chess Caddy leaves the bye out: BH 11.
    assert "US Chess rule 34: Solk 11 · MM 11 · Med 7.5" in text
    assert "FIDE 2026 (C.07, from 1 March 2026): BH 13.5 · BH-C1 11 · BH-M1 7.5" in text
    assert "FIDE 2023 (C.07, September 2023 to February 2026): BH 15.5" in text
    assert "Chess Caddy app (Buchholz, Sonneborn-Berger, cumulative; not FIDE rules): BH 11" in text
    assert "so Buchholz is 13.5" in text and "Solkoff is 11" in text
    mm = section(html, "Modified Median")
    assert "Modified Median: 11" in mm
    assert "Round 3 was not played: it counts as an opponent with a score of 0." in mm
    assert "4.5 of a possible 5 is a plus score (above half), so the lowest opponent is dropped" in mm
    assert "FIDE C.07" not in mm
    median = section(html, "Median (Harkness)")
    assert "Median (Harkness): 7.5" in median and "34E4" in median
    assert "3 + 2.5 + 2 = 7.5" in median


def test_fide_vs_us_chess_guide_follows_the_engine(client, monkeypatch):
    import tiebreaks.examples

    monkeypatch.setattr(tiebreaks.examples, "RULE_SET_CANDIDATES", ["BH", "SOLK", "MM"])
    text = text_of(client.get("/en/tiebreaks/fide-vs-us-chess/").content.decode()).replace(" :", ":")
    assert "US Chess rule 34: Solk 11 · MM 11" in text
    assert "Med 7.5" not in text


# -------------------------------------------------------------------------------------- calculator

QUERY = "rounds=3&kind_1=win&opponent_1=2&kind_2=hpb&opponent_2=&kind_3=draw&opponent_3=2"


def test_calculator_works_without_javascript(client):
    html = client.get(f"/en/tiebreaks/calculator/?{QUERY}").content.decode()
    # the plain GET form with its submit button; the script only enhances it
    assert re.search(r'<form method="get" class="calculator"', html)
    assert '<button type="submit" class="primary">Calculate</button>' in html
    assert re.search(r'<script src="/static/calculator\.js" defer></script>', html)
    region = search(r'<div id="calculator-result".*?</section>\s*</div>', html, re.S).group(0)
    text = text_of(region)
    # by hand: 1 + ½ + ½ = 2; BH = 2 + min(2, ½ × 3) + 2 = 5.5 (16.4.2)
    assert "Your score: 2" in text
    assert "Buchholz: 5.5" in text and "16.4.2" in text


def test_calculator_result_region_says_what_is_missing_while_typing(client):
    html = client.get("/en/tiebreaks/calculator/?rounds=2&kind_1=win&opponent_1=1&kind_2=&opponent_2=").content
    region = search(r'<div id="calculator-result".*?</div>', html.decode(), re.S).group(0)
    assert "The values appear as soon as every round is filled in correctly." in text_of(region)
    assert 'aria-live="polite"' in region


def test_calculator_script_is_served_and_needs_nothing_external(client):
    from django.contrib.staticfiles import finders

    script = open(present(finders.find("calculator.js")), encoding="utf-8").read()
    assert "fetch(" in script and "calculator-result" not in script  # the region is named by the form
    assert "http://" not in script and "https://" not in script and "import " not in script


# ------------------------------------------------------------------------------- language switcher


def test_language_switcher_is_a_get_form_without_csrf_token(client, bye_event):
    html = client.get("/en/events/bye-cup/").content.decode()
    form = search(r'<form class="language".*?</form>', html, re.S).group(0)
    assert 'method="get"' in form and 'action="/lang/"' in form
    assert 'id="language-select"' in form and '<button type="submit">' in form and "<noscript>" not in form
    assert "csrfmiddlewaretoken" not in html
    assert 'name="next" type="hidden" value="/en/events/bye-cup/"' in form


@pytest.mark.parametrize(
    ("query", "target"),
    [
        ("language=he&next=/en/events/bye-cup/crosstable/", "/he/events/bye-cup/crosstable/"),
        ("language=nb&next=/he/events/bye-cup/why/%3Fa%3D1%26b%3D3", "/nb/events/bye-cup/why/?a=1&b=3"),
        ("language=el&next=/", "/el/"),
        ("language=tr&next=https://evil.example/en/", "/tr/"),
        ("language=tr&next=//evil.example/en/", "/tr/"),
        ("language=xx&next=/en/events/bye-cup/", "/en/events/bye-cup/"),
    ],
)
def test_language_view_redirects_to_the_same_page_in_the_new_language(client, query, target):
    response = client.get(f"/lang/?{query}")
    assert response.status_code == 302
    assert response["Location"] == target


def test_language_switch_lands_on_the_page_in_that_language(client, bye_event):
    response = client.get("/lang/?language=he&next=/en/events/bye-cup/", follow=True)
    assert response.redirect_chain[-1][0] == "/he/events/bye-cup/"
    html = response.content.decode()
    assert 'lang="he"' in html and 'dir="rtl"' in html
