"""Issue 31 through the event's form: the rating for unrated players (0 to 3000) and the rating method are set
there; once round 1 is published FIDE mode refuses a change of either next to its field, and outside FIDE mode a
change needs a reason and is a hard warning on the audit page and the public notes, with who, when and why."""

import re

import pytest

from leagues.models import Result
from leagues.models.audit import SettingChange
from leagues.recompute import standings_recompute_event
from tests.factories import EventFactory, UserFactory, organiser_of, swiss_event
from tests.functional.test_issue31_fide_mode_pages import event_form, text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def started(client, fide_mode):
    event, _entries, games = swiss_event(players=4, fide_mode=fide_mode)
    games[0].result = Result.WHITE_WINS
    games[0].save()
    standings_recompute_event(event.pk)
    user = organiser_of(event.league)
    client.force_login(user)
    return event, user, f"/en/manage/leagues/{event.league.slug}/events/{event.slug}/edit/"


def test_the_event_form_sets_the_rating_for_unrated_players_and_refuses_one_above_3000(client):
    event = EventFactory()
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/leagues/{event.league.slug}/events/{event.slug}/edit/"
    assert 'name="unrated_rating"' in client.get(url).content.decode()
    refused = client.post(url, event_form(event, unrated_rating="3200", rating_method="FIDE"))
    assert refused.status_code == 400 and "The rating for unrated players is between 0 and 3000." in text(refused)
    assert client.post(url, event_form(event, unrated_rating="1400", rating_method="FIDE")).status_code == 302
    event.refresh_from_db()
    assert event.unrated_rating == 1400


def test_in_fide_mode_the_form_refuses_a_new_rating_method_after_round_one(client):
    event, _user, url = started(client, fide_mode=True)
    refused = client.post(url, event_form(event, rating_method="HBFN", reason="asked"))
    assert refused.status_code == 400
    assert "The event has started: in FIDE mode the rating method can no longer change" in text(refused)
    refused = client.post(url, event_form(event, rating_method="FIDE", unrated_rating="1500", reason="asked"))
    assert "in FIDE mode the rating for unrated players can no longer change" in text(refused)
    event.refresh_from_db()
    assert (event.rating_method, event.unrated_rating) == ("FIDE", None)
    assert "No setting changed after the start." in text(client.get(f"/en/manage/events/{event.slug}/audit/"))


def test_out_of_fide_mode_the_rating_method_and_the_rating_for_unrated_players_are_hard_warnings(client):
    event, user, url = started(client, fide_mode=False)
    refused = client.post(url, event_form(event, rating_method="NRO"))
    assert refused.status_code == 400 and "needs a reason, shown publicly with the change" in text(refused)
    fields = event_form(event, rating_method="NRO", unrated_rating="1200", reason="the national regulations")
    assert client.post(url, fields).status_code == 302
    standings_recompute_event(event.pk)
    assert {c.setting for c in SettingChange.objects.filter(event=event, user=user)} == {"rating_m", "unrated"}
    audit = text(client.get(f"/en/manage/events/{event.slug}/audit/"))
    public = text(client.get(f"/en/events/{event.slug}/"))
    for line in (
        rf"Hard warning: changed after the start, on [^(]+\({user.username}\): rating method, FIDE became NRO\. "
        r"Reason: the national regulations",
        rf"Hard warning: changed after the start, on [^(]+\({user.username}\): rating for unrated players, - "
        r"became 1200\. Reason: the national regulations",
    ):
        assert re.search(line, audit), audit
        assert re.search(line, public), public
    norwegian = text(client.get(f"/nb/events/{event.slug}/"))
    assert "the national regulations" in norwegian and "rating method" not in norwegian


def test_the_admin_sends_a_change_after_the_start_to_the_event_form_where_it_is_recorded(client):
    event, _user, _url = started(client, fide_mode=False)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = f"/admin/leagues/event/{event.pk}/change/"
    page = client.get(url).content.decode()
    fields = {
        name: value
        for name, value in re.findall(r'<input[^>]* name="([^"]+)"[^>]* value="([^"]*)"', page)
        if name != "csrfmiddlewaretoken" and not name.startswith("_")
    }
    fields.update(league=event.league.pk, kind=event.kind, system=event.system, status=event.status)
    fields.update(primary_score=event.primary_score, rating_method="FIDE", tiebreak_ratings="first")
    refused = client.post(url, dict(fields, unrated_rating="1400"))
    assert refused.status_code == 200
    assert "The event has started: change it on the event&#x27;s form, which records it." in refused.content.decode()
    event.refresh_from_db()
    assert event.unrated_rating is None and not SettingChange.objects.filter(event=event).exists()
