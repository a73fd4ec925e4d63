"""The rule edition of an imported event (issues 13 and 30): FIDE's 2026 tiebreak rules apply to events that start
on or after 1 March 2026, the earlier edition before. A readable start date decides it and the preview says which;
so does an ambiguous one the end date or the round dates settle, or whose readings all give one edition. One the
file cannot settle (readings on either side of 1 March 2026), an unreadable or a missing one is asked on the
preview (a reading of the date, or the edition itself), and the import is refused until the organiser answers.
The command line asks the same through a warning and flags. `python -m tiebreaks` chooses the same edition."""

import hashlib
import html
import io
import json
import re
import subprocess
import sys

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from leagues.errors import ServiceError
from leagues.models import Event
from leagues.services.trf import event_import_trf, import_preview
from tests.factories import LeagueFactory, organiser_of
from tests.helpers import present
from tests.paths import GOLDEN, TESTS

pytestmark = pytest.mark.django_db
REAL = TESTS / "fixtures" / "real-trf"
#: 042 25.02.2011: readable, before 1 March 2026
BUNRATTY = (REAL / "icu-bunratty_major_2011.trf").read_bytes()
#: 042 11.09.26: 2011-09-26 or 2026-09-11, one reading on each side of 1 March 2026; 052 12.04.01 (2012-04-01 or
#: 2001-04-12): only 2011-09-26 starts before an end
ARMSTRONG = (REAL / "icu-armstrong_2012_with_bom.trf").read_bytes()
#: no 042 at all
NO_DATE = (REAL / "bbpairings-dutch_2025_C5.trf").read_bytes()
#: 042 2026/06/01, 052 2026/06/01, no round dates
GOLDEN_TRF = json.loads((GOLDEN / "swiss-p009-r05-s01004.json").read_text())["trf"]


def with_start(text: str, date: str, end: str | None = None) -> bytes:
    lines = [f"042 {date}" if line.startswith("042") else line for line in text.splitlines()]
    if end is not None:
        lines = [f"052 {end}" if line.startswith("052") else line for line in lines]
    return "\n".join(lines).encode()


#: 042 01/03/2026 (1 March or 3 January 2026), 052 2026/06/01: both readings start before the end, one on each
#: side of 1 March 2026; nothing in the file settles it
UNDECIDABLE = with_start(GOLDEN_TRF, "01/03/2026")


@pytest.fixture
def page(client):
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    return client, f"/en/manage/leagues/{league.slug}/import/"


def upload(client, url, data):
    response = client.post(url, {"name": "Open", "slug": "open", "file": SimpleUploadedFile("open.trf", data)})
    return response, html.unescape(response.content.decode())


def words(body: str) -> str:
    """The page's text without its tags (<bdi> around dates)."""
    return " ".join(re.sub(r"<[^>]+>", "", body).split())


def confirm(client, url, data, **fields):
    return client.post(url, {"confirm": "1", "publish": "1", "digest": hashlib.sha256(data).hexdigest(), **fields})


def test_a_readable_date_before_march_2026_gives_the_earlier_edition_and_the_preview_says_so(page):
    client, url = page
    response, body = upload(client, url, BUNRATTY)
    assert response.status_code == 200
    assert "FIDE before 2026 (C.07 as in force until 28 February 2026)" in body
    assert "from the start date" in body and "2011-02-25" in body
    assert 'name="edition"' not in body  # nothing to ask
    assert confirm(client, url, BUNRATTY).status_code == 302
    event = Event.objects.get(slug="open")
    assert (event.rule_set, str(event.starts_on)) == ("fide-2023", "2011-02-25")


def test_a_date_from_march_2026_gives_the_2026_rules(page):
    client, url = page
    data = with_start(GOLDEN_TRF, "2026/03/01")
    _response, body = upload(client, url, data)
    assert "FIDE 2026 (C.07 as in force from 1 March 2026)" in body and "2026-03-01" in body
    assert confirm(client, url, data).status_code == 302
    assert Event.objects.get(slug="open").rule_set == "fide-2026"
    assert present(import_preview(data=with_start(GOLDEN_TRF, "28.02.2026")).edition).rule_set == "fide-2023"


