"""A finished event is frozen at every door (pages, API, TRF import, admin): results, the tiebreak policy,
match cards and prizes. Only the league's organiser changes it, with a reason shown on the event's page."""

import pytest
from rest_framework.test import APIClient

from leagues.models import Event, FinishedEventChange, Game, Prize, Result, TeamMatch
from leagues.services.events import event_status_set
from leagues.services.match_cards import match_card_dispute, match_card_submit
from leagues.services.tokens import api_token_create
from tests.factories import ClubFactory, swiss_event
from tests.workspace import card_post, division

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _api(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=user, name='t', scopes=['organiser'])[1]}")
    return client


def _finish(d):
    for status in ("running", "finished"):
        event = Event.objects.get(pk=d.event.pk)
        if event.status != status:  # a first result starts the event
            event_status_set(event=event, user=d.organiser, status=status)


def _submitted_then_finished():
    """A division whose only card the home club submitted (2–0), then finished by the organiser."""
    d = division()
    match = d.match()
    games = list(match.games.order_by("board"))
    match_card_submit(
        match_id=match.pk,
        results={g.pk: (Result.WHITE_WINS if g.white_id == match.home_id else Result.BLACK_WINS, 0) for g in games},
        user=d.secretaries[0],
        expected_version=0,
    )
    _finish(d)
    return d, TeamMatch.objects.get(pk=match.pk)


def _stored(match):
    return list(Game.objects.filter(match=match).order_by("board").values_list("result", flat=True))


def test_the_match_card_page_offers_nothing_to_the_clubs_and_the_override_to_the_organiser(client):
    d, match = _submitted_then_finished()
    before = _stored(match)
    url = f"/en/manage/matches/{match.pk}/"
    client.force_login(d.secretaries[1])  # the club that would have answered the card
    page = client.get(url).content.decode()
    assert "Confirm the card" not in page and "Dispute" not in page and "Submit the card" not in page
    assert client.post(f"{url}confirm/", {"card_version": match.version}).status_code == 302
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.SUBMITTED  # refused, still submitted

    client.force_login(d.organiser)
    page = client.get(url).content.decode()
    assert 'id="finished-notice"' in page and "Save the correction" not in page
    no_reason = client.post(url, card_post(match, {1: Result.DRAW}))
    assert no_reason.status_code == 400
    assert "Changing a finished event needs a reason." in no_reason.content.decode()
    assert _stored(match) == before
    saved = client.post(url, card_post(match, {1: Result.DRAW}, reason="the arbiter's report of board 1"))
    assert saved.status_code == 302
    assert _stored(match)[0] == Result.DRAW
    client.logout()
    public = client.get(f"/en/events/{d.event.slug}/").content.decode()
    assert "A match card was changed after the event was finished" in public
    assert "the arbiter&#x27;s report of board 1" in public


def test_the_api_refuses_the_clubs_and_asks_the_organiser_for_a_reason():
    d, match = _submitted_then_finished()
    game = match.games.order_by("board").first()
    confirm = _api(d.secretaries[1]).post(f"/api/v1/matches/{match.pk}/confirm/", {"version": match.version})
    assert (confirm.status_code, confirm.json()["code"]) == (400, "event_finished")
    dispute = _api(d.secretaries[1]).post(
        f"/api/v1/matches/{match.pk}/dispute/", {"version": match.version, "reason": "board 2 was a draw"}
    )
    assert (dispute.status_code, dispute.json()["code"]) == (400, "event_finished")
    board = {"game": game.pk, "result": Result.DRAW, "version": game.version}
    body = {"version": match.version, "boards": [board]}
    again = _api(d.secretaries[0]).post(f"/api/v1/matches/{match.pk}/card/", body, format="json")
    assert (again.status_code, again.json()["code"]) == (400, "event_finished")
    no_reason = _api(d.organiser).post(f"/api/v1/matches/{match.pk}/card/", body, format="json")
    assert (no_reason.status_code, no_reason.json()["code"]) == (400, "reason_required")
    assert FinishedEventChange.objects.count() == 0 and _stored(match)[0] != Result.DRAW
    ok = _api(d.organiser).post(f"/api/v1/matches/{match.pk}/card/", dict(body, reason="appeal upheld"), format="json")
    assert ok.status_code == 200, ok.json()
    assert FinishedEventChange.objects.get().reason == "appeal upheld"

    event, _entries, games = swiss_event(players=2, club=ClubFactory(), status=Event.Status.FINISHED)
    from tests.factories import organiser_of

    organiser = organiser_of(event.league)
    url = f"/api/v1/games/{games[0].pk}/result/"
    refused = _api(organiser).post(url, {"result": Result.WHITE_WINS}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "reason_required")
    assert _api(organiser).post(url, {"result": "1-0", "reason": "late report"}, format="json").status_code == 200
    assert (
        "Results were changed after the event was finished"
        in APIClient().get(f"/en/events/{event.slug}/").content.decode()
    )


