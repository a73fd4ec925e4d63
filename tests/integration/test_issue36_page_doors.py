"""Issue 36: what a write changed reaches the cached public pages the same way through every door. Each test reads a
page twice (rendered, then kept in the cache), writes through one door (a management page, the API, a TRF import,
the admin, a command) and reads the page again as an anonymous reader: it shows the change at once. No model signal
carries the change: the services say what they changed (page_cache.pages_changed), and so does the admin."""

import json
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from leagues.models import Event, Game, Player, Team
from leagues.services.match_cards import match_card_submit
from leagues.services.results import result_record
from leagues.services.trf import event_import_trf
from tests.factories import ClubFactory, LeagueFactory, UserFactory, organiser_of, swiss_event
from tests.helpers import team_match
from tests.paths import GOLDEN

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _cached(client, url: str) -> str:
    """The page as an anonymous reader has it, read twice: the second answer comes from the cache."""
    first = client.get(url)
    assert first.status_code == 200, url
    again = client.get(url)
    assert again.content == first.content
    return again.content.decode()


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _admin_post(client, url: str, changes: dict) -> None:
    """Save the admin's change form at `url` as the staff member would: every field as the form shows it (the
    inlines' rows too), with `changes`."""
    page = client.get(url)
    assert page.status_code == 200, url
    data: dict = {}

    def put(form) -> None:
        for bound in form:
            widget, value = bound.field.widget, bound.value()
            names = getattr(widget, "widgets_names", None)
            if names is not None:  # a widget of several inputs (a date and a time)
                parts = widget.decompress(value) if not isinstance(value, list) else value
                for suffix, part in zip(names, parts, strict=False):
                    data[bound.html_name + suffix] = "" if part is None else part
            elif isinstance(value, bool):
                if value:
                    data[bound.html_name] = "on"
            elif isinstance(value, list | tuple):
                data[bound.html_name] = [str(v) for v in value]
            else:
                data[bound.html_name] = "" if value is None else value

    put(page.context["adminform"].form)
    for inline in page.context["inline_admin_formsets"]:
        formset = inline.formset
        initial = len(formset.initial_forms)
        prefix = formset.prefix
        data.update({f"{prefix}-TOTAL_FORMS": initial, f"{prefix}-INITIAL_FORMS": initial})
        data.update({f"{prefix}-MIN_NUM_FORMS": 0, f"{prefix}-MAX_NUM_FORMS": 1000})
        for form in formset.initial_forms:
            put(form)
    data.update(changes)
    answer = client.post(url, data)
    assert answer.status_code == 302, answer.context["adminform"].form.errors if answer.context else answer


def _points(client, slug: str) -> dict[int, Fraction]:
    """Start number → points, as the standings API shows them (read twice: cached)."""
    rows = json.loads(_cached(client, f"/api/v1/events/{slug}/standings/"))["rows"]
    return {row["start_number"]: Fraction(str(row["points"])) for row in rows}


# ------------------------------------------------------------------------------------------ a management page


def test_a_player_renamed_on_the_registry_page_shows_at_once_on_the_cached_pages(client):
    club = ClubFactory()
    event, entries, games = swiss_event(players=2, club=club)
    organiser = organiser_of(event.league)
    result_record(game_id=games[0].pk, result="1-0", user=organiser)
    page = f"/en/events/{event.slug}/"
    assert "Renamed, Ada" not in _cached(client, page)
    player = entries[0].player
    answer = _logged_in(organiser).post(
        f"/en/manage/leagues/{event.league.slug}/players/{player.pk}/", {"name": "Renamed, Ada", "rating": 1800}
    )
    assert answer.status_code == 302
    assert "Renamed, Ada" in client.get(page).content.decode()
    rows = client.get(f"/api/v1/events/{event.slug}/standings/").json()["rows"]
    assert "Renamed, Ada" in [row["name"] for row in rows]


def test_a_result_entered_on_the_round_sheet_shows_at_once_in_the_cached_standings(client):
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    result_record(game_id=games[1].pk, result="1/2-1/2", user=organiser)  # standings exist: the page is cached
    assert _points(client, event.slug)[games[0].white.start_number] == Fraction(0)
    form: dict[str, object] = {"reason": ""}
    for game in Game.objects.filter(round__event=event, round__number=1):  # every board of the sheet, as it is
        form[f"result_{game.pk}"] = "1-0" if game.pk == games[0].pk else game.result
        form[f"version_{game.pk}"] = game.version
    answer = _logged_in(organiser).post(f"/en/manage/events/{event.slug}/rounds/1/", form)
    assert answer.status_code in (200, 302)
    assert Game.objects.get(pk=games[0].pk).result == "1-0"
    assert _points(client, event.slug)[games[0].white.start_number] == Fraction(1)


# ------------------------------------------------------------------------------------------ the API


