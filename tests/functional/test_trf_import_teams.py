"""Issue 30: a team tournament's TRF file imported through the site's door (preview, then confirm) becomes a
team event whose team standings are the command line's on the same file, and whose TRF export, read by the
command line, gives them again. FIDE's TRF-26 team sample (50 teams of 4 boards, 14 rounds: boards out of
order and left empty, team byes, a pairing-allocated bye, forfeited matches) and a real team league exported
by the Irish Chess Union (013 records, no line-ups)."""

import hashlib
import html
import json
import re
import subprocess
import sys

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leagues.models import Event
from leagues.recompute import standings_recompute_event
from leagues.services.trf import event_export_trf
from tests.factories import LeagueFactory, organiser_of
from tests.golden.checker import checker_values
from tests.paths import GOLDEN, REPO, TESTS, TRF_SAMPLES
from tiebreaks.engine.team import compute_team_standings
from tiebreaks.trf import read_trf

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]
FIDE_SAMPLE = TRF_SAMPLES / "fide-trf26-sample-team.trf"
ARMSTRONG = TESTS / "fixtures" / "real-trf" / "icu-armstrong_2011.trf"


@pytest.fixture
def page(client):
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    return client, league, f"/en/manage/leagues/{league.slug}/import/"


def upload(client, url, data):
    response = client.post(url, {"name": "Team cup", "slug": "team-cup", "file": SimpleUploadedFile("t.trf", data)})
    return response, html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


def confirm(client, url, data, **fields):
    return client.post(url, {"confirm": "1", "publish": "1", "digest": hashlib.sha256(data).hexdigest(), **fields})


def cli_rows(path, rules, criteria):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tiebreaks",
            "standings",
            str(path),
            "--rules",
            rules,
            "--criteria",
            ",".join(criteria),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    ).stdout
    return {row["team_number"]: (row["rank"], row["points"], row["values"]) for row in json.loads(out)["rows"]}


def imported(client, url, data):
    response = confirm(client, url, data)
    assert response.status_code == 302, html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))[:3000]
    event = Event.objects.get(slug="team-cup")
    standings_recompute_event(event.pk)
    event.refresh_from_db()
    return event


def site_rows(event):
    return {row["team_number"]: (row["rank"], row["points"], row["values"]) for row in event.snapshot.rows}


@pytest.mark.parametrize("path", [FIDE_SAMPLE, ARMSTRONG], ids=["fide-sample", "armstrong"])
def test_a_team_file_becomes_a_team_event_with_the_command_lines_team_standings(page, path, tmp_path):
    client, _league, url = page
    data = path.read_bytes()
    response, body = upload(client, url, data)
    assert response.status_code == 200, body[-1500:]
    lines = data.splitlines()
    teams = sum(1 for line in lines if line[:3] == b"310") or sum(1 for line in lines if line[:3] == b"013")
    assert f"Teams{teams}" in body
    assert "Primary scorematch points" in body
    event = imported(client, url, data)
    assert event.is_team
    expected = cli_rows(path, event.rule_set, event.tiebreak_criteria)
    assert site_rows(event) == expected

    first = min(expected, key=lambda number: expected[number][0])
    name = event.entries.get(start_number=first).team.name
    standings = html.unescape(client.get(f"/en/events/{event.slug}/").content.decode())
    assert name in standings
    for page_url in (  # the public pages of the matches: a forfeited match, boards left empty, team byes
        f"/en/events/{event.slug}/crosstable/",
        f"/en/events/{event.slug}/rounds/6/",
        f"/en/events/{event.slug}/rounds/{event.rounds_count}/",
        f"/en/events/{event.slug}/teams/{first}/",
        f"/en/events/{event.slug}/boards/",
    ):
        assert client.get(page_url).status_code == 200, page_url

    exported = tmp_path / "export.trf"  # the site's export, read by the command line, ranks the teams alike
    exported.write_text(event_export_trf(event=event), encoding="utf-8")
    assert cli_rows(exported, event.rule_set, event.tiebreak_criteria) == expected


def test_the_preview_shows_what_a_team_file_creates(page):
    client, _league, url = page
    response, body = upload(client, url, FIDE_SAMPLE.read_bytes())
    assert response.status_code == 200
    # 50 teams of four boards, over 14 rounds
    assert "Teams50" in body and "Boards per match4" in body
    assert "Matches284" in body  # 50 teams x 14 rounds / 2, less 132 rounds of teams without a match
    assert "1India5" in body  # team 1 with its five players