def test_a_dispute_is_settled_after_finishing_only_by_the_organiser_with_the_decision_public(client):
    d = division()
    match = d.match()
    games = list(match.games.order_by("board"))
    match_card_submit(
        match_id=match.pk, results={g.pk: (Result.DRAW, 0) for g in games}, user=d.secretaries[0], expected_version=0
    )
    match_card_dispute(match_id=match.pk, user=d.secretaries[1], reason="board 1 was won", expected_version=1)
    _finish(d)
    client.force_login(d.organiser)
    settled = client.post(
        f"/en/manage/matches/{match.pk}/settle/",
        dict(card_post(TeamMatch.objects.get(pk=match.pk), {1: Result.WHITE_WINS}), decision="board 1 was won"),
    )
    assert settled.status_code == 302
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.CONFIRMED
    assert "board 1 was won" in client.get(f"/en/events/{d.event.slug}/").content.decode()


def test_the_prizes_of_a_finished_event_change_only_with_a_public_reason(client):
    d = division()
    _finish(d)
    client.force_login(d.organiser)
    url = f"/en/manage/events/{d.event.slug}/prizes/"
    data = {
        "currency": "EUR",
        "method": "pool",
        "remainder": "round_down",
        "item_tie": "lot",
        "published": "on",
        "prizes-TOTAL_FORMS": 1,
        "prizes-INITIAL_FORMS": 0,
        "prizes-0-kind": "club_team",
        "prizes-0-rank": 1,
        "prizes-0-amount": "100",
        "prizes-0-team_size": 2,
    }
    page = client.get(url).content.decode()
    assert 'id="finished-notice"' in page and 'name="reason"' in page
    refused = client.post(url, data)
    assert refused.status_code == 400 and not Prize.objects.exists()
    assert client.post(url, dict(data, reason="sponsor added a prize")).status_code == 302
    assert Prize.objects.get().amount == 10000
    public = client.get(f"/en/events/{d.event.slug}/").content.decode()
    assert "The prizes were changed after the event was finished" in public and "sponsor added a prize" in public


def test_trf_import_and_admin_refuse_a_finished_event(client):
    import hashlib

    from django.core.files.uploadedfile import SimpleUploadedFile

    from leagues.services.trf import event_export_trf
    from tests.factories import UserFactory, organiser_of

    event, _entries, games = swiss_event(players=4, club=ClubFactory())
    organiser = organiser_of(event.league)
    trf = event_export_trf(event=event)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    client.force_login(organiser)
    url = f"/en/manage/leagues/{event.league.slug}/import/"
    data = trf.encode()
    preview = client.post(url, {"name": event.name, "slug": event.slug, "file": SimpleUploadedFile("u.trf", data)})
    assert "The event is finished; its results can no longer change." in preview.content.decode()
    confirm = client.post(url, {"confirm": "1", "publish": "1", "digest": hashlib.sha256(data).hexdigest()})
    assert confirm.status_code == 400
    assert not Game.objects.filter(round__event=event).exclude(result="").exists()

    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    for url in (
        f"/admin/leagues/event/{event.pk}/change/",
        f"/admin/leagues/round/{games[0].round_id}/change/",
        f"/admin/leagues/game/{games[0].pk}/change/",
    ):
        page = client.get(url)
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode(), url
    client.post(f"/admin/leagues/event/{event.pk}/change/", {"name": "Renamed", "status": "running"})
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    assert client.post(f"/admin/leagues/round/{games[0].round_id}/delete/", {"post": "yes"}).status_code == 403


def test_the_round_sheet_of_a_finished_event_is_the_organisers_alone_with_a_public_reason(client):
    from tests.factories import organiser_of

    club = ClubFactory()
    event, _entries, games = swiss_event(players=2, club=club, status=Event.Status.FINISHED)
    from leagues.models import Role
    from tests.factories import UserFactory

    secretary = UserFactory()
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=club)
    url = f"/en/manage/events/{event.slug}/rounds/1/"
    sheet = {"reason": "", f"result_{games[0].pk}": Result.DRAW, f"version_{games[0].pk}": games[0].version}
    client.force_login(secretary)
    assert client.post(url, dict(sheet, reason="typo")).status_code == 403
    client.force_login(organiser_of(event.league))
    page = client.get(url).content.decode()
    assert 'id="finished-notice"' in page
    assert client.post(url, sheet).status_code == 400  # no reason
    assert Game.objects.get(pk=games[0].pk).result == ""
    assert client.post(url, dict(sheet, reason="the arbiter's report")).status_code == 302
    assert Game.objects.get(pk=games[0].pk).result == Result.DRAW
    public = client.get(f"/en/events/{event.slug}/").content.decode()
    assert "Results were changed after the event was finished" in public and "the arbiter&#x27;s report" in public


def test_an_unanswered_card_of_a_finished_event_neither_confirms_itself_nor_reminds_anyone():
    from datetime import timedelta

    from django.utils import timezone

    from leagues.services.disputes import match_cards_remind
    from leagues.services.match_cards import match_cards_auto_confirm

    d, match = _submitted_then_finished()
    later = timezone.now() + timedelta(days=d.league.auto_confirm_days + 1)
    assert match_cards_remind(now=later) == 0
    assert match_cards_auto_confirm(now=later) == 0
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.SUBMITTED
