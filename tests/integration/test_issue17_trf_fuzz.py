"""Issue 17: broken TRF files fed to the import preview and the upload page (property-based): nothing is saved,
never a 500; whatever the preview accepts, the confirmation imports."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.models import Event, Game, Player
from leagues.services.trf import event_import_trf, import_preview
from tests.factories import LeagueFactory, organiser_of
from tests.paths import GOLDEN

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

LINES = json.loads((GOLDEN / "swiss-p008-r05-s01000.json").read_text())["trf"].splitlines()
NASTY = ["\x00", "\r", "\t", "\x1b", "é", "ｎ", "9" * 12, "-1", "0000", "  ", "=", "+", "X", "142 99999", "999"]  # noqa: RUF001 - a fullwidth n on purpose


@st.composite
def broken_files(draw) -> bytes:
    """The golden file with a few lines changed: characters replaced, cut, doubled, swapped or dropped."""
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(0, len(lines) - 1))
        line = lines[n]
        action = draw(st.sampled_from(["replace", "cut", "double", "drop", "swap", "record"]))
        if action == "replace" and line:
            at = draw(st.integers(0, len(line) - 1))
            text = draw(st.one_of(st.sampled_from(NASTY), st.text(max_size=6)))
            lines[n] = line[:at] + text + line[at + len(text) :]
        elif action == "cut":
            lines[n] = line[: draw(st.integers(0, len(line)))]
        elif action == "double":
            lines.insert(n, line)
        elif action == "drop":
            del lines[n]
        elif action == "swap":
            m = draw(st.integers(0, len(lines) - 1))
            lines[n], lines[m] = lines[m], lines[n]
        else:
            lines.insert(n, draw(st.sampled_from(["142 999", "062 0", "001", "013 Team", "XXR 3", "102"])))
    encoding = draw(st.sampled_from(["utf-8", "latin-1"]))
    return ("\n".join(lines) + "\n").encode(encoding, errors="replace")


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=broken_files())
def test_a_broken_file_is_previewed_without_error_and_what_previews_well_imports(data):
    league = LeagueFactory()
    before = (Event.objects.count(), Player.objects.count(), Game.objects.count())
    preview = import_preview(data=data, league=league)
    assert (Event.objects.count(), Player.objects.count(), Game.objects.count()) == before  # nothing saved
    assert all(isinstance(message, str) and message for _line, message in preview.problems)
    if preview.ok and not preview.other_leagues:
        # the organiser answers the preview's question, when the start date cannot decide the rule edition
        asked = preview.edition is not None and not preview.edition.rule_set
        slug = f"fuzz-{Event.objects.count()}"
        event_import_trf(
            league=league,
            name="Fuzz",
            slug=slug,
            data=data,
            user=organiser_of(league),
            rule_set="fide-2026" if asked else None,
        )
        assert Event.objects.filter(slug=slug).exists()


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=broken_files())
def test_the_upload_page_never_answers_500_to_a_broken_file(client, data):
    from django.core.files.uploadedfile import SimpleUploadedFile

    league = LeagueFactory()
    client.force_login(organiser_of(league))
    before = Event.objects.count()
    answer = client.post(
        f"/en/manage/leagues/{league.slug}/import/",
        {"name": "Fuzz", "slug": "", "file": SimpleUploadedFile("fuzz.trf", data)},
    )
    assert answer.status_code < 500
    assert Event.objects.count() == before  # the upload only previews
