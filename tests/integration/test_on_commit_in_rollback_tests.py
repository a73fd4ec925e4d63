"""The suite's rolled-back tests run on-commit work when a real commit would (tests/conftest.py): when the code's
outermost atomic block exits without an error; never for a block that rolled back."""

import pytest
from django.db import transaction
from django.http import HttpResponse
from django.urls import path

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def test_work_runs_when_the_outermost_block_commits_not_before():
    ran = []
    with transaction.atomic():
        transaction.on_commit(lambda: ran.append("outer"))
        with transaction.atomic():
            transaction.on_commit(lambda: ran.append("inner"))
        assert ran == []  # a nested block's exit is no commit
    assert ran == ["outer", "inner"]


def test_a_block_that_rolls_back_runs_none_of_its_work():
    ran = []
    with pytest.raises(ValueError), transaction.atomic():
        transaction.on_commit(lambda: ran.append("refused"))
        raise ValueError
    with transaction.atomic():
        transaction.set_rollback(True)
        transaction.on_commit(lambda: ran.append("rolled back"))
    assert ran == []
    with transaction.atomic():
        transaction.on_commit(lambda: ran.append("next"))
    assert ran == ["next"]


def test_a_nested_block_that_rolls_back_loses_only_its_own_work():
    ran = []
    with transaction.atomic():
        transaction.on_commit(lambda: ran.append("kept"))
        with pytest.raises(ValueError), transaction.atomic():
            transaction.on_commit(lambda: ran.append("lost"))
            raise ValueError
    assert ran == ["kept"]


def test_work_asked_for_outside_a_block_runs_before_the_next_request(client):
    ran = []
    transaction.on_commit(lambda: ran.append("outside"))
    client.get("/")
    assert ran == ["outside"]


def _view_writing_in_autocommit(request):
    """A view that asks for work outside any atomic block (in production its write commits at once, and the work runs
    before the answer leaves)."""
    transaction.on_commit(lambda: _ran.append("asked by the view"))
    return HttpResponse("ok")


_ran: list[str] = []
urlpatterns = [path("autocommit/", _view_writing_in_autocommit)]


@pytest.mark.urls(__name__)
def test_work_a_view_asks_for_outside_a_block_has_run_when_its_answer_arrives(client):
    _ran.clear()
    assert client.get("/autocommit/").status_code == 200
    assert _ran == ["asked by the view"]


def test_work_added_by_work_runs_too():
    ran = []

    def first():
        ran.append("first")
        with transaction.atomic():
            transaction.on_commit(lambda: ran.append("second"))

    with transaction.atomic():
        transaction.on_commit(first)
    assert ran == ["first", "second"]


@pytest.mark.django_db(transaction=True)  # what it tests: a real commit, which the fixture leaves alone
def test_a_transactional_test_commits_for_real():
    ran = []
    with transaction.atomic():
        transaction.on_commit(lambda: ran.append("committed"))
    assert ran == ["committed"]


def test_the_codes_transaction_may_choose_its_isolation_level():
    from django.db import connection

    read = []
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            cursor.execute("SELECT 1")
            read.append(cursor.fetchone()[0])
    assert read == [1]
