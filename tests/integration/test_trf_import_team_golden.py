"""Issue 30: every team file of the golden folder (team Swiss and team round robins with forfeited boards,
FIDE's checker's values for 21 team criteria) imported as a team event: the site's stored matches, boards and
byes give the checker's value of every criterion for every team."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from leagues.models import Game
from leagues.services.standings import team_tournament_for
from leagues.services.trf import event_import_trf
from tests.factories import LeagueFactory, organiser_of
from tests.paths import GOLDEN
from tiebreaks.engine.team import compute_team_standings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]
FILES = sorted((GOLDEN / "team").glob("*.json"))
ROUNDED = ("AOB:MP", "SSSC")  # the checker rounds these to 0.01


def _same(criterion: str, got: Fraction | None, expected: float | None) -> bool:
    if got is None or expected is None:
        return got is None and expected is None
    if criterion in ROUNDED:
        return round(got * 100) == round(Fraction(str(expected)) * 100)
    return got == Fraction(str(expected))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_an_imported_team_file_has_the_checkers_value_of_every_team_criterion(path: Path):
    data = json.loads(path.read_text())
    league = LeagueFactory()
    event = event_import_trf(
        league=league,
        name=path.stem,
        slug=path.stem,
        data=data["trf"].encode(),
        user=organiser_of(league),
        rule_set=data["rules"],
    )
    assert event.is_team and event.is_round_robin == (data["mode"] == "round_robin")
    entries = list(event.entries.select_related("team").prefetch_related("team__members").order_by("start_number"))
    games = list(Game.objects.filter(round__event=event).select_related("round", "match", "white", "black"))
    site = compute_team_standings(
        team_tournament_for(event, games, entries),
        data["criteria"],
        rules=data["rules"],
        allow_buchholz_in_round_robin=True,
    )
    assert len(site.rows) == len(data["expected"])
    assert [
        (row.team_number, criterion, value, row.values[criterion])
        for row in site.rows
        for criterion, value in data["expected"][str(row.team_number)].items()
        if not _same(criterion, row.values[criterion], value)
    ] == []
