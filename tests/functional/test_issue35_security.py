"""Issue #35: security findings."""

import base64
import csv
import io
import re
import zipfile
import zlib

import pytest
from django.core import mail
from rest_framework.test import APIClient

from leagues.models import Event, Player, Prize, Season, Team, WebhookSubscription
from tests.factories import EventFactory, UserFactory, organiser_of, swiss_event
from tests.functional.conftest import publish_results
from tests.helpers import search
from tests.workspace import card_post, division

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["standings/", "results/", "teams/1/fixtures/"])
def test_a_widget_of_an_unknown_or_draft_event_is_not_found(client, path):
    EventFactory(slug="draft-cup", status="draft")
    assert client.get(f"/embed/en/events/no-such-event/{path}").status_code == 404
    assert client.get(f"/embed/en/events/draft-cup/{path}").status_code == 404


def _prize_form(amounts):
    data = {
        "currency": "GBP",
        "method": "pool",
        "one_prize_per_player": "on",
        "remainder": "round_down",
        "item_tie": "lot",
        "published": "on",
        "prizes-TOTAL_FORMS": len(amounts),
        "prizes-INITIAL_FORMS": 0,
    }
    for index, amount in enumerate(amounts):
        data |= {
            f"prizes-{index}-kind": "place",
            f"prizes-{index}-place": index + 1,
            f"prizes-{index}-amount": amount,
            f"prizes-{index}-rank": 1,
        }
    return data


@pytest.mark.parametrize(
    "amounts",
    [["30000000"], ["21474836.48"], ["15000000", "15000000"], ["9999999999.99"]],
    ids=["one-too-big", "just-over", "sum-too-big", "form-max"],
)
@pytest.mark.parametrize("preview", [False, True])
def test_a_prize_fund_over_what_the_site_stores_is_refused_on_the_form(client, amounts, preview):
    d = division()
    client.force_login(d.organiser)
    url = f"/en/manage/events/{d.event.slug}/prizes/"
    assert client.post(url, _prize_form(["300"])).status_code == 302
    data = _prize_form(amounts) | ({"preview": "1"} if preview else {})
    refused = client.post(url, data)
    assert refused.status_code == 400
    assert "too large" in refused.content.decode()
    assert list(Prize.objects.filter(fund__event=d.event).values_list("amount", flat=True)) == [30000]


# 3. a new API token and a webhook's signing secret are shown once in the answer, never put in a cookie


def _cookies_carry(response, secret: str) -> bool:
    """Whether a cookie the answer sets holds the secret (the messages cookie is signed, not encrypted: its
    JSON, possibly zlib-compressed, is readable by anyone holding the cookie)."""
    for morsel in response.cookies.values():
        value = morsel.value
        if secret in value:
            return True
        payload = value.split(":")[0]
        compressed = payload.startswith(".")
        try:
            raw = base64.urlsafe_b64decode(payload.lstrip(".") + "=" * (-len(payload.lstrip(".")) % 4))
            text = (zlib.decompress(raw) if compressed else raw).decode("utf-8", "replace")
        except (ValueError, zlib.error):
            continue
        if secret in text:
            return True
    return False


def _shown(client, answer):
    """The page the user sees after a POST: its answer, or the page it leads to."""
    return client.get(answer["Location"]) if answer.status_code == 302 else answer


def test_a_new_api_token_is_shown_once_and_never_travels_in_a_cookie(client):
    user = UserFactory()
    client.force_login(user)
    made = client.post("/en/manage/account/tokens/", {"name": "league bot", "scopes": ["results"]})
    shown = _shown(client, made)
    key = search(r"Your new API token: (cl_[0-9a-f]+)", shown.content.decode()).group(1)
    assert not _cookies_carry(made, key)
    assert "no-store" in shown["Cache-Control"]
    later = client.get("/en/manage/account/tokens/")
    assert key[:15] in later.content.decode() and key not in later.content.decode()
    assert not _cookies_carry(later, key)


