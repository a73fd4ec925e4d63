"""The small things of a season on the management pages (issue 38): a refused correction keeps the result the
user chose."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from leagues.models import Event, Game, Result
from tests.helpers import present, search

pytestmark = pytest.mark.django_db


def test_a_correction_refused_for_its_missing_reason_keeps_the_result_chosen(client, demo):
    client.force_login(User.objects.get(username="organiser"))
    event = Event.objects.get(slug="demo-autumn-open")
    game = (
        Game.objects.filter(round__event=event, result=Result.WHITE_WINS, black__isnull=False)
        .order_by("round__number", "board")
        .first()
    )
    assert game is not None
    sheet = f"/en/manage/events/{event.slug}/rounds/{game.round.number}/"
    page = client.get(sheet).content.decode()
    data = dict(re.findall(r'name="(version_\d+)" value="(\d+)"', page))
    data.update({f"result_{g.pk}": g.result for g in game.round.games.all()})
    data[f"result_{game.pk}"] = Result.DRAW  # a correction, without its reason
    html = client.post(sheet, data).content.decode()
    assert "A correction needs a reason." in html
    select = search(rf'<select[^>]*name="result_{game.pk}".*?</select>', html, re.S).group(0)
    assert re.findall(r'<option value="([^"]*)"[^>]*selected', select) == [Result.DRAW]
    game.refresh_from_db()
    assert game.result == Result.WHITE_WINS  # nothing saved


def test_the_prize_form_shows_only_the_fields_of_each_prizes_kind(client, demo):
    client.force_login(User.objects.get(username="organiser"))
    page = client.get("/en/manage/events/demo-autumn-open/prizes/").content.decode()
    new_prize = page.split('<fieldset class="prize">')[-1].split("</fieldset>")[0]  # a place prize until chosen

    def field_of(name: str) -> str:
        return search(rf'<div class="field"[^>]*>\s*<label for="id_prizes-\d+-{name}"', new_prize).group(0)

    assert " hidden" not in field_of("place") and " hidden" not in field_of("amount")
    for name in ("category", "eligibility_kind", "eligibility_value", "rank", "team_size"):
        assert " hidden" in field_of(name), name


def test_the_trf_preview_warns_of_a_title_it_cannot_read(client):
    import hashlib
    import html
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.factories import LeagueFactory, organiser_of
    from tests.paths import GOLDEN

    trf = json.loads((GOLDEN / "swiss-p009-r05-s01004.json").read_text())["trf"]
    lines = trf.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("001"))
    lines[at] = lines[at][:10] + "IM " + lines[at][13:]  # FIDE's code for an IM is m
    name = lines[at][14:47].strip()
    text = "\n".join(lines) + "\n"
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    url = f"/en/manage/leagues/{league.slug}/import/"
    file = SimpleUploadedFile("open.trf", text.encode())
    preview = html.unescape(client.post(url, {"name": "Club open", "slug": "club-open", "file": file}).content.decode())
    assert f"Line {at + 1}:" in preview
    codes = "g, m, f, c, wg, wm, wf, wc"
    assert f"The title “IM” of player 1 ({name}) is not one of TRF's title codes ({codes})" in preview
    assert "Confirm the import" in preview  # a warning: the file can still be imported
    client.post(url, {"confirm": "1", "digest": hashlib.sha256(text.encode()).hexdigest()})
    assert present(Event.objects.get(slug="club-open").entries.get(start_number=1).player).title == ""


def test_a_trf_import_is_a_draft_until_the_organiser_publishes_it(client):
    import hashlib
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.factories import LeagueFactory, organiser_of
    from tests.paths import GOLDEN

    text = json.loads((GOLDEN / "swiss-p009-r05-s01004.json").read_text())["trf"]
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    url = f"/en/manage/leagues/{league.slug}/import/"
    file = SimpleUploadedFile("open.trf", text.encode())
    preview = client.post(url, {"name": "Club open", "slug": "club-open", "file": file}).content.decode()
    assert '<input type="checkbox" name="publish" value="1">' in preview  # asked, not ticked
    done = client.post(url, {"confirm": "1", "digest": hashlib.sha256(text.encode()).hexdigest()})
    event = Event.objects.get(slug="club-open")
    assert event.status == Event.Status.DRAFT
    assert done.status_code == 302 and done.url == "/en/manage/events/club-open/"  # where it is published
    assert "Publish</button>" in client.get(done.url).content.decode()
    anonymous = Client()
    assert anonymous.get("/en/events/club-open/").status_code == 404  # readers do not see it yet
    client.post("/en/manage/events/club-open/status/", {"status": "published"})
    assert anonymous.get("/en/events/club-open/").status_code == 200