def test_a_team_bye_the_site_cannot_count_as_the_file_does_is_refused_at_preview_with_its_round(page):
    client, _league, url = page
    # the pairing-allocated byes of record 320 worth a won match (2 match points, 4 game points) instead of a draw
    data = FIDE_SAMPLE.read_bytes().replace(b"320  1.0  2.0", b"320  2.0  4.0")
    response, body = upload(client, url, data)
    assert response.status_code == 400
    assert (
        "Round 3: the pairing-allocated bye of team 50 is worth 2 match points and 4 game points; a team event "
        "counts it as a drawn match with a draw on every board (1 and 2)." in body
    )
    assert confirm(client, url, data).status_code == 400
    assert not Event.objects.filter(slug="team-cup").exists()


@pytest.mark.parametrize("path", [FIDE_SAMPLE, ARMSTRONG], ids=["fide-sample", "armstrong"])
def test_fides_checker_reads_the_sites_team_export_and_counts_the_boards_as_the_site_does(page, path, tmp_path):
    """Board count (BC), top board results and bottom board elimination read every board: the export's 300
    records (boards out of order, a board left empty, listing every board) and 330 records (forfeited matches)
    must carry them. The checker refuses the Armstrong league as published (no line-ups); it reads the export."""
    client, _league, url = page
    data = path.read_bytes()
    upload(client, url, data)
    event = imported(client, url, data)
    exported = tmp_path / "export.trf"
    exported.write_text(event_export_trf(event=event), encoding="utf-8")
    t = read_trf(exported.read_bytes())
    criteria = ["GPTS", "BC", "TBR", "BBE", "EMGSB", "BH:MP"]
    ours = compute_team_standings(t, criteria, primary="MP")
    rounds = max(max((r for r, e in enumerate(p.rounds, 1) if e.opponent), default=0) for p in t.participants)
    checker = checker_values(exported, ["MPTS", *criteria], rounds=rounds)
    assert {row.team_number: [row.points, *(row.values[c] for c in criteria)] for row in ours.rows} == checker
    assert len(checker) == len(event.entries.all())


GOLDEN_SWISS = json.loads((GOLDEN / "team" / "team-swiss-t08-b4-r05-s02000.json").read_text())["trf"].encode()


def first_rounds(data: bytes, rounds: int) -> bytes:
    """The file as it was after `rounds` rounds: each player's first round blocks and the points they add up to."""
    out = []
    for line in data.split(b"\n"):
        if line.startswith(b"001"):
            line = line[: 91 + 10 * rounds]
            codes = [line[i + 9 : i + 10] for i in range(91, len(line), 10)]
            points = sum(1 if c in (b"1", b"+") else 0.5 if c == b"=" else 0 for c in codes)
            line = line[:80] + f"{points:4.1f}".encode() + line[84:]
        out.append(line)
    return b"\n".join(out)


def test_a_later_team_file_adds_its_new_rounds_to_the_imported_team_event(page, tmp_path):
    client, _league, url = page
    early = first_rounds(GOLDEN_SWISS, 3)
    upload(client, url, early)
    assert confirm(client, url, early).status_code == 302
    event = Event.objects.get(slug="team-cup")
    assert event.rounds.count() == 3

    response, body = upload(client, url, GOLDEN_SWISS)  # the same address: the file updates the event
    assert response.status_code == 200, body[:3000]
    assert "This file updates the event" in body
    event = imported(client, url, GOLDEN_SWISS)
    assert event.rounds.count() == 5
    path = tmp_path / "full.trf"
    path.write_bytes(GOLDEN_SWISS)
    assert site_rows(event) == cli_rows(path, event.rule_set, event.tiebreak_criteria)


def test_a_team_file_that_changes_a_round_of_the_event_is_refused_naming_the_round(page):
    client, _league, url = page
    early = first_rounds(GOLDEN_SWISS, 3)
    upload(client, url, early)
    assert confirm(client, url, early).status_code == 302
    # player 3 (team 1, board 3) lost his round 2 game instead of winning it
    changed = GOLDEN_SWISS.replace(b"    27 b 1    31 w =", b"    27 b 0    31 w =", 1)
    lines = changed.split(b"\n")
    player_27 = next(i for i, line in enumerate(lines) if line.startswith(b"001   27"))
    lines[player_27] = lines[player_27][:91] + lines[player_27][91:].replace(b"    3 w 0", b"    3 w 1", 1)
    changed = b"\n".join(lines)
    response, body = upload(client, url, changed)
    assert response.status_code == 400
    assert (
        "Round 2: the file's matches, boards or byes differ from the event's; an import adds the later rounds of a "
        "team event but does not change its rounds." in body
    )
