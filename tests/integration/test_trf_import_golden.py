"""Every golden TRF file goes through the website's import, policy and recompute and shows the FIDE checker's
numbers; broken copies of a golden file are refused with the line that is wrong and store nothing."""

import json
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.db import transaction

from leagues.errors import ServiceError
from leagues.models import Entry, Event, Game, Player, ResultChange
from leagues.recompute import standings_recompute_event
from leagues.services.policy import event_policy_set
from leagues.services.trf import event_import_trf
from tests.factories import LeagueFactory, organiser_of
from tests.paths import GOLDEN

FILES = sorted(GOLDEN.glob("*.json"))  # the individual files; team files sit in team/
BUCHHOLZ_FAMILY = {"BH", "BH/C1", "BH/C2", "BH/M1", "BH/M2", "AOB", "FB"}
LOWER_IS_BETTER = {"DE"}  # a place in the tied group: 1 is best

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs", "no_fide_check_by_the_worker")]


def _allowed_criteria(data) -> list[str]:
    """The golden criteria the website accepts for the event's type (no Buchholz family in round robins)."""
    criteria = [c for c in data["criteria"] if c != "PTS"]
    if data["mode"] == "round_robin":
        criteria = [c for c in criteria if c not in BUCHHOLZ_FAMILY]
    return criteria


def _expected_order(data, criteria) -> tuple[list[int], dict[int, int]]:
    """Rank order and competition rank numbers implied by the golden values for `criteria`
    (ties that no criterion separates keep start-number order and share the rank)."""

    def key(number):
        values = data["expected"][str(number)]
        parts = [(False, -Decimal(str(values["PTS"])))]
        for code in criteria:
            if values[code] is None:  # undefined (e.g. no rated opponent): below every value
                parts.append((True, Decimal(0)))
                continue
            value = Decimal(str(values[code]))
            parts.append((False, value if code in LOWER_IS_BETTER else -value))
        return parts

    numbers = sorted((int(n) for n in data["expected"]), key=lambda n: (key(n), n))
    ranks, previous = {}, None
    for position, number in enumerate(numbers, start=1):
        ranks[number] = ranks[previous] if previous is not None and key(previous) == key(number) else position
        previous = number
    return numbers, ranks


def _import(data, slug):
    league = LeagueFactory()
    organiser = organiser_of(league)
    event = event_import_trf(league=league, name=slug, slug=slug, data=data["trf"].encode(), user=organiser)
    return event, organiser


def _hundredths(value) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def test_the_golden_folder_is_there():
    assert len(FILES) >= 40, f"golden files not found in {GOLDEN}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_imported_golden_file_shows_the_checkers_standings(path):
    data = json.loads(path.read_text())
    criteria = _allowed_criteria(data)
    # the event set up in one commit: the work after it (the recompute) runs once, on the event as set up, instead
    # of once after the import and again after the policy
    with transaction.atomic():
        event, organiser = _import(data, path.stem.lower())
        assert event.entries.count() == len(data["expected"])
        if data["mode"] == "round_robin":
            # these files do not say so (record 092 is just "Tournament"): the organiser sets the system
            system = Event.System.DOUBLE_ROUND_ROBIN if path.stem.startswith("drr") else Event.System.ROUND_ROBIN
            Event.objects.filter(pk=event.pk).update(system=system)
        event.refresh_from_db()
        assert event.is_round_robin == (data["mode"] == "round_robin")
        event_policy_set(
            event_id=event.pk,
            rule_set=data["rules"],
            criteria=criteria,
            user=organiser,
            reason="the golden file's criteria",
        )
        Event.objects.filter(pk=event.pk).update(unrated_rating=data["checker"]["unrated_rating"])
    event.refresh_from_db()
    Event.objects.filter(pk=event.pk).update(results_version=event.results_version + 1)
    assert standings_recompute_event(event.pk) is True
    event.refresh_from_db()
    snapshot = event.snapshot
    assert snapshot.version == event.results_version
    assert snapshot.criteria == criteria

    mismatches = []
    for row in snapshot.rows:
        expected = data["expected"][str(row["start_number"])]
        if row["points"] != expected["PTS"]:
            mismatches.append((row["start_number"], "PTS", expected["PTS"], row["points"]))
        assert set(row["values"]) == set(criteria)
        for code, value in row["values"].items():
            want = expected[code]
            if code == "AOB":  # the checker's AOB, like the snapshot's, to two decimals
                ok = (value is None and want is None) or (
                    None not in (value, want) and _hundredths(value) == _hundredths(want)
                )
            else:
                ok = value == want
            if not ok:
                mismatches.append((row["start_number"], code, want, value))
    assert mismatches == []

    order, ranks = _expected_order(data, criteria)
    assert [row["start_number"] for row in snapshot.rows] == order
    assert {row["start_number"]: row["rank"] for row in snapshot.rows} == ranks
    if data["mode"] == "swiss":  # the full golden list: the checker's own order and rank numbers
        assert order == data["rank"]
        assert {str(n): r for n, r in ranks.items()} == data["rank_numbers"]


