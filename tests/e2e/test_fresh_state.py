"""The end-to-end tests start from what Django's flush and `manage.py load_demo` leave, though they get there faster:
the database emptied by tests/fast_flush.py, the demo put back from a copy by tests/e2e/demo.py."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.db import connection

from leagues.models import League
from tests import fast_flush
from tests.e2e import demo

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def rows_per_table() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for table in fast_flush.project_tables():
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")  # noqa: S608 - the project's tables
            counts[table] = cursor.fetchone()[0]
    return counts


def contents() -> dict[str, str]:
    """Each table's rows, as a checksum."""
    sums = {}
    with connection.cursor() as cursor:
        for table in fast_flush.project_tables():
            cursor.execute(
                f"SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {table} t"  # noqa: S608 - the project's tables
            )
            sums[table] = cursor.fetchone()[0]
    return sums


def kept() -> str:
    with connection.cursor() as cursor:
        return fast_flush.kept_checksum(cursor)


def test_the_quick_emptying_leaves_what_djangos_flush_leaves(on_postgres):
    get_user_model().objects.create_user("someone")
    call_command("flush", verbosity=0, interactive=False)  # Django's: every table emptied, post_migrate's rows made
    flushed, flushed_kept = rows_per_table(), kept()
    assert flushed["django_content_type"] and flushed["auth_permission"] and not flushed["auth_user"]
    fast_flush._remember_flushed_state("default")
    demo.load_demo()
    assert rows_per_table() != flushed

    assert fast_flush.empty_quickly("default")
    assert rows_per_table() == flushed and kept() == flushed_kept

    # a test that changed the rows post_migrate makes: nothing is emptied, Django's flush does it
    League.objects.create(name="Left", slug="left")
    Permission.objects.filter(pk=Permission.objects.order_by("pk").values("pk")[:1]).delete()
    assert not fast_flush.empty_quickly("default")
    assert League.objects.filter(slug="left").exists()


def test_the_demo_from_the_copy_is_the_one_the_command_loads(on_postgres):
    call_command("flush", verbosity=0, interactive=False)
    demo.load_demo()  # the command (then copied aside) or the copy
    demo._copy.clear()
    fast_flush._remember_flushed_state("default")  # (the content types are those of the flush above)
    assert fast_flush.empty_quickly("default")
    demo.load_demo()  # the command, copied aside
    by_the_command, as_written = rows_per_table(), contents()
    assert by_the_command["leagues_event"] == 3 and by_the_command["leagues_game"]
    assert fast_flush.empty_quickly("default")

    demo.load_demo()  # from the copy: every row as the command wrote it
    assert contents() == as_written
    organiser = get_user_model().objects.get(username="organiser")
    assert organiser.check_password("demo-chess-2026")
    # the command still replaces it: the same rows again
    call_command("load_demo", stdout=io.StringIO())
    assert rows_per_table() == by_the_command
