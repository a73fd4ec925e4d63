"""A faster emptying of the database after a test that commits for real (`django_db(transaction=True)`,
`live_server`), leaving what Django's flush leaves.

Django's flush TRUNCATEs every table of the project (64), then its post_migrate signal creates the content types
and permissions again: about 3 s a test on the suite's busy machine, most of it PostgreSQL replacing the files of
tables already empty. Here, in one transaction: every table is locked against writers (a process of the test still
writing is waited for, as a TRUNCATE waits), the tables that have rows are emptied with DELETE (every foreign key
Django makes is checked at the commit, so the order does not matter), and the content types and permissions, the
rows post_migrate makes, are kept when they are exactly those a Django flush left in this process (compared by a
checksum of their rows). Anything else (a test that changed them, SQLite, a test case with `available_apps` or
`serialized_rollback`, an error) gets Django's own flush. Sequences go on, as with Django's flush."""

from django.core.management import call_command
from django.db import DatabaseError, connections, transaction
from django.test import TransactionTestCase

#: the tables post_migrate fills after a flush (contenttypes and auth)
KEPT = ("django_content_type", "auth_permission")
_kept_as_flushed: dict[str, str] = {}  # database alias -> checksum of KEPT's rows right after a Django flush
_tables: dict[str, list[str]] = {}


class _Changed(Exception):
    """The kept rows are not those a flush leaves."""


def project_tables(alias: str = "default") -> list[str]:
    """The tables Django's flush empties (read once per process)."""
    if alias not in _tables:
        _tables[alias] = connections[alias].introspection.django_table_names(only_existing=True, include_views=False)
    return _tables[alias]


def filled_tables(cursor, alias: str = "default") -> list[str]:
    """Of the tables a flush empties, those with rows, the KEPT ones left out (one query)."""
    quote, tables = connections[alias].ops.quote_name, project_tables(alias)
    cursor.execute(
        " UNION ALL ".join(f"SELECT %s WHERE EXISTS (SELECT 1 FROM {quote(table)})" for table in tables),  # noqa: S608 - the project's table names
        tables,
    )
    return [table for (table,) in cursor.fetchall() if table not in KEPT]


def kept_checksum(cursor, alias: str = "default") -> str:
    """A checksum of the rows of the KEPT tables."""
    sums = []
    for table in (table for table in KEPT if table in project_tables(alias)):
        cursor.execute(f"SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t.id), '')) FROM {table} t")  # noqa: S608 - table names of KEPT
        sums.append(cursor.fetchone()[0])
    return ",".join(sums)


def _remember_flushed_state(alias: str) -> None:
    with connections[alias].cursor() as cursor:
        _kept_as_flushed[alias] = kept_checksum(cursor, alias)


def empty_quickly(alias: str) -> bool:
    """Empty the database as Django's flush would have; False (nothing changed) when only Django's flush can."""
    connection = connections[alias]
    if connection.vendor != "postgresql" or alias not in _kept_as_flushed or not project_tables(alias):
        return False
    quote = connection.ops.quote_name
    try:
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {', '.join(map(quote, project_tables(alias)))} IN SHARE ROW EXCLUSIVE MODE")
            for table in filled_tables(cursor, alias):
                cursor.execute(f"DELETE FROM {quote(table)}")  # noqa: S608 - the project's table names
            if kept_checksum(cursor, alias) != _kept_as_flushed[alias]:
                raise _Changed
    except (_Changed, DatabaseError):
        return False
    return True


_django_teardown = TransactionTestCase._fixture_teardown  # type: ignore[attr-defined]  # Django's, untyped


def _fixture_teardown(self) -> None:
    if self.available_apps is not None or self.serialized_rollback:
        _django_teardown(self)
        return
    for alias in self._databases_names(include_mirrors=False):
        if empty_quickly(alias):
            continue
        call_command(
            "flush",
            verbosity=0,
            interactive=False,
            database=alias,
            reset_sequences=False,
            allow_cascade=False,
            inhibit_post_migrate=False,
        )
        _remember_flushed_state(alias)


def install() -> None:
    """Every transactional test of this process ends with `empty_quickly` (Django's flush where it cannot)."""
    setattr(TransactionTestCase, "_fixture_teardown", _fixture_teardown)  # noqa: B010 - a private method, untyped
