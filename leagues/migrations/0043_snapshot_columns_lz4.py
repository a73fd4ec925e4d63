"""The standings snapshots' two big JSON columns, the rows and the explanation traces (a 1,000-player open's: about
250 KB and 1.4 MB of JSON, written by every recompute, read whole by every page showing one participant's traces), are
compressed with LZ4 rather than PostgreSQL's default pglz: several times cheaper to compress and to read back, on a
PostgreSQL built with LZ4 (14 and later, the official images). Elsewhere, and on SQLite, nothing changes. Values
already stored keep their compression until the next recompute writes them (issue #37)."""

from django.db import DatabaseError, migrations, transaction

COLUMNS = ("rows", "explanations")


def _compression(schema_editor, method: str) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return
    table = schema_editor.quote_name("leagues_standingssnapshot")
    columns = ", ".join(f"ALTER COLUMN {schema_editor.quote_name(c)} SET COMPRESSION {method}" for c in COLUMNS)
    try:
        with transaction.atomic(using=connection.alias):  # a server built without LZ4 refuses: the default stays
            schema_editor.execute(f"ALTER TABLE {table} {columns}")
    except DatabaseError:
        pass


def lz4(apps, schema_editor):
    _compression(schema_editor, "lz4")


def server_default(apps, schema_editor):
    _compression(schema_editor, "default")


class Migration(migrations.Migration):
    dependencies = [("leagues", "0042_bye_boards_above_big_rounds")]

    operations = [migrations.RunPython(lz4, server_default, elidable=False)]
