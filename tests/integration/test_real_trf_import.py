"""Real tournament files (tests/fixtures/real-trf) through the import service: the preview says how
each dialect was read, the import saves it, and the site's standings are those of the file."""

from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import pytest

from leagues.models import Event, Game, Result, StandingsSnapshot
from leagues.recompute import standings_recompute_event
from leagues.services.trf import event_import_trf, import_preview
from tests.factories import LeagueFactory, organiser_of
from tests.paths import TESTS
from tiebreaks.engine import compute_standings
from tiebreaks.trf import read_trf

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs", "no_fide_check_by_the_worker")]

REAL = TESTS / "fixtures" / "real-trf"
INDIVIDUAL = [p for p in sorted(REAL.glob("*.trf")) if p.name != "icu-armstrong_2011.trf"]
CRITERIA = ["BH/C1", "SB"]


@pytest.mark.parametrize("path", INDIVIDUAL, ids=lambda p: p.stem)
def test_a_real_file_imports_with_the_standings_of_the_file(path: Path):
    data = path.read_bytes()
    accept = path.name == "icu-bunratty_challengers_2011.trf"  # one points column the organiser accepts
    preview = import_preview(data=data, accept_points_column=accept)
    assert preview.ok, preview.problems
    # every real file was played before 1 March 2026: the earlier edition, chosen where the date cannot say it
    assert preview.edition is not None
    answer: dict[str, Any] = {} if preview.edition.rule_set else {"rule_set": "fide-2023"}
    league = LeagueFactory()
    slug = path.stem.lower().replace("_", "-")[:40]
    event = event_import_trf(
        league=league,
        name=path.stem,
        slug=slug,
        data=data,
        user=organiser_of(league),
        accept_points_column=accept,
        **answer,
    )
    assert event.rule_set == "fide-2023"
    Event.objects.filter(pk=event.pk).update(tiebreak_criteria=CRITERIA, results_version=event.results_version + 1)
    standings_recompute_event(event.pk)
    rows = {row["start_number"]: row for row in StandingsSnapshot.objects.get(event=event).rows}
    expected = compute_standings(read_trf(data, accept_points_column=accept), CRITERIA, rules="fide-2023")
    assert sorted(rows) == sorted(row.start_number for row in expected.rows)
    for row in expected.rows:
        got = rows[row.start_number]
        assert got["points"] == float(row.points)
        assert [got["values"][c] for c in CRITERIA] == [float(cast(Fraction, row.values[c])) for c in CRITERIA]


def test_the_preview_says_how_results_without_an_opponent_were_read():
    preview = import_preview(data=(REAL / "icu-valid.trf").read_bytes())
    assert preview.ok
    # 0000 - = of players 1, 8, 10 and 0000 - + of player 11
    assert [(n.line_number, n.kind) for n in preview.notes] == [(n, "unpaired_result") for n in (10, 17, 19, 20)]
    assert "half-point bye" in preview.notes[0].message and "unplayed win" in preview.notes[3].message


def test_the_preview_of_a_mid_event_file_says_after_which_round():
    preview = import_preview(data=(REAL / "javafo-trfx-sample2.trf").read_bytes())
    assert preview.ok
    assert (preview.after_round, preview.total_rounds) == (4, 9)
    assert "mid_event" in [n.kind for n in preview.notes]


def test_a_points_column_question_blocks_the_import_until_the_organiser_accepts_it():
    data = (REAL / "icu-bunratty_challengers_2011.trf").read_bytes()
    preview = import_preview(data=data)
    assert not preview.ok
    assert [q.line_number for q in preview.points_questions] == [45] == [line for line, _ in preview.problems]
    assert import_preview(data=data, accept_points_column=True).ok


def test_an_unplayed_win_without_opponent_is_stored_as_a_full_point_bye():
    data = (REAL / "icu-bunratty_major_2011.trf").read_bytes()  # player 1, round 1: 0000 - +
    league = LeagueFactory()
    event = event_import_trf(league=league, name="Major", slug="major", data=data, user=organiser_of(league))
    game = Game.objects.get(round__event=event, round__number=1, white__start_number=1)
    assert game.black is None and game.result == Result.FULL_POINT_BYE
