import os

import hypothesis
import pytest
from django.conf import settings

from tests import fast_flush

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

# on CI, property tests draw the same examples every run (a run passes or fails for the code, not for the draw);
# a local run draws new ones
hypothesis.settings.register_profile("ci", derandomize=True, database=None)
if IN_CI:
    hypothesis.settings.load_profile("ci")

# a test that commits for real (transaction=True, live_server) is followed by DELETE of the tables that have rows
# instead of Django's TRUNCATE of all 64 (about 3 s a test on a busy machine; the same rows are left: fast_flush.py)
fast_flush.install()


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
def no_fide_check_by_the_worker(monkeypatch):
    """The worker's check by FIDE's tools after each recompute left out, for a test that reads not its verdict and
    would spend most of its time there (it replays every round with FIDE's engine; after-commit work cannot fail a
    test: leagues/after_commit.py logs its errors). Its verdicts are tested in tests/integration/test_fide_check.py
    and test_fide_end_to_end.py."""
    from leagues import broker

    monkeypatch.setattr(broker, "enqueue_fide_check", lambda event_id: None)


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


def _run_pending_commit_hooks(connection) -> None:
    """Run the on-commit callbacks waiting on `connection` in order, as Django does after a commit (callbacks a
    callback adds run too)."""
    import logging

    while connection.run_on_commit:
        _sids, func, robust = connection.run_on_commit.pop(0)
        if not robust:
            func()
            continue
        try:
            func()
        except Exception:
            logging.getLogger("django.db.backends.base").error("Error calling %r in on_commit()", func, exc_info=True)


@pytest.fixture
def on_commit_runs(request):
    """Use with `django_db` (no transaction=True) in a file whose tests expect on-commit work to have run:
    `pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]`.

    In a rolled-back test (`django_db` without transaction=True) the test's own transaction never commits, so
    on-commit work (webhooks, page renewals, recomputes: leagues/after_commit.py) would never run. Here it runs when
    a real commit would: when the code's outermost atomic block exits without an error. A block that rolls back
    (an exception, or set_rollback) drops the callbacks registered inside it, as PostgreSQL would drop its writes.
    Callbacks registered outside any block of the code (a factory's save firing a signal, a view writing in autocommit)
    would run at once in autocommit; here they run at the next boundary: the code's next atomic block, or the end of
    the client's request (a view's work has run when its answer reaches the test) or its next one.

    Unlike `captureOnCommitCallbacks(execute=True)`, which runs everything when its `with` ends, each request or
    service call sees its effects before the test's next line, and a rolled-back block's callbacks never run.
    Opt-in, not autouse: some rolled-back tests rely on the work not running (a round that stays queued)."""
    marker = request.node.get_closest_marker("django_db")
    # a test that captures its callbacks itself (pytest-django's fixture) keeps them for its own assertions
    if marker is None or not settings.configured or "django_capture_on_commit_callbacks" in request.fixturenames:
        yield
        return
    from django.db import connections

    request.getfixturevalue("_django_db_helper")

    # a rolled-back test runs inside Django's TestCase atomic blocks; a transactional one (transaction=True,
    # transactional_db, live_server) in none: its commits are real, nothing to do
    if not connections["default"].in_atomic_block:
        yield
        return
    yield from _commits_at_the_codes_outermost_block(
        {alias: len(connections[alias].atomic_blocks) for alias in settings.DATABASES}
    )


_ON_COMMIT_UID = "tests-on-commit-in-rollback-tests"


def _commits_at_the_codes_outermost_block(baseline):
    """on_commit_runs while the test runs (the generator waits at its yield): the code's outermost atomic block, one
    deeper than the test's own blocks (`baseline`: their number per database), runs its on-commit callbacks when it
    exits as a commit would and drops them when it rolls back; the start and the end of a request are boundaries too."""
    from functools import partial

    from django.core.signals import request_finished, request_started
    from django.db import connections, transaction

    original_enter, original_exit = transaction.Atomic.__enter__, transaction.Atomic.__exit__

    def enter(self):
        connection = transaction.get_connection(self.using)
        if _at_baseline(baseline, connection, connection.alias):  # what waited outside a block would have run by now
            _run_pending_commit_hooks(connection)
        return original_enter(self)

    def exit(self, exc_type, exc_value, traceback):
        connection = transaction.get_connection(self.using)
        commits = exc_type is None and not connection.needs_rollback and not connection.closed_in_transaction
        result = original_exit(self, exc_type, exc_value, traceback)
        if _at_baseline(baseline, connection, connection.alias):  # the code's outermost block: a commit or rollback
            if commits:
                _run_pending_commit_hooks(connection)
            else:
                connection.run_on_commit.clear()
        return result

    def at_a_request_boundary(**kwargs):
        for alias in baseline:
            connection = connections[alias]
            if _at_baseline(baseline, connection, alias):
                _run_pending_commit_hooks(connection)

    # Django's class patched on purpose for the test's length (undone below)
    transaction.Atomic.__enter__, transaction.Atomic.__exit__ = enter, exit  # type: ignore[method-assign]
    request_started.connect(at_a_request_boundary, dispatch_uid=_ON_COMMIT_UID)
    request_finished.connect(at_a_request_boundary, dispatch_uid=_ON_COMMIT_UID)
    isolation = partial(_isolation_of_the_codes_transaction, baseline)
    wrappers = [connections[alias].execute_wrapper(isolation) for alias in baseline]
    for wrapper in wrappers:
        wrapper.__enter__()
    try:
        yield
    finally:
        for wrapper in reversed(wrappers):
            wrapper.__exit__(None, None, None)
        transaction.Atomic.__enter__, transaction.Atomic.__exit__ = original_enter, original_exit  # type: ignore[method-assign]
        request_started.disconnect(dispatch_uid=_ON_COMMIT_UID)
        request_finished.disconnect(dispatch_uid=_ON_COMMIT_UID)


def _at_baseline(baseline, connection, alias) -> bool:
    """The connection is in the test's own blocks only: the next block it enters is the code's outermost."""
    return alias in baseline and len(connection.atomic_blocks) == baseline[alias]


def _isolation_of_the_codes_transaction(baseline, execute, sql, params, many, context):
    """The recompute reads one consistent state: SET TRANSACTION ISOLATION LEVEL is the first statement of its
    own transaction (leagues/recompute.py). Here that transaction is a savepoint, where PostgreSQL refuses the
    statement; the test's transaction is the only one on its connection, so no level changes what it reads."""
    connection = context["connection"]
    if sql.upper().startswith("SET TRANSACTION ISOLATION LEVEL") and len(connection.atomic_blocks) == (
        baseline.get(connection.alias, -1) + 1
    ):
        return None
    return execute(sql, params, many, context)
