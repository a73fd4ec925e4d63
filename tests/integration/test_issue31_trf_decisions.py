"""Issue 31 (FIDE's 2026 checklist, Q204-207 and record 172): what decides the last places and which rating an event
uses travel in its TRF file and come back with an import.

TRF-26 has no record for a decision of the chief arbiter or the organiser, a play-off or the drawing of lots' seed:
the site's export writes each as a ``###`` line (start numbers, who decided, when, why) and its import reads them
back onto the new event, recorded in the settings' audit as the import's. Record 172 (national rating support:
federation and rating method, with one national rating record per player) is written when the event's method is
not FIDE's and read on import: the event keeps the method, each entry the rating the method chooses, each player
the national rating. Expected values are worked out by hand below; FIDE's checker (gacrux) reads the same files.
"""

import hashlib
import itertools

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.errors import ServiceError
from leagues.models import Event, Player, Result
from leagues.models.audit import SettingChange
from leagues.recompute import standings_recompute_event
from leagues.services.results import result_record
from leagues.services.standings import event_engine_result
from leagues.services.trf import event_export_trf, event_import_trf
from pairings.fide_tools import fide_tiebreaks
from tests.factories import LeagueFactory, organiser_of, swiss_event
from tiebreaks.engine.ranking import Standings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]
_slugs = itertools.count(1)


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _all_drawn(criteria):
    """Four players, round 1 drawn on both boards (1-3, 2-4): everyone on ½, every Buchholz ½."""
    event, entries, games = swiss_event(players=4, rounds=1)
    Event.objects.filter(pk=event.pk).update(tiebreak_criteria=criteria)
    event.refresh_from_db()
    organiser = organiser_of(event.league)
    for game in games:
        result_record(game_id=game.pk, result=Result.DRAW, user=organiser)
    return event, entries, organiser


def _order(api, slug):
    """The start numbers in the order the public standings (API) list them."""
    answer = api.get(f"/api/v1/events/{slug}/standings/")
    assert answer.status_code == 200, answer.content
    data = answer.json()
    rows = data["rows"] if isinstance(data, dict) and "rows" in data else data
    return [row["start_number"] for row in rows]


def _import_on_the_page(client, league, data: bytes):
    """The organiser uploads the file on the import page, reads the preview and confirms it."""
    client.force_login(organiser_of(league))
    url, slug = f"/en/manage/leagues/{league.slug}/import/", f"issue31-trf-{next(_slugs)}"
    preview = client.post(url, {"name": "Imported", "slug": slug, "file": SimpleUploadedFile("e.trf", data)})
    confirmation = {"confirm": "1", "publish": "1", "digest": hashlib.sha256(data).hexdigest()}
    shown = preview.context.get("preview") if preview.context else None
    if shown is not None and shown.edition is not None and not shown.edition.rule_set:
        confirmation["edition"] = "fide-2026"
    return preview, client.post(url, confirmation), slug


# ------------------------------------------------------------------------------ decisions in the TRF and back


