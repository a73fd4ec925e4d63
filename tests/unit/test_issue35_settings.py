"""Issue #35: production refuses a secret key that repeats a few characters; development refuses private webhook
targets unless told otherwise."""

import secrets

import pytest
from django.core.management.utils import get_random_secret_key

from tests.unit.test_settings import PRODUCTION, settings_run


@pytest.mark.parametrize(
    "key",
    [
        "abcde" * 10,  # 50 characters, 5 distinct: Django's own check lets it through
        "Qw3rT" * 12,
        "0123456789" * 6,
        "abcde" * 10 + "Zz9",
        "k3Y!" + "aB1cD" * 10,
    ],
)
def test_production_refuses_a_secret_key_that_repeats_a_few_characters(key):
    run = settings_run("prod", {**PRODUCTION, "SECRET_KEY": key})
    assert run.returncode != 0
    assert "SECRET_KEY" in run.stderr and "ImproperlyConfigured" in run.stderr
    assert key not in run.stderr  # the message never repeats the key


@pytest.mark.parametrize(
    "make_key",
    [lambda: secrets.token_urlsafe(50), lambda: secrets.token_hex(32), get_random_secret_key],
    ids=["token_urlsafe", "token_hex", "django"],
)
def test_production_starts_with_a_random_key(make_key):
    key = make_key()
    run = settings_run("prod", {**PRODUCTION, "SECRET_KEY": key})
    assert run.returncode == 0, run.stderr


def test_development_refuses_private_webhook_targets_unless_told_otherwise():
    assert settings_run("dev", {}, "s.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES").stdout.strip() == "False"
    allowed = settings_run("dev", {"WEBHOOKS_ALLOW_PRIVATE_ADDRESSES": "true"}, "s.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES")
    assert allowed.stdout.strip() == "True"
