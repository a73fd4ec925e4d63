import os

import pytest
from django.conf import settings

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def require(condition: bool, why: str) -> None:
    """Skip locally when a service is missing; on CI a missing service is a failure, never a skip."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"CI needs this: {why}")
    pytest.skip(why)


@pytest.fixture
def on_postgres():
    require(settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), "PostgreSQL is not reachable")
