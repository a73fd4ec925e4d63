"""Issue 30: the TRF import keeps everything the file says. Files shaped like Tornelo's exports (012, 042, XXR,
`BBU 0.5` or TRF-26's 162 `P 0.5`, a pairing-allocated bye written `0000 - U`) imported through the site's door
(preview, then confirm) show the command line's points and tiebreak values; the preview lists the file's scoring,
names the player whose points column differs from the results, warns about a FIDE id given to two players and
names the line of a tiebreak list the engine does not know."""

import hashlib
import html
import json
import re
import subprocess
import sys
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leagues.errors import ServiceError
from leagues.models import Event, Player
from leagues.recompute import standings_recompute_event
from leagues.services.fide_mode import fide_mode_leave
from leagues.services.round_pairings import pairing_settings_save
from leagues.services.trf import event_export_trf, event_import_trf
from tests.factories import LeagueFactory, organiser_of
from tests.helpers import present
from tests.paths import REPO, TESTS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]
FIXTURES = TESTS / "fixtures" / "trf"
#: TRF-16 with `BBU 0.5`; TRF-26 with `162 ... P 0.5` and `212 BH/C1,BH,SB`; 7 players, a PAB every round
TORNELO = {
    "trf16": FIXTURES / "tornelo-pab-half-trf16.trf",
    "trf26": FIXTURES / "tornelo-pab-half-trf26.trf",
}


@pytest.fixture
def page(client):
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    return client, league, f"/en/manage/leagues/{league.slug}/import/"


def upload(client, url, data):
    response = client.post(url, {"name": "Club rapid", "slug": "club-rapid", "file": SimpleUploadedFile("t.trf", data)})
    return response, html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))  # the page's text


def confirm(client, url, data, **fields):
    return client.post(url, {"confirm": "1", "publish": "1", "digest": hashlib.sha256(data).hexdigest(), **fields})


def cli_rows(path, rules, criteria):
    """`python -m tiebreaks standings FILE --json` on the same file, rules and criteria as the event."""
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
    return {row["start_number"]: row for row in json.loads(out)["rows"]}


def imported_event(client, url, data):
    assert confirm(client, url, data).status_code == 302
    event = Event.objects.get(slug="club-rapid")
    if not hasattr(event, "snapshot") or event.snapshot.version < event.results_version:
        standings_recompute_event(event.pk)
    event.refresh_from_db()
    return event


def with_line(data: bytes, start: bytes, change) -> bytes:
    lines = data.split(b"\r\n")
    return b"\r\n".join(change(line) if line.startswith(start) else line for line in lines)


@pytest.mark.parametrize("name", TORNELO)
def test_a_half_point_pab_is_imported_as_the_file_says_and_the_site_shows_the_command_lines_values(page, name):
    client, _league, url = page
    path = TORNELO[name]
    data = path.read_bytes()
    response, body = upload(client, url, data)
    assert response.status_code == 200
    assert "win 1, draw 0.5, loss 0, pairing-allocated bye 0.5" in body

    event = imported_event(client, url, data)
    expected = cli_rows(path, event.rule_set, event.tiebreak_criteria)
    rows = {row["start_number"]: row for row in event.snapshot.rows}
    assert {n: (r["rank"], r["points"], r["values"]) for n, r in rows.items()} == {
        n: (r["rank"], r["points"], r["values"]) for n, r in expected.items()
    }
    assert rows[7]["points"] == 0.5  # Rossi: one PAB (½) and three losses, as the file's points column says

    player = html.unescape(client.get(f"/en/events/{event.slug}/players/7/").content.decode())
    # the score after each round, then the place (both hidden on a phone)
    scores = re.findall(r'<td class="num opt"><bdi dir="ltr">([^<]*)</bdi></td>\s*<td class="num opt"><bdi', player)
    assert scores == ["0.5", "0.5", "0.5", "0.5"]  # the score after each round: the PAB of round 1 is worth ½


def test_a_points_column_that_differs_is_a_warning_naming_the_player_with_both_values(page):
    client, _league, url = page
    # the points column of Rossi (7) counts his PAB as a full point: 1.0, where the file's scoring gives 0.5
    data = with_line(TORNELO["trf16"].read_bytes(), b"001    7", lambda line: line[:80] + b" 1.0" + line[84:])
    line = data.split(b"\r\n").index(next(x for x in data.split(b"\r\n") if x.startswith(b"001    7"))) + 1
    response, body = upload(client, url, data)
    assert response.status_code == 200
    assert f"Line {line}: Player 7 (Rossi, Marco) has 1 in the points column, but the results add up to 0.5." in body
    assert confirm(client, url, data, accept_points_column="1").status_code == 302
    event = Event.objects.get(slug="club-rapid")
    standings_recompute_event(event.pk)
    event.refresh_from_db()
    assert next(r for r in event.snapshot.rows if r["start_number"] == 7)["points"] == 0.5  # the results decide


def test_a_fide_id_given_to_two_players_imports_both_with_a_warning(page):
    client, _league, url = page
    # the exporter repeated player 1's FIDE id on player 6's line
    data = with_line(TORNELO["trf26"].read_bytes(), b"001    6", lambda line: line[:57] + b"    4200011" + line[68:])
    response, body = upload(client, url, data)
    assert response.status_code == 200
    assert (
        "FIDE id 4200011 is given to player 1 (Papadopoulos, Nikos) and to player 6 (Novak, Petr); they may be the "
        "same person." in body
    )
    assert "Worth a look before importing" in body
    assert confirm(client, url, data).status_code == 302
    event = Event.objects.get(slug="club-rapid")
    entries = {e.start_number: present(e.player) for e in event.entries.select_related("player")}
    assert len(entries) == 7
    assert entries[1].fide_id == 4200011 and entries[1].name == "Papadopoulos, Nikos"
    assert entries[6].fide_id is None and entries[6].name == "Novak, Petr"


