"""Issue #30: a new event gets the recommended tiebreak order of its system, shown on its forms; an event is
not published without one; a change before the first game's result is no public "after the first result"
note; the prizes saved are the prizes previewed, in the organiser's order, paying the same players."""

import re

import pytest
from rest_framework.test import APIClient

from leagues.models import Entry, Event, Game, Prize, PrizeAllocation, Result, TiebreakPolicyChange
from leagues.services.results import result_record
from leagues.services.tokens import api_token_create
from tests.factories import EntryFactory, EventFactory, GameFactory, RoundFactory, UserFactory, organiser_of
from tests.helpers import player, present, snapshot_event
from tests.workspace import division

pytestmark = pytest.mark.django_db

NEW_EVENT = {
    "name": "Spring",
    "boards": 4,
    "points_win": 1,
    "points_draw": "0.5",
    "points_loss": 0,
    "primary_score": "mp",
    "match_points_win": 2,
    "match_points_draw": 1,
    "match_points_loss": 0,
    "starts_on": "2026-03-02",
}


@pytest.mark.parametrize(
    ("kind", "system", "rounds", "order"),
    [
        ("individual", "swiss", 5, "BH/C1, BH, SB"),
        ("individual", "swiss", 9, "BH/C1, BH/C2, SB"),
        ("individual", "rr", 7, "SB, DE, KS"),
        ("team", "rr", 3, "MPTS, GPTS"),
    ],
)
def test_a_new_event_gets_the_recommended_tiebreak_order_shown_on_its_forms(client, kind, system, rounds, order):
    d = division()
    client.force_login(d.organiser)
    new = f"/en/manage/leagues/{d.league.slug}/events/new/"
    form = client.get(new).content.decode()
    assert 'name="tiebreak_criteria"' in form and "Swiss: BH/C1, BH, SB; round robin: SB, DE, KS" in form
    fields = dict(NEW_EVENT, slug="spring", kind=kind, system=system, rounds_count=rounds, tiebreak_criteria="")
    assert client.post(new, fields).status_code == 302
    event = Event.objects.get(slug="spring")
    assert (event.rule_set, ", ".join(event.tiebreak_criteria)) == ("fide-2026", order)
    settings = client.get(f"/en/manage/leagues/{d.league.slug}/events/spring/edit/").content.decode()
    assert re.search(rf'name="tiebreak_criteria" value="{re.escape(order)}"[^>]* disabled', settings)
    assert order in client.get("/en/manage/events/spring/").content.decode()


def test_an_order_typed_at_creation_is_kept_and_one_that_does_not_fit_is_refused(client):
    d = division()
    client.force_login(d.organiser)
    new = f"/en/manage/leagues/{d.league.slug}/events/new/"
    typed = dict(NEW_EVENT, slug="typed", kind="individual", system="swiss", rounds_count=5, tiebreak_criteria="SB, BH")
    assert client.post(new, typed).status_code == 302
    assert Event.objects.get(slug="typed").tiebreak_criteria == ["SB", "BH"]
    buchholz_in_round_robin = dict(typed, slug="refused", system="rr")
    refused = client.post(new, buchholz_in_round_robin)
    assert refused.status_code == 400
    assert "This tiebreak order does not fit the event" in refused.content.decode()
    assert not Event.objects.filter(slug="refused").exists()


