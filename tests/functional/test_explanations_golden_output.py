"""The explanations read exactly as they did when the traces were stored as one dict per element (issue #37):
for golden tournaments with pairing-allocated, half-point and zero-point byes, forfeits, a withdrawal and a round
robin, under FIDE 2026 and US Chess, every player page's explained criteria (English, and one page in Hebrew), the
"why is A above B" page, and the API's standings with `explain=1` are compared with what they showed before the
traces were stored in their compact form (tests/functional/data/explanations/, captured from the old storage).

GOLDEN_WRITE=1 rewrites the captured outputs (only when a change of the pages is meant)."""

import json
import os
import re

import pytest
from django.db.models import F

from leagues.models import Event, StandingsSnapshot
from leagues.recompute import standings_recompute_event
from leagues.services.trf import event_import_trf
from tests.factories import LeagueFactory, organiser_of
from tests.helpers import text_of
from tests.paths import GOLDEN, TESTS
from tiebreaks.engine.compact import is_compact

CAPTURED = TESTS / "functional" / "data" / "explanations"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

CASES = {
    "swiss-byes": (
        "swiss-p012-r06-s01005.json",
        "fide-2026",
        [
            "BH/C1",
            "BH",
            "SB",
            "PS",
            "WIN",
            "FB",
            "AOB",
            "ARO",
            "BH/M1",
            "SB/C1",
            "KS",
            "STD",
            "REP",
            "BPG",
            "BWG",
            "WON",
            "TPR",
            "DE",
            "BH/P",
            "PS/C1",
            "TPN",
            "APRO",
        ],
    ),
    "swiss-forfeits": (
        "swiss-p014-r06-s01021.json",
        "fide-2026",
        ["BH/C1", "BH/C2", "SB", "BH/P", "SB/P", "PS", "FB", "AOB/F", "SB/C1"],
    ),
    "swiss-withdrawn": ("swiss-p028-r08-s01018-wd.json", "fide-2026", ["BH/C1", "BH", "SB", "PS", "WIN"]),
    "round-robin": ("rr-p008-r07-s01032.json", "fide-2026", ["SB", "DE", "KS", "WIN"]),
    "us-chess": ("swiss-p012-r06-s01005.json", "us-chess", ["MM", "SOLK", "CUM", "OPPCUM", "SB", "KASH", "BLK"]),
}


def explained_sections(html: str) -> list[str]:
    return [text_of(block) for block in re.findall(r'<section class="explained".*?</section>', html, re.S)]


def api_explanations(client, slug: str) -> str:
    """The text of the API's `explanations` (followed by the rule set, the last member of its standings), as sent."""
    body = client.get(f"/api/v1/events/{slug}/standings/?explain=1").content.decode()
    head, rest = body.split(', "explanations": ', 1)
    assert '"being_updated": false' in head, head[:300]
    explanations, rules = rest.rsplit(', "rules": ', 1)
    assert rules.endswith('"}'), rules
    return explanations


def why(client, slug: str, a: int, b: int) -> str:
    text = text_of(client.get(f"/en/events/{slug}/why/?a={a}&b={b}").content.decode())
    return text[text.index(" Compare ") :]


def read_outputs(client, slug: str, numbers: list[int]) -> dict:
    pages = {
        str(n): explained_sections(client.get(f"/en/events/{slug}/players/{n}/").content.decode()) for n in numbers
    }
    return {
        "api": api_explanations(client, slug),
        "pages": pages,
        "hebrew_page": explained_sections(client.get(f"/he/events/{slug}/players/{numbers[0]}/").content.decode()),
        "why": {f"{a}-{b}": why(client, slug, a, b) for a, b in ((1, 2), (2, 3), (numbers[-1], numbers[0]))},
    }


@pytest.mark.parametrize("case", sorted(CASES))
def test_explanations_read_as_before(client, case):
    file, rules, criteria = CASES[case]
    golden = json.loads((GOLDEN / file).read_text(encoding="utf-8"))
    league = LeagueFactory()
    event = event_import_trf(
        league=league, name=f"Golden {case}", slug=case, data=golden["trf"].encode(), user=organiser_of(league)
    )
    Event.objects.filter(pk=event.pk).update(
        tiebreak_criteria=criteria, rule_set=rules, results_version=F("results_version") + 1
    )
    assert standings_recompute_event(event.pk)
    stored = StandingsSnapshot.objects.get(event=event).explanations
    assert all(is_compact(json.loads(traces)) for traces in stored.values()), "stored in the compact form"
    numbers = sorted(event.entries.values_list("start_number", flat=True))
    outputs = read_outputs(client, case, numbers)
    assert all(outputs["pages"].values()), "every player page explains its criteria"
    path = CAPTURED / f"{case}.json"
    if os.environ.get("GOLDEN_WRITE") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(outputs, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    captured = json.loads(path.read_text(encoding="utf-8"))
    assert outputs["api"] == captured["api"]
    for number, sections in captured["pages"].items():
        assert outputs["pages"][number] == sections, number
    assert outputs["hebrew_page"] == captured["hebrew_page"]
    assert outputs["why"] == captured["why"]