def test_orders_play_offs_and_values_set_from_outside_are_exported_and_imported_with_their_reasons(client):
    event, _entries, organiser = _all_drawn(["BH"])
    api = _api(organiser)
    base = f"/api/v1/events/{event.slug}"
    external = {"start_number": 4, "criterion": "BH", "value": "3/2", "decided_by": "chief_arbiter"}
    external["reason"] = "Buchholz of the qualifying stage"
    assert api.post(f"{base}/external-values/", external, format="json").status_code == 201
    # player 4 is ahead on that Buchholz (3/2 > 1/2): players 1, 2 and 3 are still tied after the whole list
    assert api.get(f"{base}/tied-orders/").json()["ties"] == [[1, 2, 3]]
    order = {"start_numbers": [3, 1, 2], "decided_by": "organiser", "reason": "Drawn at the prize-giving"}
    assert api.post(f"{base}/tied-orders/", order, format="json").status_code == 201
    game = {"place": 1, "white": 1, "black": 2, "result": "1/2", "armageddon": True}
    assert api.post(f"{base}/playoffs/", game, format="json").status_code == 201
    standings_recompute_event(event.pk)
    # by hand: the play-off comes first; its Armageddon draw wins for Black, so 2 (1 point) is above 1 (0); 3 and 4
    # played none and follow, 4 above 3 on the Buchholz set from outside (3/2 against 1/2)
    assert _order(api, event.slug) == [2, 1, 4, 3]

    exported = api.get(f"{base}/export.trf")
    assert exported.status_code == 200
    text = exported.content.decode("latin-1")
    lines = text.split("\r\n")
    today, who = timezone.localdate().isoformat(), organiser.get_username()
    assert f"### tied order {today} by organiser ({who}): 3 1 2; reason: Drawn at the prize-giving" in lines
    assert "### play-off for place 1: 1 - 2 1/2 armageddon" in lines
    assert (
        f"### external value {today} by chief_arbiter ({who}): 4 BH 3/2; reason: Buchholz of the qualifying stage"
        in lines
    )

    preview, confirmed, slug = _import_on_the_page(client, event.league, text.encode("latin-1"))
    assert preview.status_code == 200 and preview.context["preview"].ok, preview.context["preview"].problems
    assert confirmed.status_code == 302
    imported = Event.objects.get(slug=slug)
    ids = dict(imported.entries.values_list("start_number", "id"))
    (decision,) = imported.tiebreak_decisions
    assert decision == {
        "entries": [ids[3], ids[1], ids[2]],
        "reason": "Drawn at the prize-giving",
        "by": "organiser",
        "on": today,
        "who": who,
    }
    assert imported.playoffs == [
        {"place": 1, "games": [{"white": ids[1], "black": ids[2], "result": "1/2", "armageddon": True}]}
    ]
    (value,) = imported.tiebreak_external
    assert (value["entry"], value["criterion"], value["value"], value["by"]) == (ids[4], "BH", "3/2", "chief_arbiter")
    audit = SettingChange.objects.filter(event=imported, source="import")
    assert {c.setting for c in audit} >= {
        SettingChange.Setting.DECISION,
        SettingChange.Setting.PLAYOFF,
        SettingChange.Setting.EXTERNAL,
    }
    standings_recompute_event(imported.pk)
    assert _order(api, imported.slug) == [2, 1, 4, 3]  # the same standings, decided the same way


def test_a_decision_line_naming_a_player_the_file_lacks_is_refused_by_the_preview_and_nothing_is_saved(client):
    event, _entries, organiser = _all_drawn(["BH"])
    text = event_export_trf(event=event).replace(
        "\r\n001", "\r\n### tied order 2026-11-02 by organiser (ada): 1 9; reason: typo\r\n001", 1
    )
    events = Event.objects.count()
    preview, confirmed, slug = _import_on_the_page(client, event.league, text.encode("latin-1"))
    problems = " ".join(message for _line, message in preview.context["preview"].problems)
    assert "The file's decision line cannot be read: ### tied order 2026-11-02 by organiser (ada): 1 9" in problems
    assert confirmed.status_code == 400
    assert Event.objects.count() == events and not Event.objects.filter(slug=slug).exists()
    with pytest.raises(ServiceError) as refused:
        event_import_trf(
            league=event.league,
            name="X",
            slug="x-refused",
            data=text.encode("latin-1"),
            user=organiser,
            rule_set="fide-2026",
        )
    assert refused.value.code == "bad_trf_decision"
    assert not Event.objects.filter(slug="x-refused").exists()


def test_the_drawing_of_lots_seed_is_exported_and_read_back_when_another_program_dropped_it_from_202():
    event, _entries, organiser = _all_drawn(["BH", "LOT/S4711"])
    text = event_export_trf(event=event)
    lines = text.split("\r\n")
    (listed,) = [line for line in lines if line[:4] in ("202 ", "212 ")]
    assert listed[4:] == "BH,LOT/S4711"  # the tie-break list with the site's LOT code and its seed
    assert "### drawing of lots: seed 4711" in lines
    # another program rewrote the list without the site's LOT code; the ### line keeps the seed
    rewritten = text.replace(listed, listed[:4] + "BH").encode("latin-1")
    imported = event_import_trf(
        league=event.league, name="Lots", slug="lots-back", data=rewritten, user=organiser, rule_set="fide-2026"
    )
    assert imported.tiebreak_criteria == ["BH", "LOT/S4711"]
    # by hand (the published rule): everyone is tied on points and Buchholz, so the lots decide: the lower
    # SHA-256 of "4711-<start number>" ranks first
    expected = sorted(range(1, 5), key=lambda n: hashlib.sha256(f"4711-{n}".encode()).hexdigest())
    standings = event_engine_result(imported)
    assert isinstance(standings, Standings)  # an individual event's
    assert [row.start_number for row in standings.rows] == expected
    original = event_engine_result(event)
    assert isinstance(original, Standings)
    assert [row.start_number for row in original.rows] == expected


# ------------------------------------------------------------------------------ record 172: national ratings


def _player(sn, sex, name, rating, fide_id, points, rank, opponent, colour, result):
    rated = f"{rating:4d}" if rating else "    "
    return (
        f"001 {sn:4d} {sex}    {name:<33} {rated} NOR {fide_id:>11} {'':10} {points:4.1f} {rank:4d}  "
        f"{opponent:4d} {colour} {result}"
    )


