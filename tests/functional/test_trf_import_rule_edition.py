"""The rule edition of an imported event (issue 13): FIDE's 2026 tiebreak rules apply to events that start on or
after 1 March 2026, the earlier edition before. A readable start date decides it and the preview says which; an
ambiguous, unreadable or missing one is asked on the preview (a reading of the date, or the edition itself), and
the import is refused until the organiser answers. The command line asks the same through a warning and flags."""

import hashlib
import html
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from leagues.errors import ServiceError
from leagues.models import Event
from leagues.services.trf import event_import_trf, import_preview
from tests.factories import LeagueFactory, organiser_of
from tests.paths import GOLDEN, TESTS

pytestmark = pytest.mark.django_db
REAL = TESTS / "fixtures" / "real-trf"
#: 042 25.02.2011: readable, before 1 March 2026
BUNRATTY = (REAL / "icu-bunratty_major_2011.trf").read_bytes()
#: 042 11.09.26: 2011-09-26 or 2026-09-11, one reading on each side of 1 March 2026
ARMSTRONG = (REAL / "icu-armstrong_2012_with_bom.trf").read_bytes()
#: no 042 at all
NO_DATE = (REAL / "bbpairings-dutch_2025_C5.trf").read_bytes()
#: 042 2026/06/01
GOLDEN_TRF = json.loads((GOLDEN / "swiss-p009-r05-s01004.json").read_text())["trf"]


def with_start(text: str, date: str) -> bytes:
    return "\n".join(f"042 {date}" if line.startswith("042") else line for line in text.splitlines()).encode()


@pytest.fixture
def page(client):
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    return client, f"/en/manage/leagues/{league.slug}/import/"


def upload(client, url, data):
    response = client.post(url, {"name": "Open", "slug": "open", "file": SimpleUploadedFile("open.trf", data)})
    return response, html.unescape(response.content.decode())


def confirm(client, url, data, **fields):
    return client.post(url, {"confirm": "1", "digest": hashlib.sha256(data).hexdigest(), **fields})


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
    assert import_preview(data=with_start(GOLDEN_TRF, "28.02.2026")).edition.rule_set == "fide-2023"


def test_an_ambiguous_date_is_asked_and_nothing_is_saved_before_the_answer(page):
    client, url = page
    response, body = upload(client, url, ARMSTRONG)
    assert response.status_code == 200
    assert "The start date “11.09.26” is ambiguous (2011-09-26 or 2026-09-11)" in body
    for value in ("2011-09-26", "2026-09-11", "fide-2026", "fide-2023"):
        assert f'name="edition" value="{value}" required' in body
    unanswered = confirm(client, url, ARMSTRONG)
    assert unanswered.status_code == 400 and not Event.objects.filter(slug="open").exists()
    assert "choose the date or the rule edition" in html.unescape(unanswered.content.decode())
    assert confirm(client, url, ARMSTRONG, edition="2026-09-11").status_code == 302
    event = Event.objects.get(slug="open")
    assert (event.rule_set, str(event.starts_on)) == ("fide-2026", "2026-09-11")


def test_the_other_reading_of_an_ambiguous_date_gives_the_earlier_edition(page):
    client, url = page
    upload(client, url, ARMSTRONG)
    assert confirm(client, url, ARMSTRONG, edition="2011-09-26").status_code == 302
    assert Event.objects.get(slug="open").rule_set == "fide-2023"


def test_a_day_month_ambiguity_is_asked_too_and_the_edition_can_be_chosen_directly(page):
    client, url = page
    data = with_start(GOLDEN_TRF, "03/04/2011")
    _response, body = upload(client, url, data)
    assert "is ambiguous (2011-04-03 or 2011-03-04)" in body and 'value="2011-03-04"' in body
    assert confirm(client, url, data, edition="fide-2023").status_code == 302
    event = Event.objects.get(slug="open")
    assert (event.rule_set, event.starts_on) == ("fide-2023", None)  # the date stays unknown


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
    assert preview.ok and preview.edition.rule_set == "" and preview.edition.text == "sometime in May"
    with pytest.raises(ServiceError) as refused:
        event_import_trf(league=league, name="X", slug="x", data=data, user=organiser_of(league))
    assert refused.value.code == "rule_edition_needed" and "cannot be read" in refused.value.message
    with pytest.raises(ServiceError) as wrong:
        event_import_trf(
            league=league, name="X", slug="x", data=ARMSTRONG, user=organiser_of(league), start_date="2011-11-11"
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
    path = tmp_path / "armstrong.trf"
    path.write_bytes(ARMSTRONG)
    err = io.StringIO()
    call_command(
        "import_trf", str(path), league=league.slug, user=user.username, dry_run=True, stdout=io.StringIO(), stderr=err
    )
    assert "warning: The start date “11.09.26” is ambiguous" in err.getvalue() and "--rules" in err.getvalue()
    with pytest.raises(CommandError, match="--start-date YYYY-MM-DD"):
        call_command("import_trf", str(path), league=league.slug, user=user.username, stdout=io.StringIO())
    assert not Event.objects.filter(slug="armstrong").exists()
    call_command(
        "import_trf", str(path), league=league.slug, user=user.username, rules="fide-2023", stdout=io.StringIO()
    )
    assert Event.objects.get(slug="armstrong").rule_set == "fide-2023"
    out = io.StringIO()
    path.write_bytes(BUNRATTY)
    call_command("import_trf", str(path), league=league.slug, user=user.username, dry_run=True, stdout=out)
    assert "rules: fide-2023 (from the start date 2011-02-25)" in out.getvalue()
