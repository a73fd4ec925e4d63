"""TRF import and export: an accepted file becomes an event with its results; a bad one changes nothing."""

import json
from pathlib import Path

import pytest

from leagues.errors import PermissionDenied, ServiceError
from leagues.models import Event, Game, Player, ResultChange, StandingsSnapshot
from leagues.trf_services import event_export_trf, event_import_trf
from tests.factories import LeagueFactory, UserFactory, organiser_of
from tiebreaks.trf import read_trf

GOLDEN = Path(__file__).resolve().parents[2].parent / "shared" / "golden" / "fide2026"
pytestmark = pytest.mark.django_db(transaction=True)


def _golden(name):
    return json.loads((GOLDEN / name).read_text())


def test_imported_swiss_gets_the_checkers_standings():
    gold = _golden("swiss-p014-r06-s01021.json")  # forfeits included
    league = LeagueFactory()
    event = event_import_trf(league=league, name="Imported", slug="imported", data=gold["trf"].encode(),
                             user=organiser_of(league))
    assert event.entries.count() == 14
    assert ResultChange.objects.filter(source="import").count() == Game.objects.filter(round__event=event).count()
    Event.objects.filter(pk=event.pk).update(tiebreak_criteria=["BH/C1", "SB", "WIN"])
    from leagues.recompute import standings_recompute_event

    Event.objects.filter(pk=event.pk).update(results_version=event.results_version + 1)
    standings_recompute_event(event.pk)
    rows = StandingsSnapshot.objects.get(event=event).rows
    for row in rows:
        expected = gold["expected"][str(row["start_number"])]
        assert row["points"] == expected["PTS"]
        assert row["values"]["BH/C1"] == expected["BH/C1"]
        assert row["values"]["SB"] == expected["SB"]


def test_export_reads_back_to_the_same_crosstable():
    gold = _golden("swiss-p012-r06-s01005.json")  # byes and forfeits
    league = LeagueFactory()
    event = event_import_trf(league=league, name="Round trip", slug="round-trip", data=gold["trf"].encode(),
                             user=organiser_of(league))
    original, exported = read_trf(gold["trf"]), read_trf(event_export_trf(event=event))
    assert [(p.start_number, p.rating, p.rounds) for p in exported.participants] == [
        (p.start_number, p.rating, p.rounds) for p in original.participants
    ]


def test_bad_file_names_the_line_and_changes_nothing():
    gold = _golden("swiss-p008-r05-s01000.json")
    lines = gold["trf"].splitlines()
    broken_at = next(i for i, line in enumerate(lines) if line.startswith("001"))
    lines[broken_at] = lines[broken_at][:95] + "X" + lines[broken_at][96:]  # an opponent that is not a number
    league = LeagueFactory()
    players_before = Player.objects.count()
    with pytest.raises(ServiceError) as excinfo:
        event_import_trf(league=league, name="Broken", slug="broken", data="\n".join(lines).encode(),
                         user=organiser_of(league))
    assert excinfo.value.code == "bad_trf"
    assert f"line {broken_at + 1}" in excinfo.value.message
    assert not Event.objects.filter(slug="broken").exists()
    assert Player.objects.count() == players_before


def test_only_the_organiser_imports():
    league = LeagueFactory()
    with pytest.raises(PermissionDenied):
        event_import_trf(league=league, name="X", slug="x", data=b"012 X\n", user=UserFactory())


def test_import_command_creates_the_event_or_explains_why_not(tmp_path):
    from django.core.management import CommandError, call_command

    gold = _golden("swiss-p010-r05-s01010.json")
    league = LeagueFactory()
    user = organiser_of(league)
    good = tmp_path / "autumn-open.trf"
    good.write_text(gold["trf"])
    call_command("import_trf", str(good), league=league.slug, user=user.username, stdout=open("/dev/null", "w"))
    assert Event.objects.get(slug="autumn-open").entries.count() == 10
    broken = tmp_path / "broken.trf"
    broken.write_text(gold["trf"].replace("001    1", "001    X", 1))
    with pytest.raises(CommandError, match="line"):
        call_command("import_trf", str(broken), league=league.slug, user=user.username)
    assert not Event.objects.filter(slug="broken").exists()
    with pytest.raises(CommandError, match="no such file"):
        call_command("import_trf", str(tmp_path / "missing.trf"), league=league.slug, user=user.username)
