"""Issue #33: organisers undo their mistakes. An event, club, player or entry without results is deleted after a
confirmation page; one with results cannot be, and is archived (retired) instead: nothing leaves the public record,
the lists no longer show it. Through the pages and the API, each action in the league's set-up log."""

import pytest
from rest_framework.test import APIClient

from leagues.models import Club, Entry, Event, Game, Player, Result, SetupChange, Team
from leagues.services.tokens import api_token_create
from tests.factories import (
    ClubFactory,
    EntryFactory,
    EventFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    SeasonFactory,
    TeamFactory,
    organiser_of,
    swiss_event,
)

pytestmark = pytest.mark.django_db


def _remove_url(league, subject, pk):
    return f"/en/manage/leagues/{league.slug}/remove/{subject}/{pk}/"


def _played_event():
    """A published Swiss event of four players whose round 1 has a result on board 1."""
    season = SeasonFactory(slug="season-2026")
    event, entries, games = swiss_event(players=4, name="Autumn Open", slug="autumn-open", league=season.league)
    event.season = season
    event.save()
    Game.objects.filter(pk=games[0].pk).update(result=Result.WHITE_WINS)
    return event, entries


def test_an_event_without_results_is_deleted_after_a_confirmation(client):
    event = EventFactory(name="Typo Open", slug="typo-open", status="draft")
    EntryFactory(event=event, start_number=1, player=PlayerFactory())
    organiser = organiser_of(event.league)
    client.force_login(organiser)
    url = _remove_url(event.league, "event", event.pk)

    page = client.get(url)

    assert page.status_code == 200
    assert "has no results. Deleting it cannot be undone." in page.content.decode()
    assert Event.objects.filter(pk=event.pk).exists()  # the page only asks
    answer = client.post(url, {"action": "delete"})
    assert answer.status_code == 302
    assert not Event.objects.filter(pk=event.pk).exists()
    log = SetupChange.objects.get(league=event.league)
    assert (log.subject, log.action, log.name, log.user) == ("event", "deleted", "Typo Open", organiser)
    league_page = client.get(f"/en/manage/leagues/{event.league.slug}/").content.decode()
    assert "event: deleted" in league_page and "Typo Open" in league_page  # the league's set-up log


def test_an_event_with_results_is_archived_not_deleted_and_stays_readable(client):
    event, _entries = _played_event()
    client.force_login(organiser_of(event.league))
    url = _remove_url(event.league, "event", event.pk)

    page = client.get(url).content.decode()
    assert "has results, so it cannot be deleted" in page
    assert 'value="delete"' not in page
    refused = client.post(url, {"action": "delete"})  # forged around the page
    assert refused.status_code == 400
    assert "Autumn Open has results, so it cannot be deleted: archive it instead" in refused.content.decode()
    assert Event.objects.filter(pk=event.pk).exists()
    assert Game.objects.filter(round__event=event).count() == 2

    assert client.post(url, {"action": "archive"}).status_code == 302

    event.refresh_from_db()
    assert event.archived
    assert client.get(f"/en/events/{event.slug}/").status_code == 200  # its standings stay readable
    assert client.get(f"/en/events/{event.slug}/crosstable/").status_code == 200
    assert "Autumn Open" not in client.get("/en/").content.decode()
    season_page = client.get(f"/en/leagues/{event.league.slug}/seasons/{event.season.slug}/")
    assert season_page.status_code == 200
    assert "Autumn Open" not in season_page.content.decode()
    listed = APIClient().get("/api/v1/events/").json()
    assert event.slug not in [e["slug"] for e in listed["results"]]
    assert APIClient().get(f"/api/v1/events/{event.slug}/").status_code == 200

    assert client.post(url, {"action": "restore"}).status_code == 302
    assert "Autumn Open" in client.get("/en/").content.decode()
    assert list(SetupChange.objects.values_list("action", flat=True).order_by("id")) == ["archived", "restored"]


def test_a_player_with_results_is_retired_and_keeps_their_history(client):
    event, entries = _played_event()
    league = event.league
    player = entries[0].player
    league.players.add(player)
    client.force_login(organiser_of(league))
    url = _remove_url(league, "player", player.pk)

    refused = client.post(url, {"action": "delete"})
    assert refused.status_code == 400
    assert Player.objects.filter(pk=player.pk).exists()

    assert client.post(url, {"action": "archive"}).status_code == 302
    player.refresh_from_db()
    assert player.retired
    assert Entry.objects.filter(player=player, event=event).exists()
    assert client.get(f"/en/events/{event.slug}/players/1/").status_code == 200
    other = EventFactory(league=league, status="draft")
    form = client.get(f"/en/manage/events/{other.slug}/entries/").content.decode()
    assert f'value="{player.pk}"' not in form  # no longer offered for a new entry


def test_a_player_without_results_is_deleted(client):
    league = EventFactory().league
    player = PlayerFactory(name="Wrong, Name")
    league.players.add(player)
    client.force_login(organiser_of(league))
    assert client.post(_remove_url(league, "player", player.pk), {"action": "delete"}).status_code == 302
    assert not Player.objects.filter(pk=player.pk).exists()