def _national(sn, sex, name, rating):
    return f"NOR {sn:4d} {sex}    {name:<33} {rating:4d}"


HBFN_FILE = "\r\n".join(
    [
        "012 National Cup",
        "042 2026/10/03",
        "052 2026/10/03",
        "092 Individual: Swiss-System",
        "142 3",
        "162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0    X 0.5",
        "172 NOR HBFN",
        "202 ARO",
        _player(1, "w", "Aas, Anna", 2000, 93100011, 1.0, 1, 3, "w", "1"),
        _player(2, "m", "Berg, Bjorn", 1800, 93100021, 0.5, 2, 4, "w", "="),
        _player(3, "m", "Dahl, Dag", 0, 93100031, 0.0, 4, 1, "b", "0"),
        _player(4, "w", "Eng, Eva", 1700, 93100041, 0.5, 2, 2, "b", "="),
        _national(1, "w", "Aas, Anna", 2100),
        _national(3, "m", "Dahl, Dag", 1500),
        _national(4, "w", "Eng, Eva", 1650),
        "",
    ]
)
# by hand, the higher of the FIDE rating and the national rating (HBFN): Anna 2100, Bjorn 1800 (no national
# rating), Dag 1500 (no FIDE rating), Eva 1700; round 1: Anna beat Dag, Bjorn drew with Eva; ARO after round 1 is
# the one opponent's rating: Anna 1500, Bjorn 1700, Dag 2100, Eva 1800
HBFN_RATINGS = {1: 2100, 2: 1800, 3: 1500, 4: 1700}
HBFN_ARO = {1: 1500, 2: 1700, 3: 2100, 4: 1800}


def test_record_172_gives_the_event_its_rating_method_and_each_entry_the_rating_it_chooses(client):
    league = LeagueFactory(federation="NOR")
    data = HBFN_FILE.encode("latin-1")
    preview, confirmed, slug = _import_on_the_page(client, league, data)
    assert preview.status_code == 200 and preview.context["preview"].ok, preview.context["preview"].problems
    assert {n: r for n, _name, r in preview.context["preview"].players} == HBFN_RATINGS  # the preview says so too
    assert confirmed.status_code == 302
    event = Event.objects.get(slug=slug)
    assert event.rating_method == Event.RatingMethod.HBFN
    assert dict(event.entries.values_list("start_number", "rating")) == HBFN_RATINGS
    players = {p.name: (p.rating, p.rating_national) for p in Player.objects.filter(entry__event=event)}
    assert players == {
        "Aas, Anna": (2000, 2100),
        "Berg, Bjorn": (1800, None),
        "Dahl, Dag": (None, 1500),
        "Eng, Eva": (1700, 1650),
    }
    standings = event_engine_result(event)
    assert isinstance(standings, Standings)  # an individual event's
    ours = {row.start_number: row.values["ARO"] for row in standings.rows}
    assert ours == HBFN_ARO
    # FIDE's checker reads record 172 the same way, from the file and from the site's export of the event
    assert {n: v[0] for n, v in fide_tiebreaks(HBFN_FILE, ["ARO"], rounds=1).items()} == HBFN_ARO

    exported = event_export_trf(event=event)
    lines = exported.split("\r\n")
    assert "172 NOR HBFN" in lines
    assert not any(line.startswith("### rating method") for line in lines)
    # the national rating records: each player's national rating (Bjorn has none, so no record)
    assert [line for line in lines if line.startswith("NOR ")] == [
        _national(1, "w", "Aas, Anna", 2100),
        _national(3, "m", "Dahl, Dag", 1500),
        _national(4, "w", "Eng, Eva", 1650),
    ]
    assert {n: v[0] for n, v in fide_tiebreaks(exported, ["ARO"], rounds=1).items()} == HBFN_ARO


def test_without_a_league_federation_the_method_travels_in_a_comment_line_and_comes_back():
    league = LeagueFactory(federation="")
    organiser = organiser_of(league)
    event = event_import_trf(
        league=league, name="Cup", slug="cup-hbfn", data=HBFN_FILE.encode("latin-1"), user=organiser
    )
    exported = event_export_trf(event=event)
    assert "### rating method: HBFN" in exported.split("\r\n")
    assert "172 " not in exported
    again = event_import_trf(
        league=league, name="Again", slug="cup-again", data=exported.encode(), user=organiser, rule_set="fide-2026"
    )
    assert again.rating_method == Event.RatingMethod.HBFN
    assert dict(again.entries.values_list("start_number", "rating")) == HBFN_RATINGS
