"""Hebrew prize sentences keep names, ranges and amounts in order when displayed right to left: the visual
order is computed by an independent UAX #9 implementation (python-bidi), as a browser lays out <bdi>."""

import re

from bidi import get_display
from django.utils import translation

from leagues.prize_sentences import line_sentence
from tests.paths import REPO
from tiebreaks.bidi import as_html, isolate

TIED = {"places": [3, 4], "names": ["Öztürk, Ayşe", "Kaya, Mehmet"], "prizes": [[3, 20000], [4, 10000]], "share": 15000}


def shown_in_hebrew(code, params, isolated):
    with translation.override("he"):
        sentence = line_sentence(code, params, "GBP", isolated)
    return get_display(sentence, base_dir="R")  # the page is dir="rtl"


def test_hebrew_shared_places_keep_the_range_names_and_amounts_in_order():
    shown = shown_in_hebrew("places_shared_pooled", TIED, isolated=True)
    assert "3–4" in shown and "4–3" not in shown
    assert "Kaya, Mehmet" in shown and "Öztürk, Ayşe" in shown
    assert "£200 + £100" in shown and "£150" in shown
    # right to left: the names come first (on the right), then the pooled prizes, then each one's share
    assert shown.index("£150") < shown.index("£200 + £100") < shown.index("Kaya, Mehmet")


def test_without_isolation_the_hebrew_range_and_amounts_display_reversed():
    shown = shown_in_hebrew("places_shared_pooled", TIED, isolated=False)
    assert "4–3" in shown or "£100 + £200" in shown


def test_hebrew_category_ranks_and_a_single_place_keep_their_order():
    ranks = {**TIED, "category": "U1800", "ranks": [2, 3]}
    shown = shown_in_hebrew("category_shared_pooled", ranks, isolated=True)
    assert "2–3" in shown and "£200 + £100" in shown
    place = shown_in_hebrew("place_prize", {"places": [1], "names": ["Kaya, Mehmet"], "share": 20000}, isolated=True)
    assert "Kaya, Mehmet" in place and "£200" in place


def test_the_page_shows_isolates_as_bdi_and_escapes_the_rest():
    with translation.override("he"):
        sentence = line_sentence("places_shared_pooled", {**TIED, "names": ["<b>Kaya</b>", "Bo"]}, "GBP", True)
    html = as_html(sentence)
    assert '<bdi dir="ltr">3–4</bdi>' in html and "<bdi>&lt;b&gt;Kaya&lt;/b&gt;</bdi>" in html
    assert "<bdi>£200 + £100</bdi>" in html and "\u2068" not in html


def test_no_catalogue_carries_a_bidi_control_character():
    """Directions come from the page's <bdi> elements, never from invisible marks in a translation."""
    controls = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
    found = [
        f"{path.relative_to(REPO)}:{number}: {line!a}"
        for path in sorted((REPO / "locale").glob("*/LC_MESSAGES/*.po"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if controls.search(line)
    ]
    assert not found, "\n".join(found)


def test_an_isolate_cannot_be_closed_early_by_a_name():
    """A name typed with a pop-isolate character still shows as one balanced <bdi>."""
    html = as_html(isolate("Kaya\u2069</bdi>\u202e, Mehmet"))
    assert html == "<bdi>Kaya&lt;/bdi&gt;, Mehmet</bdi>"