def test_a_club_with_team_results_is_retired_and_one_without_is_deleted(client):
    event = EventFactory(kind="team", slug="team-league")
    league = event.league
    played, spare = ClubFactory(name="Played CC"), ClubFactory(name="Spare CC")
    league.clubs.add(played, spare)
    home = TeamFactory(event=event, club=played)
    away = TeamFactory(event=event, club=ClubFactory())
    rnd = RoundFactory(event=event)
    home_entry = EntryFactory(event=event, start_number=1, team=home, player=None)
    away_entry = EntryFactory(event=event, start_number=2, team=away, player=None)
    GameFactory(round=rnd, board=1, white=home_entry, black=away_entry, result=Result.DRAW)
    client.force_login(organiser_of(league))

    refused = client.post(_remove_url(league, "club", played.pk), {"action": "delete"})
    assert refused.status_code == 400
    assert "Played CC has results, so it cannot be deleted: retire it instead" in refused.content.decode()
    assert client.post(_remove_url(league, "club", played.pk), {"action": "archive"}).status_code == 302
    assert Club.objects.get(pk=played.pk).retired
    assert Team.objects.filter(pk=home.pk).exists()
    assert "Played CC" not in client.get("/en/clubs/").content.decode()
    assert client.get(f"/en/clubs/{played.slug}/").status_code == 200  # its page and history stay

    assert client.post(_remove_url(league, "club", spare.pk), {"action": "delete"}).status_code == 302
    assert not Club.objects.filter(pk=spare.pk).exists()


def test_the_api_refuses_to_delete_what_has_results_and_archives_it():
    event, _entries = _played_event()
    _, key = api_token_create(user=organiser_of(event.league), name="setup", scopes=["organiser"])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")

    refused = api.post(f"/api/v1/events/{event.slug}/delete/")
    assert refused.status_code == 400
    assert refused.json()["code"] == "has_results"
    assert Event.objects.filter(pk=event.pk).exists()
    entry = api.post(f"/api/v1/events/{event.slug}/entries/1/delete/")
    assert entry.status_code == 400 and entry.json()["code"] == "has_results"

    archived = api.post(f"/api/v1/events/{event.slug}/archive/")
    assert archived.status_code == 200 and archived.json() == {"done": "archived"}
    assert Event.objects.get(pk=event.pk).archived
    assert SetupChange.objects.get(league=event.league).source == "api"

    draft = EventFactory(league=event.league, status="draft", slug="empty-draft")
    assert api.post(f"/api/v1/events/{draft.slug}/delete/").json() == {"done": "deleted"}
    assert not Event.objects.filter(slug="empty-draft").exists()

    _, results_key = api_token_create(user=organiser_of(event.league), name="results", scopes=["results"])
    results_only = APIClient()
    results_only.credentials(HTTP_AUTHORIZATION=f"Bearer {results_key}")
    assert results_only.post(f"/api/v1/events/{event.slug}/restore/").status_code == 403


def test_the_entries_lists_remove_asks_for_a_confirmation_first(client):
    """The organiser's entries list offers "Remove" as a link to the confirmation page: opening it, or posting the
    list's old one-click removal, takes nobody off; the confirmation's Delete does, and is logged."""
    event = EventFactory(status="published")
    kept, removed = (
        EntryFactory(event=event, start_number=n, player=PlayerFactory(name=name), rating=2000 - n)
        for n, name in ((1, "Kept, Karl"), (2, "Removed, Rita"))
    )
    client.force_login(organiser_of(event.league))
    entries = f"/en/manage/events/{event.slug}/entries/"
    confirm = _remove_url(event.league, "entry", removed.pk)
    page = client.get(entries).content.decode()
    assert f'href="{confirm}"' in page and 'aria-label="Remove Removed, Rita"' in page
    assert 'name="action" value="remove"' not in page  # no button that removes at once
    client.post(entries, {"action": "remove", "entry": removed.pk})
    assert Entry.objects.filter(pk=removed.pk).exists()
    asked = client.get(confirm).content.decode()
    assert "Removed, Rita</bdi> has no results. Deleting it cannot be undone." in asked
    assert Entry.objects.filter(pk=removed.pk).exists()
    done = client.post(confirm, {"action": "delete"}, follow=True)
    assert done.redirect_chain[-1][0] == entries
    assert "Removed, Rita is deleted." in done.content.decode()
    assert list(Entry.objects.filter(event=event).values_list("pk", flat=True)) == [kept.pk]
    assert SetupChange.objects.filter(subject=SetupChange.Subject.ENTRY, action=SetupChange.Action.DELETED).exists()


def test_a_team_without_matches_is_deleted_from_its_event_after_a_confirmation(client):
    event = EventFactory(kind=Event.Kind.TEAM, system=Event.System.SWISS, name="Team Open", slug="team-open")
    organiser = organiser_of(event.league)
    first, second = TeamFactory(event=event, name="Fjord 1"), TeamFactory(event=event, name="Fjord 2")
    entry = Entry.objects.create(event=event, start_number=1, team=first)
    Entry.objects.create(event=event, start_number=2, team=second)
    client.force_login(organiser)
    url = _remove_url(event.league, "entry", entry.pk)
    assert "Fjord 1" in client.get(url).content.decode()  # the confirmation names the team
    client.post(url, {"action": "delete"})
    assert list(event.entries.values_list("team__name", "start_number")) == [("Fjord 2", 1)]
    assert not Team.objects.filter(name="Fjord 1").exists()
    assert SetupChange.objects.filter(action=SetupChange.Action.DELETED, name="Fjord 1").exists()
