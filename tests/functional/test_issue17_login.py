"""Issue 17 #2, #4: one login throttle for every login door, keyed on the name Django logs in with."""

import logging

import pytest
from django.core.cache import caches

from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

SITE, ADMIN = "/en/accounts/login/", "/admin/login/"


@pytest.fixture(autouse=True)
def _attempts(settings):
    settings.LOGIN_ATTEMPTS = 3
    settings.LOGIN_ADDRESS_ATTEMPTS = 6
    caches["default"].clear()


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def _fail(client, door, username, times, **extra):
    for _ in range(times):
        client.post(door, {"username": username, "password": "wrong"}, **extra)


def test_a_compatibility_variant_of_a_locked_name_is_locked_too(client):
    UserFactory(username="nobody", password="right-password-1")
    _fail(client, SITE, "nobody", 3)
    # "ｎobody" (fullwidth n) is the same user once NFKC-normalised, as Django logs in with it  # noqa: RUF003
    variant = client.post(SITE, {"username": "ｎobody", "password": "right-password-1"})  # noqa: RUF001 - fullwidth on purpose
    assert variant.status_code == 429
    assert not _logged_in(client)
    _fail(client, SITE, "ｎobody", 3)  # no fresh attempts for a variant either  # noqa: RUF001


def test_the_admin_login_is_throttled_like_the_site_login(client):
    UserFactory(username="staffer", password="right-password-1", is_staff=True, is_superuser=True)
    _fail(client, ADMIN, "staffer", 3)
    refused = client.post(ADMIN, {"username": "staffer", "password": "right-password-1"})
    assert refused.status_code == 429
    assert not _logged_in(client)
    # the failures counted on one door hold on the other
    assert client.post(SITE, {"username": "staffer", "password": "right-password-1"}).status_code == 429


def test_password_spraying_from_one_address_is_limited(client):
    UserFactory(username="victim", password="right-password-1")
    for n in range(6):  # one try each for many names: never 3 for one name
        client.post(SITE, {"username": f"name-{n}", "password": "Summer2026!"})
    refused = client.post(SITE, {"username": "victim", "password": "right-password-1"})
    assert refused.status_code == 429
    assert not _logged_in(client)


def test_one_client_behind_the_proxy_does_not_lock_out_the_others(client, settings):
    settings.NUM_PROXIES = 1
    UserFactory(username="member", password="right-password-1")
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    for n in range(8):
        client.post(SITE, {"username": f"name-{n}", "password": "x"}, HTTP_X_FORWARDED_FOR="203.0.113.9", **proxy)
    assert (
        client.post(
            SITE, {"username": "member", "password": "right-password-1"}, HTTP_X_FORWARDED_FOR="203.0.113.9", **proxy
        ).status_code
        == 429
    )
    # another visitor behind the same proxy logs in
    answer = client.post(
        SITE, {"username": "member", "password": "right-password-1"}, HTTP_X_FORWARDED_FOR="198.51.100.4", **proxy
    )
    assert answer.status_code == 302
    assert _logged_in(client)


def test_a_forged_forwarded_for_does_not_give_fresh_attempts_without_a_proxy(client, settings):
    settings.NUM_PROXIES = 0
    UserFactory(username="member", password="right-password-1")
    for n in range(3):
        client.post(SITE, {"username": "member", "password": "x"}, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    answer = client.post(
        SITE, {"username": "member", "password": "right-password-1"}, HTTP_X_FORWARDED_FOR="192.0.2.99"
    )
    assert answer.status_code == 429


# 4. login works while Redis is down


def test_login_works_while_the_cache_is_down(client, settings, caplog):
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
    }
    UserFactory(username="member", password="right-password-1")
    with caplog.at_level(logging.WARNING):
        assert client.post(SITE, {"username": "member", "password": "wrong"}).status_code == 200
        answer = client.post(SITE, {"username": "member", "password": "right-password-1"})
    assert answer.status_code == 302
    assert _logged_in(client)
    assert any("login" in r.getMessage().lower() for r in caplog.records if r.levelno >= logging.WARNING)


# settings and headers: a strict Content-Security-Policy on every page, and no inline script to need a looser one


def _inline_scripts(html: str) -> list[str]:
    import re

    found = []
    for attributes, body in re.findall(r"<script([^>]*)>(.*?)</script>", html, flags=re.S | re.I):
        if "src=" not in attributes and body.strip() and "application/json" not in attributes:
            found.append(body.strip()[:60])
    found += re.findall(r"<[^>]+\son[a-z]+\s*=", html, flags=re.I)  # onclick= and the like
    found += re.findall(r"""href\s*=\s*["']\s*javascript:""", html, flags=re.I)
    return found


def test_every_page_has_a_strict_policy_and_no_inline_script(client):
    from leagues.models import Result
    from leagues.services.results import result_record
    from tests.factories import organiser_of, swiss_event

    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser)
    pages = [
        "/en/",
        f"/en/events/{event.slug}/",
        f"/en/events/{event.slug}/crosstable/",
        f"/en/events/{event.slug}/rounds/1/",
        f"/en/events/{event.slug}/players/1/",
        "/en/accounts/login/",
        "/admin/login/",
        "/api/docs/",
        "/api/v1/leagues/",
        "/healthz",
    ]
    calculator = next(
        (u for u in ("/en/tiebreaks/calculator/", "/en/guides/calculator/") if client.get(u).status_code == 200), None
    )
    pages += [calculator] if calculator else []
    client.force_login(organiser)
    pages += ["/en/manage/", f"/en/manage/events/{event.slug}/rounds/1/"]
    for url in pages:
        answer = client.get(url)
        assert answer.status_code == 200, url
        policy = answer.get("Content-Security-Policy", "")
        directives = dict([*d.split(" ", 1), ""][:2] for d in policy.split("; "))
        assert directives.get("script-src") == "'self'", (url, policy)
        assert "unsafe" not in policy and "*" not in policy, (url, policy)
        assert directives.get("object-src") == "'none'", url
        if answer["Content-Type"].startswith("text/html"):
            assert _inline_scripts(answer.content.decode()) == [], url
