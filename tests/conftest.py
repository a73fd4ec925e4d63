import os

import hypothesis
import pytest
from django.conf import settings

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

# on CI, property tests draw the same examples every run (a run passes or fails for the code, not for the draw);
# a local run draws new ones
hypothesis.settings.register_profile("ci", derandomize=True, database=None)
if IN_CI:
    hypothesis.settings.load_profile("ci")


def redis_database(number: int) -> str:
    """Database `number` of the test run's own Redis server (config/settings/test.py): a test's broker of its own."""
    return settings.REDIS_URL.rsplit("/", 1)[0] + f"/{number}"


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


@pytest.fixture(autouse=True)
def _default_language_after_the_test():
    """The test client's requests leave their page's language active in the thread (a server's next request activates
    its own): the next test in this process starts in the default language, whichever test ran before it."""
    yield
    if settings.configured:
        from django.utils import translation

        translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    """Each test starts with an empty page cache (only this run's keys: other runs may share the Redis)."""
    if not settings.configured:  # engine tests run without Django
        yield
        return
    from django.core.cache import cache

    from leagues import page_cache

    page_cache._local.clear()
    page_cache._local_stamps.clear()
    page_cache._routes.clear()
    location = settings.CACHES["default"].get("LOCATION")
    if not location:
        cache.clear()
        yield
        return
    import redis

    client = redis.Redis.from_url(location)
    try:
        for key in client.scan_iter(match=f"*{settings.CACHES['default']['KEY_PREFIX']}:*", count=500):
            client.delete(key)
    except redis.RedisError:
        pass
    yield
