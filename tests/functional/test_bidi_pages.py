"""Hebrew pages show names, ranges, amounts and sums in prize and explanation sentences in the order a
reader expects: the visual line of each sentence is computed from the page's HTML by an independent
UAX #9 implementation (python-bidi), taking every <bdi> as the isolate HTML makes of it."""

import html as html_lib
import re

import pytest
from bidi import get_display
from rest_framework.test import APIClient

from leagues.services.prizes import prizes_recompute
from tests.helpers import fund_with, player, search, snapshot_event

pytestmark = pytest.mark.django_db

# HTML's rendering of <bdi> (the HTML standard, "bidirectional text"): an isolate; dir="auto" or no dir
# is a first-strong isolate
ISOLATES = {"ltr": "\u2066", "rtl": "\u2067", "auto": "\u2068", None: "\u2068"}
PDI = "\u2069"


def logical(fragment, isolates=True):
    """The text of an HTML fragment as UAX #9 reads it: each <bdi> an isolate, other tags dropped."""
    text = re.sub(r'<bdi(?: dir="(ltr|rtl|auto)")?[^>]*>', lambda m: ISOLATES[m.group(1)] if isolates else "", fragment)
    text = text.replace("</bdi>", PDI if isolates else "")
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", "", text))).strip()


def shown(fragment, isolates=True):
    """The sentence as a right-to-left page (dir="rtl") displays it, left to right on the screen."""
    return re.sub("[\u2066-\u2069]", "", get_display(logical(fragment, isolates), base_dir="R"))  # marks are unseen


def prize_lines(client, event):
    content = client.get(f"/he/events/{event.slug}/prizes/").content.decode()
    assert 'dir="rtl"' in content
    lines: dict = {}
    for code, line in re.findall(r'<li data-code="([a-z0-9_]+)">(.*?)</li>', content, re.S):
        lines.setdefault(code, line)  # the first line of each kind
    return lines


@pytest.fixture
def shared_third(db):
    """Places 3 and 4 tied: Öztürk and Kaya pool £200 + £100, £150 each; Kaya alone wins place 1."""
    event, snapshot = snapshot_event(
        [
            player("Kaya, Mehmet", 5, {"BH/C1": 14}),
            player("Berg, Magnus", 4.5, {"BH/C1": 13}),
            player("Öztürk, Ayşe", 4, {"BH/C1": 12}),
            player("Moe, Eirik", 4, {"BH/C1": 11}),
        ]
    )
    fund_with(event, places=[(1, 50000), (2, 30000), (3, 20000), (4, 10000)])
    prizes_recompute(event.pk, snapshot)
    return event


def test_hebrew_prize_page_shows_the_range_names_and_amounts_in_order(client, shared_third):
    lines = prize_lines(client, shared_third)
    line = shown(lines["places_shared_pooled"])
    assert "3–4" in line and "4–3" not in line
    assert "£200 + £100" in line and "£100 + £200" not in line
    assert "Öztürk, Ayşe" in line and "Moe, Eirik" in line
    # right to left: the range first (rightmost), then the names, the pooled prizes, each one's share
    assert line.index("£150") < line.index("£200 + £100") < line.index("Moe, Eirik") < line.index("3–4")


def test_hebrew_prize_page_puts_a_latin_name_before_its_amount(client, shared_third):
    line = shown(prize_lines(client, shared_third)["place_prize"])
    assert "Kaya, Mehmet" in line and "£500" in line
    assert line.index("£500") < line.index("Kaya, Mehmet")  # the name is read first, on the right


def test_without_the_isolates_the_same_hebrew_line_displays_out_of_order(client, shared_third):
    """The check above can fail: the page's sentence with its <bdi> elements dropped reads wrongly."""
    line = shown(prize_lines(client, shared_third)["places_shared_pooled"], isolates=False)
    assert "4–3" in line or "£100 + £200" in line


def explanation(client, path, title):
    content = client.get(path).content.decode()
    for block in re.findall(r'<section class="explained".*?</section>', content, re.S):
        if title in search(r"<h3>(.*?)</h3>", block, re.S).group(1):
            return block
    raise AssertionError(f"no explanation of {title} on {path}")


def test_hebrew_explanation_keeps_names_values_and_the_sum_in_order(client, bye_event):
    block = explanation(client, "/he/events/bye-cup/players/1/", "BH</bdi>")
    elements = re.findall(r'<span class="element-text">(.*?)</span>', block, re.S)
    first = shown(elements[0])  # round 1: Bakke, Kari, final score 1.5
    assert "Bakke, Kari" in first
    assert first.index("1.5") < first.index("Bakke, Kari") < first.rindex("1")  # the round on the right
    arithmetic = shown(search(r'<p class="arithmetic">(.*?)</p>', block, re.S).group(1))
    assert arithmetic == "1.5 + 1 + 1.5 = 4"
    assert shown(search(r'<p class="arithmetic">(.*?)</p>', block, re.S).group(1), isolates=False) != arithmetic


def test_hebrew_why_page_keeps_each_name_with_its_value(client, bye_event):
    content = client.get("/he/events/bye-cup/why/?a=2&b=4").content.decode()
    line = shown(search(r'<p class="answer">(.*?)</p>', content, re.S).group(1))
    assert "Bakke, Kari" in line and "Eide, Liv" in line
    # right to left: the criterion, then Bakke with 4, then Eide with 3
    assert line.index("3") < line.index("Eide, Liv") < line.index("4") < line.index("Bakke, Kari")


def test_plain_text_outputs_carry_neither_isolates_nor_markup(client, shared_third):
    """The API's prize sentences and the CSV standings are plain text: no <bdi>, no bidi marks."""
    marks = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
    body = APIClient().get(f"/api/v1/events/{shared_third.slug}/prizes/", HTTP_ACCEPT_LANGUAGE="he").json()
    texts = [line["text"] for line in body["lines"]]
    assert any("3–4" in text and "Öztürk, Ayşe" in text for text in texts)
    assert not [text for text in texts if marks.search(text) or "<" in text]
    csv = client.get(f"/he/events/{shared_third.slug}/standings.csv").content.decode()
    assert "Öztürk, Ayşe" in csv and not marks.search(csv) and "<bdi" not in csv