def test_a_webhooks_signing_secret_is_shown_once_and_never_travels_in_a_cookie(client):
    event, _entries, _games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    client.force_login(organiser)
    page = "/en/manage/webhooks/"
    made = client.post(
        page,
        {"url": "https://127.0.0.1:9/hook", "target": f"league:{event.league.slug}", "events": ["result.recorded"]},
    )
    secret = search(r"signing secret: (whsec_[0-9a-f]+)", _shown(client, made).content.decode()).group(1)
    assert WebhookSubscription.objects.get(owner=organiser).secret == secret
    assert not _cookies_carry(made, secret)
    later = client.get(page)
    assert secret not in later.content.decode() and not _cookies_carry(later, secret)


# 7. a bye is "+" in the crosstable CSV (no formula to guard), e-mail subjects are plain text


def _crosstable(body: str) -> dict[str, list[str]]:
    rows = list(csv.reader(io.StringIO(body.split("\n", 1)[1])))
    return {row[2]: row[4:] for row in rows[1:]}


def test_a_bye_is_a_plus_in_the_crosstable_csv_and_a_formula_is_still_quoted(client, bye_event):
    entry = bye_event.entries.get(start_number=2)
    Player.objects.filter(pk=entry.player_id).update(name="-2+3")
    season = Season.objects.create(league=bye_event.league, name="2026", slug="2026")
    Event.objects.filter(pk=bye_event.pk).update(season=season)
    publish_results(bye_event)
    api = APIClient()
    direct = _crosstable(api.get(f"/api/v1/events/{bye_event.slug}/crosstable.csv").content.decode())
    bundle = zipfile.ZipFile(io.BytesIO(api.get(f"/api/v1/seasons/{season.pk}/bundle.zip").content))
    bundled = _crosstable(bundle.read(f"{bye_event.slug}/crosstable.csv").decode())
    for table in (direct, bundled):
        assert table["Eide, Liv"][2] == "+"  # the pairing-allocated bye of round 3
        assert table["Aas, Per"][2] == "½"  # the half-point bye
        assert "'-2+3" in table  # a name a spreadsheet would compute stays text


def test_email_subjects_are_plain_text_not_html(client, django_capture_on_commit_callbacks):
    d = division()
    Team.objects.filter(pk=d.teams[0].pk).update(name="O'Brien & Sons <1>")
    match = d.match()
    client.force_login(d.secretaries[0])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/en/manage/matches/{match.pk}/", card_post(match, {1: "1-0"})).status_code == 302
    subjects = [message.subject for message in mail.outbox]
    assert subjects and all("O'Brien & Sons <1>" in subject for subject in subjects), subjects
    assert not any("&#x27;" in s or "&amp;" in s or "&lt;" in s for s in subjects)


def test_the_admin_refuses_prizes_over_what_the_fund_can_store(client, bye_event):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get("/admin/leagues/prizefund/add/").content.decode()
    fields = {
        name: value
        for name, value in re.findall(r'<input[^>]* name="([^"]+)"[^>]* value="([^"]*)"', page)
        if name != "csrfmiddlewaretoken" and "__prefix__" not in name
    }
    fields.update(
        {
            "event": bye_event.pk,
            "currency": "GBP",
            "method": "pool",
            "remainder": "round_down",
            "item_tie": "lot",
            "published": "on",
            "lot_order": "[]",
            "prizes-TOTAL_FORMS": "2",
            "prizes-INITIAL_FORMS": "0",
        }
    )
    for index in range(2):
        fields |= {
            f"prizes-{index}-kind": "place",
            f"prizes-{index}-place": index + 1,
            f"prizes-{index}-rank": 1,
            f"prizes-{index}-amount": 1_500_000_000,
            f"prizes-{index}-team_size": 3,
        }
    refused = client.post("/admin/leagues/prizefund/add/", fields)
    assert refused.status_code == 200
    assert "too large" in refused.content.decode()
    assert not Prize.objects.exists()
    fields["prizes-1-amount"] = 500
    assert client.post("/admin/leagues/prizefund/add/", fields).status_code == 302
    assert sorted(Prize.objects.values_list("amount", flat=True)) == [500, 1_500_000_000]
