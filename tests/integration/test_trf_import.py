"""TRF import and export: an accepted file becomes an event with its results; a bad one changes nothing."""

import json

import pytest

from leagues.errors import PermissionDenied, ServiceError
from leagues.models import Event, Game, Player, ResultChange, StandingsSnapshot
from leagues.services.trf import event_export_trf, event_import_trf
from tests.factories import LeagueFactory, UserFactory, organiser_of
from tests.helpers import present
from tests.paths import GOLDEN
from tiebreaks.trf import read_trf

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _golden(name):
    return json.loads((GOLDEN / name).read_text())


def test_imported_swiss_gets_the_checkers_standings():
    gold = _golden("swiss-p014-r06-s01021.json")  # forfeits included
    league = LeagueFactory()
    event = event_import_trf(
        league=league, name="Imported", slug="imported", data=gold["trf"].encode(), user=organiser_of(league)
    )
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
    event = event_import_trf(
        league=league, name="Round trip", slug="round-trip", data=gold["trf"].encode(), user=organiser_of(league)
    )
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
        event_import_trf(
            league=league, name="Broken", slug="broken", data="\n".join(lines).encode(), user=organiser_of(league)
        )
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


# ---- updating an event from a later file -----------------------------------------------------


def _first_rounds(trf: str, rounds: int) -> str:
    """The file as it stood after `rounds` rounds (points columns left blank: the reader recomputes)."""
    lines = []
    for line in trf.splitlines():
        if line.startswith("001"):
            line = (line[:80] + "    " + line[84 : 89 + 10 * rounds]).rstrip()
        lines.append(line)
    return "\n".join(lines)


def _imported_after(rounds, slug="autumn"):
    gold = _golden("swiss-p008-r05-s01000.json")
    league = LeagueFactory()
    user = organiser_of(league)
    event = event_import_trf(
        league=league, name="Autumn", slug=slug, data=_first_rounds(gold["trf"], rounds).encode(), user=user
    )
    return gold, event, user


def test_update_adds_the_new_rounds_and_corrects_differing_results_with_a_reason():
    from leagues.services.results import result_record

    gold, event, user = _imported_after(3)
    assert event.rounds.count() == 3
    game = Game.objects.filter(round__event=event, round__number=1, black__isnull=False).order_by("board").first()
    assert game is not None
    right = game.result
    wrong = "0-1" if right != "0-1" else "1-0"
    result_record(
        game_id=game.pk, result=wrong, user=user, reason="typo", later_pairing="keep"
    )  # rounds 2-3 stay paired
    untouched = {g.pk: (g.result, g.version) for g in Game.objects.filter(round__event=event).exclude(pk=game.pk)}

    updated = event_import_trf(
        league=event.league, name="ignored", slug="ignored", data=gold["trf"].encode(), user=user, event=event
    )

    assert updated.pk == event.pk and not Event.objects.filter(slug="ignored").exists()
    assert event.rounds.count() == 5
    assert Game.objects.filter(round__event=event).count() == 20
    assert Game.objects.get(pk=game.pk).result == right
    change = ResultChange.objects.filter(game=game).latest("pk")
    assert (change.before, change.after, change.reason, change.source) == (wrong, right, "TRF import", "import")
    assert {g.pk: (g.result, g.version) for g in Game.objects.filter(pk__in=untouched)} == untouched
    original = read_trf(gold["trf"])
    assert [p.rounds for p in read_trf(event_export_trf(event=event)).participants] == [
        p.rounds for p in original.participants
    ]


def test_update_refuses_other_participants_naming_the_first_and_changes_nothing():
    gold, event, user = _imported_after(3)
    lines = gold["trf"].splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("001    2"))
    stranger = "Stranger, Sam".ljust(33)
    lines[at] = lines[at][:14] + stranger + lines[at][47:]
    games_before = Game.objects.filter(round__event=event).count()
    with pytest.raises(ServiceError) as excinfo:
        event_import_trf(
            league=event.league, name="x", slug="x", data="\n".join(lines).encode(), user=user, event=event
        )
    assert excinfo.value.code == "participants_differ"
    assert "Start number 2" in excinfo.value.message and "Stranger, Sam" in excinfo.value.message
    assert event.rounds.count() == 3 and Game.objects.filter(round__event=event).count() == games_before


def test_update_of_a_finished_event_is_refused():
    gold, event, user = _imported_after(3)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    with pytest.raises(ServiceError) as excinfo:
        event_import_trf(league=event.league, name="x", slug="x", data=gold["trf"].encode(), user=user, event=event)
    assert excinfo.value.code == "event_finished"
    assert event.rounds.count() == 3


def test_update_that_fails_half_way_saves_nothing():
    """The file corrects a round 1 result, but round 2 pairs players differently: not even the correction stays."""
    from leagues.services.results import result_record

    gold, event, user = _imported_after(3)
    first = Game.objects.filter(round__event=event, round__number=1, black__isnull=False).first()
    assert first is not None
    wrong = "0-1" if first.result != "0-1" else "1-0"
    result_record(game_id=first.pk, result=wrong, user=user, reason="typo", later_pairing="keep")
    game = present(Game.objects.filter(round__event=event, round__number=2, black__isnull=False).first())
    Game.objects.filter(pk=game.pk).update(white=game.black, black=game.white)  # colours swapped in the event
    changes_before = ResultChange.objects.count()
    with pytest.raises(ServiceError) as excinfo:
        event_import_trf(league=event.league, name="x", slug="x", data=gold["trf"].encode(), user=user, event=event)
    assert excinfo.value.code == "pairing_differs"
    assert Game.objects.get(pk=first.pk).result == wrong
    assert event.rounds.count() == 3 and ResultChange.objects.count() == changes_before


def test_import_command_updates_an_existing_event_and_dry_run_saves_nothing(tmp_path):
    import io

    from django.core.management import CommandError, call_command

    gold, event, user = _imported_after(3, slug="club-open")
    full = tmp_path / "club-open-final.trf"
    full.write_text(gold["trf"])
    out = io.StringIO()
    call_command(
        "import_trf",
        str(full),
        league=event.league.slug,
        user=user.username,
        event="club-open",
        dry_run=True,
        stdout=out,
    )
    assert "updates club-open" in out.getvalue() and "8 players, 5 rounds" in out.getvalue()
    assert event.rounds.count() == 3
    call_command(
        "import_trf", str(full), league=event.league.slug, user=user.username, event="club-open", stdout=io.StringIO()
    )
    assert event.rounds.count() == 5
    call_command(
        "import_trf", str(full), league=event.league.slug, user=user.username, event="new-slug", stdout=io.StringIO()
    )
    assert Event.objects.get(slug="new-slug").entries.count() == 8

    lines = gold["trf"].splitlines()
    broken = [i for i, line in enumerate(lines) if line.startswith("001")][1:4:2]
    for i in broken:
        lines[i] = lines[i][:48] + "abcd" + lines[i][52:]
    bad = tmp_path / "bad.trf"
    bad.write_text("\n".join(lines))
    err = io.StringIO()
    with pytest.raises(CommandError, match="2 problem"):
        call_command(
            "import_trf",
            str(bad),
            league=event.league.slug,
            user=user.username,
            dry_run=True,
            stdout=io.StringIO(),
            stderr=err,
        )
    assert [f"line {i + 1}:" in err.getvalue() for i in broken] == [True, True]
    assert not Event.objects.filter(slug="bad").exists()