@pytest.mark.parametrize(
    ("event", "order"),
    [
        ({"kind": "individual", "system": "swiss", "rounds_count": 7}, ["BH/C1", "BH", "SB"]),
        ({"kind": "individual", "system": "drr", "rounds_count": 6}, ["SB", "DE", "KS"]),
        ({"kind": "team", "system": "swiss", "rounds_count": 5, "primary_score": "gp"}, ["GPTS", "MPTS"]),
        ({"kind": "individual", "system": "swiss", "rounds_count": 5, "tiebreak_criteria": ["SB"]}, ["SB"]),
    ],
)
def test_an_event_created_through_the_api_gets_the_recommended_order(event, order):
    d = division()
    _, key = api_token_create(user=d.organiser, name="setup", scopes=["organiser"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    answer = client.post(
        f"/api/v1/leagues/{d.league.slug}/events/", {"name": "Open", "slug": "open", **event}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["tiebreak_criteria"] == order and answer.json()["status"] == "draft"
    assert Event.objects.get(slug="open").tiebreak_criteria == order


def test_creating_an_event_through_the_api_needs_the_organiser(client):
    d = division()
    _, key = api_token_create(user=d.organiser, name="results", scopes=["results"])
    results_only = APIClient()
    results_only.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    new = {"name": "Open", "slug": "open", "rounds_count": 5}
    assert results_only.post(f"/api/v1/leagues/{d.league.slug}/events/", new, format="json").status_code == 403
    secretary = APIClient()
    secretary.force_login(d.secretaries[0])
    refused = secretary.post(f"/api/v1/leagues/{d.league.slug}/events/", new, format="json")
    assert refused.status_code == 403 and refused.json()["code"]
    assert not Event.objects.filter(slug="open").exists()


def test_the_api_shows_the_order_an_event_was_created_with():
    d = division()  # a team division created and published through the organiser's services
    body = APIClient().get(f"/api/v1/events/{d.event.slug}/").json()
    assert body["tiebreak_criteria"] == ["MPTS", "GPTS"]


def test_publishing_without_a_tiebreak_order_is_refused_and_changes_nothing(client):
    event = EventFactory(status=Event.Status.DRAFT, tiebreak_criteria=[])
    EntryFactory(event=event, start_number=1)
    client.force_login(organiser_of(event.league))
    page = client.post(f"/en/manage/events/{event.slug}/status/", {"status": "published"}, follow=True)
    assert "Choose the event&#x27;s tiebreak order on its tiebreak policy page before publishing it" in (
        page.content.decode()
    )
    assert Event.objects.get(pk=event.pk).status == Event.Status.DRAFT
    assert "None yet: choose one on the tiebreak policy page." in page.content.decode()


def test_changing_the_order_after_a_bye_but_before_the_first_result_is_no_change_after_the_first_result(client):
    event = EventFactory(tiebreak_criteria=["BH/C1", "BH", "SB"], rounds_count=5)
    entries = [EntryFactory(event=event, start_number=n) for n in (1, 2, 3)]
    rnd = RoundFactory(event=event)
    GameFactory(round=rnd, board=1, white=entries[0], black=entries[1])
    bye = GameFactory(round=rnd, board=1003, white=entries[2], black=None)
    organiser = organiser_of(event.league)
    result_record(game_id=bye.pk, result=Result.PAIRING_BYE, user=organiser, reason="pairing")  # round 1 published
    client.force_login(organiser)
    url = f"/en/manage/events/{event.slug}/policy/"
    assert "Locked since the first result" not in client.get(url).content.decode()
    assert APIClient().get(f"/api/v1/events/{event.slug}/").json()["tiebreak_locked"] is False
    # (round 1 is published: the event has started, so the change may need a reason of its own)
    changed = client.post(url, {"rule_set": "fide-2026", "criteria": "SB, BH", "reason": "a typo in the list"})
    assert changed.status_code == 302
    assert Event.objects.get(pk=event.pk).tiebreak_criteria == ["SB", "BH"]
    assert not TiebreakPolicyChange.objects.exists()
    standings = client.get(f"/en/events/{event.slug}/").content.decode()
    assert "changed after the first result" not in standings
    # the first game's result locks it: a change now needs a reason and is shown publicly
    result_record(game_id=Game.objects.get(round=rnd, board=1).pk, result=Result.WHITE_WINS, user=organiser)
    assert client.post(url, {"rule_set": "fide-2026", "criteria": "BH"}).status_code == 400
    assert APIClient().get(f"/api/v1/events/{event.slug}/").json()["tiebreak_locked"] is True


# ------------------------------------------------------------------------------------------ prizes


def _form_data(page: str) -> dict:
    """The prize form as a browser sends it: every input's value, every select's chosen option."""
    start = page.rindex('<form method="post"', 0, page.index("prizes-TOTAL_FORMS"))
    form = page[start : page.index("</form>", start)]
    data = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if name is None or (kind and kind.group(1) == "submit"):
            continue
        if kind and kind.group(1) == "checkbox":
            if " checked" in tag:
                data[name.group(1)] = "on"
            continue
        value = re.search(r'value="([^"]*)"', tag)
        data[name.group(1)] = value.group(1) if value else ""
    for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', options) or re.search(
            r'<option value="([^"]*)"', options
        )
        assert chosen is not None
        data[name] = chosen.group(1)
    return data


def _category(data, row, name, kind, value, amount):
    data.update(
        {
            f"prizes-{row}-kind": "category",
            f"prizes-{row}-category": name,
            f"prizes-{row}-eligibility_kind": kind,
            f"prizes-{row}-eligibility_value": value,
            f"prizes-{row}-amount": amount,
        }
    )


def _preview(page: str) -> dict:
    table = page[page.index('id="prize-preview"') :]
    return dict(re.findall(r"<tr><td>[^<]*</td><td><bdi>([^<]+)</bdi></td><td class=\"num\">([^<]+)</td>", table))


def _women_and_u2000():
    # Ann (a woman rated 1900) leads; Bea (a woman rated 2100) is second, Cy (a man rated 1800) third
    event, _snapshot = snapshot_event(
        [
            player("Ann", 3, rating=1900, sex="w"),
            player("Bea", 2, rating=2100, sex="w"),
            player("Cy", 1, rating=1800, sex="m"),
        ],
        status=Event.Status.RUNNING,
    )
    return event


def test_the_saved_prizes_pay_the_players_the_preview_showed(client):
    event = _women_and_u2000()
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/prizes/"
    data = _form_data(client.get(url).content.decode())
    assert data["prizes-TOTAL_FORMS"] == "2"
    # two equal category prizes, U2000 first: Ann, eligible for both, takes the first; Bea is the best woman left
    _category(data, 0, "U2000", "rating_below", "2000", "50")
    _category(data, 1, "Best woman", "sex", "w", "50")
    data["published"] = "on"
    preview = _preview(client.post(url, dict(data, preview="1")).content.decode())
    assert preview == {"Ann": "£50", "Bea": "£50"}
    assert client.post(url, data).status_code == 302
    allocation = PrizeAllocation.objects.get(fund__event=event)
    awards = allocation.awards.select_related("entry__player")
    paid = {present(award.entry.player).name: f"£{award.money // 100}" for award in awards}
    assert paid == preview
    assert _preview(client.get(url).content.decode()) == preview  # the page shows the saved prizes' preview
    winners = APIClient().get(f"/api/v1/events/{event.slug}/prizes/").json()
    assert [p["category"] for p in winners["prizes"]] == ["U2000", "Best woman"]  # the organiser's order


def test_saving_the_prizes_again_keeps_their_order_and_adds_no_rows(client):
    event = _women_and_u2000()
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/prizes/"
    data = _form_data(client.get(url).content.decode())
    data.update({"prizes-0-place": "1", "prizes-0-amount": "100"})
    _category(data, 1, "U2000", "rating_below", "2000", "50")
    assert client.post(url, data).status_code == 302
    stored = list(Prize.objects.filter(fund__event=event).values_list("kind", "place", "category", "amount"))
    assert stored == [("place", 1, "", 10000), ("category", None, "U2000", 5000)]
    for _ in range(2):  # the page as shown, two blank rows offered below the prizes, sent back unchanged
        again = _form_data(client.get(url).content.decode())
        assert again["prizes-TOTAL_FORMS"] == "4" and again["prizes-0-kind"] == "place"
        again["prizes-3-kind"] = "club_team"  # a blank row whose kind was touched is still a blank row
        assert client.post(url, again).status_code == 302
        assert list(Prize.objects.filter(fund__event=event).values_list("kind", "place", "category", "amount")) == (
            stored
        )


def test_a_new_prize_fund_is_in_the_leagues_currency(client):
    event = _women_and_u2000()
    event.league.currency = "NOK"
    event.league.save()
    client.force_login(organiser_of(event.league))
    page = client.get(f"/en/manage/events/{event.slug}/prizes/").content.decode()
    assert _form_data(page)["currency"] == "NOK"
    assert Entry.objects.filter(event=event).count() == 3


def test_an_event_added_in_the_admin_gets_the_recommended_order(client):
    d = division()
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    page = client.get("/admin/leagues/event/add/").content.decode()
    fields = {
        name: value
        for name, value in re.findall(r'<input[^>]* name="([^"]+)"[^>]* value="([^"]*)"', page)
        if name != "csrfmiddlewaretoken"
    }
    fields.update(
        league=d.league.pk,
        name="Autumn round robin",
        slug="autumn",
        kind="individual",
        system="rr",
        status="draft",
        rounds_count=5,
        rule_set="fide-2026",
        tiebreak_criteria="[]",
        primary_score="mp",
    )
    response = client.post("/admin/leagues/event/add/", fields)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Event.objects.get(slug="autumn").tiebreak_criteria == ["SB", "DE", "KS"]