def test_an_unknown_criterion_in_212_is_named_with_its_line_at_preview_and_nothing_is_imported(page):
    client, league, url = page
    data = with_line(TORNELO["trf26"].read_bytes(), b"212", lambda line: b"212 BH/C1,XYZ,SB")
    line = data.split(b"\r\n").index(b"212 BH/C1,XYZ,SB") + 1
    response, body = upload(client, url, data)
    assert response.status_code == 400
    assert f"Line {line}: The file's tiebreak list is not valid: unknown tie-break criterion 'XYZ'" in body
    assert confirm(client, url, data).status_code == 400  # the previewed file is not kept: nothing to confirm
    with pytest.raises(ServiceError) as refused:  # the service itself refuses it before saving anything
        event_import_trf(league=league, name="Club rapid", slug="club-rapid", data=data, user=organiser_of(league))
    assert refused.value.message.startswith(f"Line {line}: The file's tiebreak list is not valid")
    assert not Event.objects.filter(slug="club-rapid").exists()
    assert not Player.objects.filter(fide_id=4200011).exists()


def test_a_file_updating_an_event_of_another_scoring_is_imported_with_a_warning_naming_both(page):
    client, league, url = page
    data = TORNELO["trf26"].read_bytes()
    upload(client, url, data)
    event = imported_event(client, url, data)
    # the organiser has since counted the pairing-allocated bye as a full point (out of FIDE mode, which locks it
    # from the start: issue #31)
    organiser = organiser_of(league)
    fide_mode_leave(event=event, user=organiser, confirmed=True, reason="the league's own rules")
    pairing_settings_save(
        event=event,
        user=organiser,
        pab_points=Decimal("1"),
        half_byes_allowed=2,
        forbidden_pairs=[],
        reason="the league's rules give a full point",
    )
    line = data.split(b"\r\n").index(next(x for x in data.split(b"\r\n") if x.startswith(b"162"))) + 1
    response, body = upload(client, url, data)  # the same address: the file updates the event
    assert response.status_code == 200
    assert (
        f"Line {line}: The file's scoring (win 1, draw 0.5, loss 0, pairing-allocated bye 0.5) is not the event's "
        "(win 1, draw 0.5, loss 0, pairing-allocated bye 1); the event keeps its own." in body
    )


@pytest.mark.parametrize("name", TORNELO)
def test_a_zero_point_bye_worth_points_is_kept_listed_in_the_scoring_and_counted_as_the_command_line_does(
    page, name, tmp_path
):
    client, _league, url = page
    # player 3's pairing-allocated bye of round 2 becomes a zero-point bye, which the file's scoring makes worth ½
    # (JaVaFo's BBZ 0.5; TRF-26's A 0.5 in record 162, with X 0 for a result not known): his points column, 1.0,
    # adds up only so
    data = with_line(TORNELO[name].read_bytes(), b"001    3", lambda line: line.replace(b"0000 - U", b"0000 - Z"))
    if name == "trf16":
        data = with_line(data, b"BBU", lambda line: line + b"\r\nBBZ 0.5")
    else:
        data = with_line(data, b"162", lambda line: line.replace(b"A 0.0", b"A 0.5") + b"    X 0.0")
    response, body = upload(client, url, data)
    assert response.status_code == 200
    assert "win 1, draw 0.5, loss 0, pairing-allocated bye 0.5, zero-point bye and forfeit loss 0.5" in body
    assert ("result not known 0" in body) == (name == "trf26")

    event = imported_event(client, url, data)
    path = tmp_path / "file.trf"
    path.write_bytes(data)
    expected = cli_rows(path, event.rule_set, event.tiebreak_criteria)
    rows = {row["start_number"]: row for row in event.snapshot.rows}
    assert {n: (r["rank"], r["points"], r["values"]) for n, r in rows.items()} == {
        n: (r["rank"], r["points"], r["values"]) for n, r in expected.items()
    }
    assert rows[3]["points"] == 1.0  # ½ for the draw of round 1 and ½ for the zero-point bye
    exported = tmp_path / "export.trf"  # the export's record 162 carries the value: read back alike
    exported.write_text(event_export_trf(event=event), encoding="utf-8")
    back = cli_rows(exported, event.rule_set, event.tiebreak_criteria)
    assert {n: (r["points"], r["values"]) for n, r in back.items()} == {
        n: (r["points"], r["values"]) for n, r in expected.items()
    }


def test_a_zero_point_bye_and_a_forfeit_loss_of_different_values_are_refused_with_the_line(page):
    client, _league, url = page
    # BBZ 0.5 and BBF 0: the engine counts a zero-point bye and a forfeit loss alike (162's A)
    data = with_line(TORNELO["trf16"].read_bytes(), b"BBU", lambda line: line + b"\r\nBBZ 0.5\r\nBBF 0.0")
    line = data.split(b"\r\n").index(b"BBF 0.0") + 1
    response, body = upload(client, url, data)
    assert response.status_code == 400
    assert (
        f"Line {line}: The file gives 0.5 points for a zero-point bye (BBZ) but 0 for a forfeit loss (BBF); the "
        "site counts both alike." in body
    )
    assert confirm(client, url, data).status_code == 400
    assert not Event.objects.filter(slug="club-rapid").exists()