def _counts():
    return {model.__name__: model.objects.count() for model in (Event, Player, Entry, Game, ResultChange)}


def _player_line(lines, number):
    return next(i for i, line in enumerate(lines) if line.startswith("001") and int(line[4:8]) == number)


def _put(line, column, text):
    """Overwrite `line` from 1-based `column` with `text`."""
    return line[: column - 1] + text + line[column - 1 + len(text) :]


def _round_block(line, rnd):
    """1-based column of round `rnd`'s opponent field (blocks of 10 columns from column 92)."""
    return 92 + (rnd - 1) * 10


BREAKAGES = {
    # opponent of round 1 not a number
    "opponent_not_a_number": lambda line: _put(line, _round_block(line, 1), "  X "),
    # a result code that does not exist
    "unknown_result_code": lambda line: _put(line, _round_block(line, 1) + 7, "Q"),
    # a points column that does not add up
    "points_do_not_add_up": lambda line: _put(line, 81, "99.0"),
    # a rating that is not a number
    "rating_not_a_number": lambda line: _put(line, 49, "ab12"),
    # a start number that is not a number
    "start_number_not_a_number": lambda line: _put(line, 5, "  x1"),
}


@pytest.mark.parametrize("breakage", BREAKAGES, ids=list(BREAKAGES))
def test_broken_golden_file_is_refused_with_the_line_and_stores_nothing(breakage):
    data = json.loads((GOLDEN / "swiss-p010-r05-s01010.json").read_text())
    lines = data["trf"].splitlines()
    broken_at = _player_line(lines, 3)
    lines[broken_at] = BREAKAGES[breakage](lines[broken_at])
    league = LeagueFactory()
    organiser = organiser_of(league)
    before = _counts()
    with pytest.raises(ServiceError) as excinfo:
        event_import_trf(league=league, name="Broken", slug="broken", data="\n".join(lines).encode(), user=organiser)
    assert excinfo.value.code == "bad_trf"
    assert f"line {broken_at + 1}" in excinfo.value.message, excinfo.value.message
    assert _counts() == before
    assert not Event.objects.filter(slug="broken").exists()


def test_a_one_sided_pairing_is_refused_and_stores_nothing():
    """Player 3 claims a different opponent in round 1 than the one who claims to have played them."""
    data = json.loads((GOLDEN / "swiss-p010-r05-s01010.json").read_text())
    lines = data["trf"].splitlines()
    broken_at = _player_line(lines, 3)
    line = lines[broken_at]
    start = _round_block(line, 1)
    opponent = int(line[start - 1 : start + 3])
    liar = next(n for n in range(1, 11) if n not in (3, opponent))
    lines[broken_at] = _put(line, start, f"{liar:4d}")
    league = LeagueFactory()
    organiser = organiser_of(league)
    before = _counts()
    with pytest.raises(ServiceError) as excinfo:
        event_import_trf(league=league, name="Broken", slug="broken", data="\n".join(lines).encode(), user=organiser)
    assert excinfo.value.code == "bad_trf"
    assert f"line {broken_at + 1}" in excinfo.value.message, excinfo.value.message
    assert f"opponent {liar}" in excinfo.value.message
    assert _counts() == before
