"""The organisers' and secretaries' workspace: dashboards, match cards with line-ups, round sheets,
set-up pages, prizes in currency units, people, disputes, error pages."""

import hashlib
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.text import slugify

from leagues.models import Entry, Event, Game, Prize, Result, Role, TeamMatch
from leagues.services.match_cards import match_card_submit
from tests.factories import ClubFactory, UserFactory, organiser_of, swiss_event
from tests.helpers import present
from tests.paths import GOLDEN
from tests.workspace import card_post, division

pytestmark = pytest.mark.django_db


def test_the_submitting_club_waits_and_the_other_club_answers(client):
    d = division()
    match = d.match()
    home_secretary, away_secretary = d.secretaries
    client.force_login(home_secretary)
    url = f"/en/manage/matches/{match.pk}/"
    page = client.get(url).content.decode()
    assert "Fjord, Player1" in page and "Bosporus, Player1" in page  # each side's roster to choose from
    assert client.post(url, card_post(match, {1: "1-0", 2: "1/2-1/2"})).status_code == 302
    mine = client.get(url).content.decode()
    assert "Confirm the card" not in mine and "Dispute" not in mine
    assert "submitted by sec-fjord" in mine
    dashboard = client.get("/en/manage/").content.decode()
    assert "waiting for Bosporus SK 1 since" in dashboard
    client.force_login(away_secretary)
    dashboard = client.get("/en/manage/").content.decode()
    assert f"/en/manage/matches/{match.pk}/" in dashboard and "Match cards to confirm" in dashboard
    theirs = client.get(url).content.decode()
    assert "Confirm the card" in theirs and "Dispute" in theirs
    assert 'name="result_' not in theirs  # the answering club reads the card, it does not retype it


def test_the_card_reads_from_the_home_side_and_scores_the_match(client):
    d = division()
    match = d.match()
    client.force_login(d.secretaries[0])
    url = f"/en/manage/matches/{match.pk}/"
    games = {g.board: g for g in match.games.all()}
    # the home team wins board 1 and loses board 2, whatever colours they had
    home_win_1 = "1-0" if games[1].white_id == match.home_id else "0-1"
    away_win_2 = "0-1" if games[2].white_id == match.home_id else "1-0"
    client.post(url, card_post(match, {1: home_win_1, 2: away_win_2}))
    page = client.get(url).content.decode()
    assert re.search(r'<output id="match-score" aria-live="polite"[^>]*>1 – 1</output>', page)
    assert page.index(
        present(games[1].white_player).name
        if games[1].white_id == match.home_id
        else present(games[1].black_player).name
    ) < page.index('id="match-score"')


def test_a_reserve_is_chosen_from_the_roster_and_a_stranger_is_refused(client):
    d = division(boards=2, players_per_club=3)
    match = d.match()
    home, away = d.players["fjord"], d.players["bosporus"]
    client.force_login(d.secretaries[0])
    url = f"/en/manage/matches/{match.pk}/"
    page = client.get(url).content.decode()
    assert "Reserves" in page
    reserve = home[2]
    assert client.post(url, card_post(match, {1: "1-0"}, lineup={1: (reserve.pk, away[0].pk)})).status_code == 302
    board_1 = Game.objects.get(match=match, board=1)
    assert reserve.pk in (board_1.white_player_id, board_1.black_player_id)
    stranger = away[1]  # the other club's player on the home side
    match.refresh_from_db()
    refused = client.post(url, card_post(match, {2: "1-0"}, lineup={2: (stranger.pk, away[0].pk)}))
    assert refused.status_code == 400
    assert Game.objects.get(match=match, board=2).result == ""