def test_a_result_through_the_api_shows_at_once_in_the_cached_standings(client):
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    result_record(game_id=games[1].pk, result="1/2-1/2", user=organiser)
    black = games[0].black.start_number
    assert _points(client, event.slug)[black] == Fraction(0)
    api = APIClient()
    api.force_login(organiser)
    answer = api.post(f"/api/v1/games/{games[0].pk}/result/", {"result": "0-1"}, format="json")
    assert answer.status_code == 200, answer.content
    assert _points(client, event.slug)[black] == Fraction(1)


# ------------------------------------------------------------------------------------------ a TRF import


def _first_rounds(trf: str, rounds: int) -> str:
    """The file as it stood after `rounds` rounds (the points column blank: the reader adds up the games)."""
    lines = []
    for line in trf.splitlines():
        if line.startswith("001"):
            line = (line[:80] + "    " + line[84 : 89 + 10 * rounds]).rstrip()
        lines.append(line)
    return "\n".join(lines)


def test_a_trf_import_into_the_event_shows_at_once_in_the_cached_standings(client, tmp_path):
    trf = json.loads((GOLDEN / "swiss-p008-r05-s01000.json").read_text())["trf"]
    league = LeagueFactory()
    organiser = organiser_of(league)
    event = event_import_trf(
        league=league, name="Autumn", slug="autumn", data=_first_rounds(trf, 3).encode(), user=organiser
    )
    # eight players, four games a round, one point a game: 12 points after three rounds, 20 after five
    assert sum(_points(client, event.slug).values()) == 12
    path = tmp_path / "autumn.trf"
    path.write_text(trf)
    call_command("import_trf", str(path), league=league.slug, user=organiser.username, event=event.slug)
    assert Game.objects.filter(round__event=event).count() == 20
    assert sum(_points(client, event.slug).values()) == 20


# ------------------------------------------------------------------------------------------ the admin


def test_a_player_renamed_in_the_admin_shows_at_once_on_the_cached_pages(client):
    event, entries, games = swiss_event(players=2)
    result_record(game_id=games[0].pk, result="1-0", user=organiser_of(event.league))
    page = f"/en/events/{event.slug}/"
    assert "Renamed, Ada" not in _cached(client, page)
    staff = _logged_in(UserFactory(is_staff=True, is_superuser=True))
    player = entries[0].player
    _admin_post(staff, f"/admin/leagues/player/{player.pk}/change/", {"name": "Renamed, Ada"})
    assert Player.objects.get(pk=player.pk).name == "Renamed, Ada"
    assert "Renamed, Ada" in client.get(page).content.decode()
    rows = client.get(f"/api/v1/events/{event.slug}/standings/").json()["rows"]
    assert "Renamed, Ada" in [row["name"] for row in rows]


def test_a_team_renamed_in_the_admin_shows_at_once_on_the_cached_page(client):
    event, match, boards, (home, _away) = team_match(boards=1)
    match_card_submit(match_id=match.pk, results={boards[0].pk: ("1/2-1/2", 0)}, user=home, expected_version=0)
    page = f"/en/events/{event.slug}/"
    assert "Renamed Rooks" not in _cached(client, page)
    staff = _logged_in(UserFactory(is_staff=True, is_superuser=True))
    _admin_post(staff, f"/admin/leagues/team/{match.home.team_id}/change/", {"name": "Renamed Rooks"})
    assert Team.objects.get(pk=match.home.team_id).name == "Renamed Rooks"
    assert "Renamed Rooks" in client.get(page).content.decode()


def test_an_event_renamed_or_given_another_address_in_the_admin_shows_at_once(client):
    event, _entries, games = swiss_event(players=2)
    result_record(game_id=games[0].pk, result="1-0", user=organiser_of(event.league))
    old = f"/en/events/{event.slug}/"
    assert "Winter Cup" not in _cached(client, old)
    staff = _logged_in(UserFactory(is_staff=True, is_superuser=True))
    _admin_post(staff, f"/admin/leagues/event/{event.pk}/change/", {"name": "Winter Cup"})
    assert "Winter Cup" in client.get(old).content.decode()
    _cached(client, old)
    _admin_post(staff, f"/admin/leagues/event/{event.pk}/change/", {"slug": "winter-cup"})
    assert Event.objects.get(pk=event.pk).slug == "winter-cup"
    assert client.get(old).status_code == 404  # the page kept under the old address is gone
    assert "Winter Cup" in client.get("/en/events/winter-cup/").content.decode()


# ------------------------------------------------------------------------------------------ no model signal


def test_no_model_signal_of_the_site_does_work_of_the_domain():
    """The path of a write is visible from the service that makes it: no receiver of the site listens to the saves
    and deletes of its models (the login throttle's receivers listen to logins, not to rows)."""
    from django.apps import apps
    from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete, pre_save

    receivers = []
    for model in apps.get_app_config("leagues").get_models():
        for signal in (pre_save, post_save, pre_delete, post_delete, m2m_changed):
            live = signal._live_receivers(model)
            sync_and_async = live if isinstance(live, tuple) else (live,)
            receivers += [
                (model.__name__, receiver.__module__)
                for part in sync_and_async
                for receiver in part
                if getattr(receiver, "__module__", "").startswith(("leagues", "tiebreaks", "pairings", "config"))
            ]
    assert receivers == []
