"""Issue 35: broken TRF files through the organiser's whole import, the upload's preview and then its confirmation
(property-based): the two always agree. A file the preview accepts is imported by the confirmation with the players,
rounds and results the preview announced; a file the preview refuses is refused by the confirmation, nothing saved;
never a server error. TRF_FUZZ_EXAMPLES makes a longer run (CI draws a few, the same every run)."""

import hashlib
import itertools
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_case

from leagues.models import Entry, Event, Game, Player, TeamMatch
from tests.factories import LeagueFactory, organiser_of
from tests.integration.test_issue17_trf_fuzz import LINES, broken_files

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]
EXAMPLES = int(os.environ.get("TRF_FUZZ_EXAMPLES", "12"))
_numbers = itertools.count()


def saved() -> tuple[int, int, int, int]:
    return Event.objects.count(), Player.objects.count(), Entry.objects.count(), Game.objects.count()


def preview_then_confirm(client, data: bytes):
    """The organiser uploads the file, reads the preview and confirms it, answering its questions as the page asks
    (the rule edition when the start date cannot decide it, points columns that differ from the results, players
    known in another league). Returns (the preview's answer, the confirmation's answer, the new event's address)."""
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    url, slug = f"/en/manage/leagues/{league.slug}/import/", f"fuzz-{next(_numbers)}-{league.pk}"
    upload = {"name": "Fuzz", "slug": slug, "file": SimpleUploadedFile("fuzz.trf", data)}
    preview = client.post(url, upload)
    confirmation = {"confirm": "1", "publish": "1", "digest": hashlib.sha256(data).hexdigest()}
    shown = preview.context.get("preview") if preview.context else None
    if shown is not None:
        if shown.edition is not None and not shown.edition.rule_set:
            confirmation["edition"] = "fide-2026"
        if shown.points_questions:
            confirmation["accept_points_column"] = "1"
        if shown.other_leagues:
            confirmation["same_players"] = "1"
    return preview, client.post(url, confirmation), slug


def assert_they_agree(client, data: bytes) -> str:
    """Returns what happened, for --hypothesis-show-statistics."""
    before = saved()
    preview, confirm, slug = preview_then_confirm(client, data)
    assert preview.status_code < 500 and confirm.status_code < 500
    happened = f"preview {preview.status_code}, confirmation {confirm.status_code}"
    if preview.status_code == 200:
        shown = preview.context["preview"]
        assert shown.ok
        assert confirm.status_code == 302, [str(m) for m in confirm.context["messages"]] if confirm.context else ""
        event = Event.objects.get(slug=slug)
        if shown.teams:  # a team tournament's file: a team event, its entries the teams, its matches
            assert event.is_team
            assert sorted(event.entries.values_list("start_number", flat=True)) == sorted(n for n, _, _ in shown.teams)
            assert TeamMatch.objects.filter(round__event=event).count() == shown.matches
            return happened + ", team event"
        assert event.rounds.count() >= shown.rounds
        assert sorted(event.entries.values_list("start_number", flat=True)) == sorted(n for n, _, _ in shown.players)
        games = Game.objects.filter(round__event=event).count()  # byes and games still to play included
        assert games == shown.results, (games, shown.results)
    else:
        assert confirm.status_code == 400
        assert not Event.objects.filter(slug=slug).exists()
        assert saved() == before  # nothing saved by either step
    return happened


def test_the_golden_file_is_previewed_and_imported_alike(client):
    assert_they_agree(client, ("\n".join(LINES) + "\n").encode())


def test_a_refused_file_is_refused_by_the_confirmation_too(client):
    assert_they_agree(client, b"012 Not a tournament\n001 x\n")


def with_lines(*extra: str) -> bytes:
    return ("\n".join(LINES[:3] + list(extra) + LINES[3:]) + "\n").encode()


def test_a_team_record_makes_a_team_event_as_the_preview_said(client):
    assert_they_agree(client, with_lines("013 Team"))


def test_two_teams_of_one_name_are_refused_by_the_preview_as_by_the_confirmation(client):
    """Found by the long run (TRF_FUZZ_EXAMPLES=300): the preview accepted the file, the confirmation refused it
    ("The event has a team of this name already")."""
    assert_they_agree(client, with_lines("013 Team", "013 Team"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=broken_files())
def test_the_preview_and_the_confirmation_of_a_broken_file_agree(client, data):
    note_case(assert_they_agree(client, data))