def test_round_sheet_edits_only_my_games_names_the_board_and_keeps_what_was_typed(client):
    mine, other = ClubFactory(), ClubFactory()
    event, entries, games = swiss_event(players=4, club=mine)
    secretary = UserFactory()
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=mine)
    client.force_login(organiser_of(event.league))
    url = f"/en/manage/events/{event.slug}/rounds/1/"
    client.post(
        url,
        {
            "reason": "",
            f"result_{games[0].pk}": "1-0",
            f"version_{games[0].pk}": 0,
            f"result_{games[1].pk}": "",
            f"version_{games[1].pk}": 0,
        },
    )
    client.force_login(secretary)
    # board 1 was entered (a correction needs a reason); board 2 typed as a draw: refused whole, board named
    response = client.post(
        url,
        {
            "reason": "",
            f"result_{games[0].pk}": "0-1",
            f"version_{games[0].pk}": 1,
            f"result_{games[1].pk}": "1/2-1/2",
            f"version_{games[1].pk}": 0,
        },
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Board 1: A correction needs a reason." in page
    assert 'value="1/2-1/2" selected' in page  # what was typed for board 2 is kept
    assert Game.objects.get(pk=games[1].pk).result == ""
    # a player of another club: that game is shown, not editable
    outsider = entries[0].player
    outsider.clubmembership_set.all().delete()
    outsider.clubmembership_set.create(club=other)
    entries[2].player.clubmembership_set.all().delete()
    entries[2].player.clubmembership_set.create(club=other)
    page = client.get(url).content.decode()
    assert f'name="result_{games[0].pk}"' not in page and f'name="result_{games[1].pk}"' in page
    assert "Other games of the round" in page


def test_secretary_dashboard_links_only_to_pages_the_role_opens(client):
    d = division()
    client.force_login(d.secretaries[0])
    page = client.get("/en/manage/").content.decode()
    assert "/policy/" not in page and "/audit/" not in page and "/fixtures/" not in page
    assert client.get(f"/en/manage/events/{d.event.slug}/policy/").status_code == 403


def test_styled_error_pages_in_the_users_language(client):
    client.force_login(UserFactory(username="nobody"))
    forbidden = client.get("/he/manage/leagues/none/")
    assert forbidden.status_code == 404
    d = division()
    response = client.get(f"/nb/manage/leagues/{d.league.slug}/")
    assert response.status_code == 403
    page = response.content.decode()
    assert 'lang="nb"' in page and 'href="/nb/manage/"' in page  # a way back, in the language of the page
    missing = client.get("/el/events/no-such-event/")
    assert missing.status_code == 404 and 'lang="el"' in missing.content.decode()
    assert 'href="/el/"' in missing.content.decode()


def test_public_pages_have_a_login_link_and_say_who_is_logged_in(client):
    event, _entries, _games = swiss_event(players=4)
    page = client.get(f"/en/events/{event.slug}/").content.decode()
    assert 'href="/en/accounts/login/">Log in</a>' in page  # to the dashboard (issue 38)
    client.force_login(UserFactory(username="ingrid"))
    page = client.get(f"/en/events/{event.slug}/").content.decode()
    assert "Logged in as <bdi>ingrid</bdi>" in page


def test_django_admin_is_for_staff_only(client):
    d = division()
    client.force_login(d.organiser)
    assert client.get("/admin/").status_code == 302  # to the admin's login: the organiser is no staff


def test_organiser_sets_up_an_event_with_round_dates_and_form_errors_next_to_fields(client):
    d = division()
    client.force_login(d.organiser)
    url = f"/en/manage/leagues/{d.league.slug}/events/new/"
    bad = client.post(
        url,
        {
            "name": "Open",
            "slug": "bad slug!",
            "kind": "individual",
            "system": "swiss",
            "rounds_count": 3,
            "boards": 4,
            "points_win": 1,
            "points_draw": "0.5",
            "points_loss": 0,
            "primary_score": "gp",
            "match_points_win": 2,
            "match_points_draw": 1,
            "match_points_loss": 0,
        },
    )
    assert bad.status_code == 400
    page = bad.content.decode()
    assert page.index('id="id_slug"') < page.index('class="field-error"') < page.index('id="id_kind"')
    good = client.post(
        url,
        {
            "name": "Open",
            "slug": "spring-open",
            "kind": "individual",
            "system": "swiss",
            "rounds_count": 3,
            "boards": 4,
            "points_win": 1,
            "points_draw": "0.5",
            "points_loss": 0,
            "primary_score": "gp",
            "match_points_win": 2,
            "match_points_draw": 1,
            "match_points_loss": 0,
            "starts_on": "2026-03-02",
            "round_2": "2026-03-16",
            "venue": "Deichman Grünerløkka",
            "time_control": "90 min + 30 s",
        },
    )
    assert good.status_code == 302
    event = Event.objects.get(slug="spring-open")
    assert [str(r.date) for r in event.rounds.order_by("number")] == ["2026-03-02", "2026-03-16", "2026-03-23"]
    assert event.venue == "Deichman Grünerløkka" and event.status == Event.Status.DRAFT


def test_registering_players_and_a_late_entry_gets_byes(client):
    event, entries, _games = swiss_event(players=4, club=ClubFactory())
    club = entries[0].player.clubs.first()
    event.league.clubs.add(club)
    organiser = organiser_of(event.league)
    client.force_login(organiser)
    from tests.factories import PlayerFactory

    late = PlayerFactory(name="Late, Comer")
    late.clubmembership_set.create(club=club)
    response = client.post(f"/en/manage/events/{event.slug}/entries/", {"player": late.pk, "late_bye": "half"})
    assert response.status_code == 302
    entry = Entry.objects.get(event=event, player=late)
    assert entry.start_number == 5
    bye = Game.objects.get(round__event=event, round__number=1, white=entry)
    assert bye.result == Result.HALF_POINT_BYE


def test_prizes_are_typed_in_pounds_not_pence(client):
    d = division()
    client.force_login(d.organiser)
    url = f"/en/manage/events/{d.event.slug}/prizes/"
    data = {
        "currency": "GBP",
        "method": "pool",
        "one_prize_per_player": "on",
        "remainder": "round_down",
        "item_tie": "lot",
        "published": "on",
        "prizes-TOTAL_FORMS": 2,
        "prizes-INITIAL_FORMS": 0,
        "prizes-0-kind": "place",
        "prizes-0-place": 1,
        "prizes-0-amount": "300",
        "prizes-0-rank": 1,
        "prizes-1-kind": "place",
        "prizes-1-place": 2,
        "prizes-1-amount": "150.50",
        "prizes-1-rank": 1,
    }
    assert client.post(url, data).status_code == 302
    assert sorted(Prize.objects.filter(fund__event=d.event).values_list("amount", flat=True)) == [15050, 30000]
    page = client.get(url).content.decode()
    assert 'value="300"' in page or 'value="300.00"' in page
    fractional = dict(data, **{"prizes-0-amount": "300.005"})
    assert client.post(url, fractional).status_code == 400
    assert sorted(Prize.objects.filter(fund__event=d.event).values_list("amount", flat=True)) == [15050, 30000]


def test_finishing_freezes_the_event(client):
    d = division()
    client.force_login(d.organiser)
    url = f"/en/manage/events/{d.event.slug}/status/"
    for status in ("running", "finished"):
        client.post(url, {"status": status})
    event = Event.objects.get(pk=d.event.pk)
    assert event.status == Event.Status.FINISHED
    match = d.match()
    client.force_login(d.secretaries[0])
    page = client.get(f"/en/manage/matches/{match.pk}/").content.decode()
    assert "Submit the card" not in page
    refused = client.post(f"/en/manage/matches/{match.pk}/", card_post(match, {1: "1-0"}))
    assert refused.status_code == 403
    assert client.post(url, {"status": "running"}).status_code == 403  # a secretary changes no event


def test_disputes_inbox_and_settlement_both_clubs_read(client):
    d = division()
    match = d.match()
    games = list(match.games.order_by("board"))
    submitted = match_card_submit(
        match_id=match.pk, results={games[0].pk: ("1-0", 0)}, user=d.secretaries[0], expected_version=0
    )
    client.force_login(d.secretaries[1])
    client.post(
        f"/en/manage/matches/{match.pk}/dispute/", {"reason": "Board 1 was a draw", "card_version": submitted.version}
    )
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.DISPUTED
    client.force_login(d.organiser)
    inbox = client.get(f"/en/manage/leagues/{d.league.slug}/disputes/").content.decode()
    assert "Board 1 was a draw" in inbox
    match.refresh_from_db()
    settle = f"/en/manage/matches/{match.pk}/settle/"
    assert client.post(settle, card_post(match, {1: "1/2-1/2"}, decision="")).status_code == 400
    response = client.post(settle, card_post(match, {1: "1/2-1/2"}, decision="The arbiter's scoresheet says draw."))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == TeamMatch.Status.CONFIRMED and match.games.get(board=1).result == "1/2-1/2"
    for secretary in d.secretaries:
        client.force_login(secretary)
        assert (
            "The arbiter&#x27;s scoresheet says draw." in client.get(f"/en/manage/matches/{match.pk}/").content.decode()
        )


def test_people_invited_and_removed(client):
    d = division()
    client.force_login(d.organiser)
    url = f"/en/manage/leagues/{d.league.slug}/people/"
    refused = client.post(url, {"email": "new@example.org", "kind": "secretary", "email_language": "tr"})
    assert refused.status_code == 400 and "choose it" in refused.content.decode()
    assert (
        client.post(
            url, {"email": "new@example.org", "kind": "secretary", "club": d.clubs[0].pk, "email_language": "tr"}
        ).status_code
        == 302
    )
    role = Role.objects.get(user__email="new@example.org")
    assert not role.user.has_usable_password() and role.user.profile.language == "tr"
    assert client.post(f"/en/manage/leagues/{d.league.slug}/people/{role.pk}/remove/").status_code == 302
    assert not Role.objects.filter(pk=role.pk).exists()


def test_the_account_page_leads_to_password_and_tokens(client):
    client.force_login(UserFactory(username="ingrid"))
    page = client.get("/nb/manage/account/").content.decode()
    assert 'href="/nb/accounts/password_change/"' in page and 'href="/nb/manage/account/tokens/"' in page


def test_trf_import_reads_name_and_address_from_the_file_and_keeps_it_after_an_error(client):
    d = division()
    season = d.league.seasons.create(name="2026", slug="2026")
    client.force_login(d.organiser)
    url = f"/en/manage/leagues/{d.league.slug}/import/"
    gold = json.loads((GOLDEN / "swiss-p009-r05-s01004.json").read_text())
    data = gold["trf"].encode()
    file_name = next(line[4:].strip() for line in gold["trf"].splitlines() if line.startswith("012"))
    bad = client.post(url, {"slug": "not a slug!", "file": SimpleUploadedFile("open.trf", data)})
    assert bad.status_code == 400
    page = bad.content.decode()
    assert "Kept from before: open.trf" in page and f'value="{file_name}"' in page
    preview = client.post(url, {"slug": "", "season": season.pk})  # no file chosen again
    assert preview.status_code == 200
    assert slugify(file_name) in preview.content.decode()
    done = client.post(url, {"confirm": "1", "publish": "1", "digest": hashlib.sha256(data).hexdigest()})
    assert done.status_code == 302
    event = Event.objects.get(slug=slugify(file_name))
    assert event.name == file_name and event.season == season


def test_league_settings_are_validated(client):
    d = division()
    client.force_login(d.organiser)
    url = f"/en/manage/leagues/{d.league.slug}/settings/"
    assert client.post(url, {"name": "Test League", "auto_confirm_days": 0}).status_code == 400
    assert client.post(url, {"name": "Fjord League", "auto_confirm_days": 5}).status_code == 302
    d.league.refresh_from_db()
    assert (d.league.name, d.league.auto_confirm_days) == ("Fjord League", 5)


def test_an_organiser_changes_a_role(client):
    d = division()
    client.force_login(d.organiser)
    role = Role.objects.get(user=d.secretaries[0])
    url = f"/en/manage/leagues/{d.league.slug}/people/{role.pk}/"
    assert client.post(url, {"kind": "arbiter"}).status_code == 400  # an arbiter needs the event
    assert client.post(url, {"kind": "arbiter", "event": d.event.pk}).status_code == 302
    role.refresh_from_db()
    assert (role.kind, role.event_id, role.club_id) == ("arbiter", d.event.pk, None)