def test_an_undecidable_date_is_asked_and_nothing_is_saved_before_the_answer(page):
    client, url = page
    response, body = upload(client, url, UNDECIDABLE)
    assert response.status_code == 200
    assert "The start date “01/03/2026” is ambiguous (2026-03-01 or 2026-01-03)" in body
    for value in ("2026-03-01", "2026-01-03", "fide-2026", "fide-2023"):
        assert f'name="edition" value="{value}" required' in body
    unanswered = confirm(client, url, UNDECIDABLE)
    assert unanswered.status_code == 400 and not Event.objects.filter(slug="open").exists()
    assert "choose the date or the rule edition" in html.unescape(unanswered.content.decode())
    assert confirm(client, url, UNDECIDABLE, edition="2026-03-01").status_code == 302
    event = Event.objects.get(slug="open")
    assert (event.rule_set, str(event.starts_on)) == ("fide-2026", "2026-03-01")


def test_the_other_reading_of_an_undecidable_date_gives_the_earlier_edition(page):
    client, url = page
    upload(client, url, UNDECIDABLE)
    assert confirm(client, url, UNDECIDABLE, edition="2026-01-03").status_code == 302
    assert Event.objects.get(slug="open").rule_set == "fide-2023"


def test_the_edition_can_be_chosen_directly(page):
    client, url = page
    upload(client, url, UNDECIDABLE)
    assert confirm(client, url, UNDECIDABLE, edition="fide-2023").status_code == 302
    event = Event.objects.get(slug="open")
    assert (event.rule_set, event.starts_on) == ("fide-2023", None)  # the date stays unknown


def test_an_ambiguous_date_the_end_date_settles_is_imported_without_a_question(page):
    client, url = page
    response, body = upload(client, url, ARMSTRONG)
    assert response.status_code == 200 and 'name="edition"' not in body
    assert "FIDE before 2026 (C.07 as in force until 28 February 2026) (from the start date 2011-09-26)" in words(body)
    assert (
        "The start date “11.09.26” is read as 2011-09-26: its other reading, 2026-09-11, is after the end date." in body
    )
    confirmed = confirm(client, url, ARMSTRONG)
    assert confirmed.status_code == 302
    event = Event.objects.get(slug="open")
    assert (event.rule_set, str(event.starts_on)) == ("fide-2023", "2011-09-26")
    shown = [str(m) for m in get_messages(confirmed.wsgi_request)]
    assert "The event's tiebreak rules: FIDE before 2026 (C.07 as in force until 28 February 2026)." in shown


@pytest.mark.parametrize(
    ("start", "end", "readings"),
    [
        ("08/04/2018", "09/04/2018", "2018-04-08 or 2018-08-04"),  # day or month first: 2018 either way
        ("04/05/2025", "2026/06/01", "2025-05-04 or 2025-04-05"),
    ],
)
def test_an_ambiguous_date_whose_readings_give_one_edition_is_imported_without_a_question(page, start, end, readings):
    client, url = page
    data = with_start(GOLDEN_TRF, start, end)
    response, body = upload(client, url, data)
    assert response.status_code == 200 and 'name="edition"' not in body
    assert (
        f"FIDE before 2026 (C.07 as in force until 28 February 2026) (both readings of the start date “{start}” "
        f"({readings}) give these rules)"
    ) in words(body)
    assert confirm(client, url, data).status_code == 302
    event = Event.objects.get(slug="open")
    assert (event.rule_set, event.starts_on) == ("fide-2023", None)  # which day it started stays unknown


def test_a_file_without_a_start_date_asks_for_the_edition(page):
    client, url = page
    _response, body = upload(client, url, NO_DATE)
    assert "The file has no start date" in body
    assert 'value="fide-2023"' in body and 'value="fide-2026"' in body
    refused = confirm(client, url, NO_DATE, edition="fide-1999")  # neither an edition nor a date
    assert refused.status_code == 400 and not Event.objects.filter(slug="open").exists()
    assert "“fide-1999” is not a date (YYYY-MM-DD)." in html.unescape(refused.content.decode())
    assert 'value="fide-2023" required' in refused.content.decode()  # asked again
    assert confirm(client, url, NO_DATE, edition="fide-2026").status_code == 302
    assert Event.objects.get(slug="open").rule_set == "fide-2026"


