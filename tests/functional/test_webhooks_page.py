"""The workspace's webhooks page: subscribe (the secret shown once), the latest deliveries, a test event,
pause and resume, delete; someone else's subscription is not found; the API's rules hold here too."""

import pytest
from django.test import override_settings

from leagues.models import Result, Role, WebhookSubscription
from leagues.services.results import result_record
from tests.factories import ClubFactory, UserFactory, organiser_of, swiss_event
from tests.helpers import search
from tests.webhooks import receiver, signature_is_valid

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

PAGE = "/en/manage/webhooks/"


def subscribe(client, url, target, events=("result.recorded",)):
    return client.post(PAGE, {"url": url, "target": target, "events": list(events)}, follow=True)


def test_an_organiser_subscribes_tests_pauses_resumes_and_deletes_on_the_page(client, tmp_path):
    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    client.force_login(organiser)
    assert PAGE in client.get("/en/manage/").content.decode()  # the workspace links to it

    with receiver(tmp_path) as hook:
        made = subscribe(client, hook.url, f"league:{event.league.slug}")
        html = made.content.decode()
        secret = search(r"signing secret: (whsec_[0-9a-f]+)", html).group(1)
        subscription = WebhookSubscription.objects.get(owner=organiser)
        assert (subscription.league, subscription.events, subscription.secret) == (
            event.league,
            ["result.recorded"],
            secret,
        )
        assert hook.url in html and event.league.name in html and "active" in html
        assert secret not in client.get(PAGE).content.decode()  # shown once

        tested = client.post(f"{PAGE}{subscription.pk}/test/", follow=True).content.decode()
        (request,) = hook.received()
        assert request["headers"]["X-Chess-League-Event"] == "test"
        assert signature_is_valid(secret, request)
        assert "HTTP 200" in tested  # the delivery log, with the receiver's answer

        paused = client.post(f"{PAGE}{subscription.pk}/pause/", follow=True).content.decode()
        assert "paused" in paused and f"{subscription.pk}/resume/" in paused
        result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser)
        assert len(hook.received()) == 1  # nothing reaches a paused subscription

        resumed = client.post(f"{PAGE}{subscription.pk}/resume/", follow=True).content.decode()
        assert f"{subscription.pk}/pause/" in resumed
        result_record(game_id=games[1].pk, result=Result.DRAW, user=organiser)
        assert [r["headers"]["X-Chess-League-Event"] for r in hook.received()] == ["test", "result.recorded"]

    client.post(f"{PAGE}{subscription.pk}/delete/", follow=True)
    assert not WebhookSubscription.objects.exists()


def test_someone_elses_subscription_is_not_found_and_not_listed(client):
    event, _entries, _games = swiss_event(players=4)
    owner = organiser_of(event.league)
    client.force_login(owner)
    subscribe(client, "http://127.0.0.1:9/hook", f"event:{event.slug}")
    subscription = WebhookSubscription.objects.get()

    other = organiser_of(event.league)  # even an organiser of the same league
    client.force_login(other)
    assert "127.0.0.1:9" not in client.get(PAGE).content.decode()
    for action in ("test", "pause", "resume", "delete"):
        assert client.post(f"{PAGE}{subscription.pk}/{action}/").status_code == 404, action
    subscription.refresh_from_db()
    assert subscription.paused_at is None and not subscription.deliveries.exists()
    assert client.get(f"{PAGE}{subscription.pk}/pause/").status_code == 405  # writes are POSTs only


@override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=False)
@pytest.mark.parametrize("url", ["https://127.0.0.1/hook", "https://169.254.169.254/latest/", "http://93.184.215.14/"])
def test_the_page_refuses_what_the_api_refuses(client, url):
    event, _entries, _games = swiss_event(players=4)
    client.force_login(organiser_of(event.league))
    html = subscribe(client, url, f"league:{event.league.slug}").content.decode()
    assert "private, loopback or link-local" in html or "must start with https://" in html
    assert not WebhookSubscription.objects.exists()


def test_a_secretary_subscribes_only_to_the_own_club(client):
    club, other_club = ClubFactory(), ClubFactory()
    event, _entries, _games = swiss_event(players=4, club=club)
    secretary = UserFactory()
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=club)
    client.force_login(secretary)
    page = client.get(PAGE).content.decode()
    assert f'value="club:{club.slug}"' in page
    assert f"league:{event.league.slug}" not in page and f"club:{other_club.slug}" not in page
    for target in (f"league:{event.league.slug}", f"club:{other_club.slug}"):
        subscribe(client, "http://127.0.0.1:9/hook", target)
    assert not WebhookSubscription.objects.exists()
    subscribe(client, "http://127.0.0.1:9/hook", f"club:{club.slug}", events=["match_card.submitted"])
    assert WebhookSubscription.objects.get().club == club

    client.force_login(UserFactory())  # no role: nothing to subscribe to, said so
    assert "club secretaries can subscribe" in client.get(PAGE).content.decode()
    assert client.get(PAGE.replace("/en/", "/el/")).status_code == 200


@pytest.mark.parametrize("lang", ["el", "tr", "he", "nb"])
def test_the_webhooks_page_is_translated(client, lang):
    event, _entries, _games = swiss_event(players=4)
    client.force_login(organiser_of(event.league))
    subscribe(client, "http://127.0.0.1:9/hook", f"league:{event.league.slug}")
    html = client.get(f"/{lang}/manage/webhooks/").content.decode()
    for english in ("Send a test event", "Latest deliveries", "Nothing delivered yet.", "Receiver URL", "Subscribe"):
        assert english not in html, (lang, english)
    assert ('dir="rtl"' in html) == (lang == "he")
