"""End to end with a real Celery worker: the organiser pairs every round of a 40-player Swiss through
the pairing screen (the worker pairs each round; the page's status follows it) and publishes it; the
results are entered (odd rounds by the club's secretary on the round sheet, even rounds through the
service); at the end the site's standings and its TRF export agree with the command lines:
`python -m pairings check` replays every round of the export and finds the engine's pairings, and
`python -m tiebreaks standings` ranks the export as the site does."""

import json
import random
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from django.test import Client

from leagues.models import Entry, Game, Result, Role, RoundPairing, StandingsSnapshot
from leagues.services.results import result_record
from tests.e2e.worker import wait_until
from tests.factories import (
    ClubFactory,
    ClubMembershipFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    RoleFactory,
    organiser_of,
)
from tests.helpers import present
from tests.paths import REPO

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYERS, ROUNDS = 40, 7


def _result(white_rating: int, black_rating: int, draw: random.Random) -> str:
    """Mostly the higher rating wins; some draws and upsets (seeded: the same tournament every run)."""
    roll = draw.random()
    if roll < 0.25:
        return Result.DRAW
    favourite = Result.WHITE_WINS if white_rating >= black_rating else Result.BLACK_WINS
    upset = Result.BLACK_WINS if favourite == Result.WHITE_WINS else Result.WHITE_WINS
    return upset if roll > 0.85 else favourite


def _rating(entry: Entry | None) -> int:
    """The rating of a game's player (every entry here is rated)."""
    return present(present(entry).rating)


def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, timeout=300)


def test_a_40_player_swiss_paired_round_by_round_agrees_with_the_command_lines(worker, client):
    event = EventFactory(rounds_count=ROUNDS, status="published", tiebreak_criteria=["BH/C1", "BH", "SB"])
    club = ClubFactory()
    event.league.clubs.add(club)  # its secretary answers for its members' games in the league
    for n in range(1, PLAYERS + 1):
        player = PlayerFactory()
        ClubMembershipFactory(player=player, club=club)
        EntryFactory(event=event, start_number=n, player=player, rating=2500 - 13 * n)
    organiser = organiser_of(event.league)
    client.force_login(organiser)
    secretary = Client()
    secretary.force_login(RoleFactory(kind=Role.Kind.SECRETARY, club=club, league=None).user)
    draw = random.Random(14)
    for number in range(1, ROUNDS + 1):
        page = f"/en/manage/events/{event.slug}/pairing/{number}/"
        assert client.post(page, {"action": "pair"}).status_code == 302
        status = wait_until(
            lambda: client.get(f"{page}status/").json()["status"] in ("ready", "failed"),  # noqa: B023
            timeout=150,  # the worker also runs the recomputes and webhooks of the round's results first
            step=0.2,
        )
        answer = client.get(f"{page}status/").json()
        assert status and answer["status"] == "ready", answer
        assert answer["progress"] == 100
        assert "Publish round" in client.get(page).content.decode()
        assert client.post(page, {"action": "publish"}).status_code == 302
        games = Game.objects.filter(round__event=event, round__number=number, black__isnull=False)
        assert games.count() == PLAYERS // 2
        results = {
            g.pk: _result(_rating(g.white), _rating(g.black), draw) for g in games.select_related("white", "black")
        }
        if number % 2:  # odd rounds: the club's secretary saves the whole round on the round sheet
            sheet: dict[str, str | int] = {f"result_{pk}": code for pk, code in results.items()}
            sheet |= {f"version_{pk}": 0 for pk in results}
            saved = secretary.post(f"/en/manage/events/{event.slug}/rounds/{number}/", sheet)
            assert saved.status_code == 302, saved.content.decode()[-2000:]
        else:
            for pk, code in results.items():
                result_record(game_id=pk, result=code, user=organiser)
        assert {g.pk: g.result for g in games} == results
    assert RoundPairing.objects.filter(round__event=event, status=RoundPairing.Status.PUBLISHED).count() == ROUNDS

    version = event.__class__.objects.get(pk=event.pk).results_version
    snapshot = wait_until(lambda: StandingsSnapshot.objects.filter(event=event, version=version).first(), timeout=60)
    assert snapshot is not None, "the worker did not store the final standings"
    export = client.get(f"/en/manage/events/{event.slug}/export.trf")
    assert export.status_code == 200
    path = Path(tempfile.mkdtemp(prefix="pairing-e2e-")) / "event.trf"
    path.write_bytes(export.content)

    checked = _cli("pairings", "check", str(path), "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    rounds = report["rounds"]
    assert [r["round"] for r in rounds] == list(range(1, ROUNDS + 1))
    assert all(r["same"] for r in rounds)
    assert report["standings"]["follows"], report["standings"]  # the export's rank column is the site's ranking

    standings = _cli("tiebreaks", "standings", str(path), "--json")
    assert standings.returncode == 0, standings.stderr
    cli = [
        (row["start_number"], row["rank"], Fraction(str(row["points"]))) for row in json.loads(standings.stdout)["rows"]
    ]
    site = [(row["start_number"], row["rank"], Fraction(str(row["points"]))) for row in snapshot.rows]
    assert site == cli
    assert sum(points for _n, _rank, points in site) == PLAYERS // 2 * ROUNDS  # every game gave one point