def test_an_unreadable_date_is_asked_and_a_reading_the_file_does_not_allow_is_refused():
    league = LeagueFactory()
    data = with_start(GOLDEN_TRF, "sometime in May")
    preview = import_preview(data=data)
    assert preview.edition is not None
    assert preview.ok and preview.edition.rule_set == "" and preview.edition.text == "sometime in May"
    with pytest.raises(ServiceError) as refused:
        event_import_trf(league=league, name="X", slug="x", data=data, user=organiser_of(league))
    assert refused.value.code == "rule_edition_needed" and "cannot be read" in refused.value.message
    with pytest.raises(ServiceError) as wrong:
        event_import_trf(
            league=league, name="X", slug="x", data=UNDECIDABLE, user=organiser_of(league), start_date="2026-11-11"
        )
    assert wrong.value.code == "bad_start_date"
    assert not Event.objects.filter(slug="x").exists()
    event = event_import_trf(
        league=league, name="X", slug="x", data=data, user=organiser_of(league), start_date="2025-05-10"
    )
    assert (event.rule_set, str(event.starts_on)) == ("fide-2023", "2025-05-10")


def test_the_command_line_warns_and_imports_only_with_a_flag(tmp_path):
    league = LeagueFactory()
    user = organiser_of(league)
    path = tmp_path / "undecidable.trf"
    path.write_bytes(UNDECIDABLE)
    err = io.StringIO()
    call_command(
        "import_trf", str(path), league=league.slug, user=user.username, dry_run=True, stdout=io.StringIO(), stderr=err
    )
    assert "warning: The start date “01/03/2026” is ambiguous" in err.getvalue() and "--rules" in err.getvalue()
    with pytest.raises(CommandError, match="--start-date YYYY-MM-DD"):
        call_command("import_trf", str(path), league=league.slug, user=user.username, stdout=io.StringIO())
    assert not Event.objects.filter(slug="undecidable").exists()
    call_command(
        "import_trf", str(path), league=league.slug, user=user.username, rules="fide-2023", stdout=io.StringIO()
    )
    assert Event.objects.get(slug="undecidable").rule_set == "fide-2023"
    out = io.StringIO()
    path.write_bytes(BUNRATTY)
    call_command("import_trf", str(path), league=league.slug, user=user.username, dry_run=True, stdout=out)
    assert "rules: fide-2023 (from the start date 2011-02-25)" in out.getvalue()


def test_the_command_line_imports_a_date_the_file_settles_and_says_how(tmp_path):
    league = LeagueFactory()
    path = tmp_path / "armstrong.trf"
    path.write_bytes(ARMSTRONG)
    out = io.StringIO()
    call_command("import_trf", str(path), league=league.slug, user=organiser_of(league).username, stdout=out)
    assert Event.objects.get(slug="armstrong").rule_set == "fide-2023"
    path.write_bytes(with_start(GOLDEN_TRF, "08/04/2018", "09/04/2018"))
    out = io.StringIO()
    call_command(
        "import_trf", str(path), league=league.slug, user=organiser_of(league).username, dry_run=True, stdout=out
    )
    assert "rules: fide-2023 (the start date “08/04/2018” is 2018-04-08 or 2018-08-04: these rules either way)" in (
        out.getvalue()
    )


@pytest.mark.parametrize(
    "data",
    [
        ARMSTRONG,
        BUNRATTY,
        with_start(GOLDEN_TRF, "08/04/2018", "09/04/2018"),
        with_start(GOLDEN_TRF, "04/05/2025"),
        with_start(GOLDEN_TRF, "2026/03/01"),
        with_start(GOLDEN_TRF, "28.02.2026"),
    ],
    ids=["settled-by-the-end-date", "clear-2011", "readings-2018", "readings-2025", "march-2026", "february-2026"],
)
def test_the_engines_command_line_uses_the_edition_the_site_imports_with(tmp_path, data):
    path = tmp_path / "event.trf"
    path.write_bytes(data)
    result = subprocess.run(
        [sys.executable, "-m", "tiebreaks", "standings", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout)["rules"] == present(import_preview(data=data).edition).rule_set


@pytest.mark.parametrize(
    ("lang", "settled", "readings"),
    [
        ("el", "διαβάζεται ως 2011-09-26", "και οι δύο αναγνώσεις της ημερομηνίας έναρξης «08/04/2018»"),  # noqa: RUF001 - Greek text
        ("he", "נקרא כ־2011-09-26", "שתי הקריאות של תאריך ההתחלה „08/04/2018”"),
    ],
)
def test_the_preview_says_how_the_date_was_settled_in_the_organisers_language(client, lang, settled, readings):
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    url = f"/{lang}/manage/leagues/{league.slug}/import/"
    _response, body = upload(client, url, ARMSTRONG)
    assert settled in body and 'name="edition"' not in body
    _response, body = upload(client, url, with_start(GOLDEN_TRF, "08/04/2018", "09/04/2018"))
    assert readings in words(body) and 'name="edition"' not in body
