"""Operations shared by migrations."""

from __future__ import annotations

import re

from alembic import op


def append_only(table: str) -> None:
    """R60: the database refuses to change or delete a row of ``table`` (and, on PostgreSQL, to
    empty it with TRUNCATE, which fires no row trigger). SQLite has no TRUNCATE."""
    if op.get_context().dialect.name == "postgresql":
        op.execute(
            "CREATE OR REPLACE FUNCTION roomops_append_only() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION '% is append-only (R60)', TG_TABLE_NAME; END $$ LANGUAGE plpgsql"
        )
        op.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION roomops_append_only()"
        )
        no_truncate(table)
        return
    for verb in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only (R60)'); END"
        )


def no_truncate(table: str) -> None:
    """R60 on PostgreSQL: TRUNCATE of append-only ``table`` refused by a statement trigger, made
    again if it is there (``append_only`` makes it for a new table; migration 0031 for the tables
    made before it)."""
    op.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
    op.execute(f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
               "FOR EACH STATEMENT EXECUTE FUNCTION roomops_append_only()")


def drop_append_only(table: str) -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        op.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
        # the function is shared by every append-only table: dropped with the last trigger
        op.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_trigger t JOIN pg_proc p "
                   "ON p.oid = t.tgfoid WHERE p.proname = 'roomops_append_only') THEN "
                   "DROP FUNCTION IF EXISTS roomops_append_only(); END IF; END $$")
        return
    for verb in ("update", "delete"):
        op.execute(f"DROP TRIGGER IF EXISTS {table}_no_{verb}")


def add_checked_columns(table: str, columns: dict[str, str]) -> None:
    """Add columns with ``ALTER TABLE ... ADD COLUMN name spec`` (a spec may carry a named CHECK):
    the same statement on SQLite and PostgreSQL. Alembic's batch mode would rebuild the table on
    SQLite, which the foreign keys pointing at it refuse once it holds rows."""
    for name, spec in columns.items():
        op.execute(f"ALTER TABLE {table} ADD COLUMN {name} {spec}")


def money_columns(columns: dict[str, str]) -> dict[str, str]:
    """Column specs with ``{money}`` as the type of an amount: BIGINT on PostgreSQL, INTEGER
    (already 64-bit) on SQLite, as ``roomops.db.Minor``."""
    money = "BIGINT" if op.get_context().dialect.name == "postgresql" else "INTEGER"
    return {name: spec.replace("{money}", money) for name, spec in columns.items()}


def drop_columns(table: str, columns: dict[str, str]) -> None:
    """Undo ``add_checked_columns``: dropping a column drops its own check on both databases.
    SQLite will not drop a column that is a foreign key: its REFERENCES clause goes first."""
    sqlite = op.get_context().dialect.name == "sqlite"
    for name in reversed(columns):
        spec = columns[name]
        if sqlite and " REFERENCES " in spec:
            _rewrite_sqlite_definition(table, f"{name} {spec}", f"{name} {spec.split()[0]}")
        op.execute(f"ALTER TABLE {table} DROP COLUMN {name}")


def replace_check(table: str, name: str, old: str, new: str, new_name: str | None = None) -> None:
    """Change the condition of the named CHECK constraint ``name`` of ``table`` from ``old`` to
    ``new`` (and its name to ``new_name``, when given). PostgreSQL drops and adds it. SQLite cannot
    alter a constraint and cannot rebuild a table that populated tables point at (see
    ``add_checked_columns``), so the table's stored definition is edited in place, the procedure
    SQLite documents for changes that leave the stored rows as they are: the caller makes sure
    every row satisfies ``new``."""
    renamed = new_name or name
    if op.get_context().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
        op.execute(f"ALTER TABLE {table} ADD CONSTRAINT {renamed} CHECK ({new})")
        return
    _rewrite_sqlite_definition(table, f"CONSTRAINT {name} CHECK ({old})",
                               f"CONSTRAINT {renamed} CHECK ({new})")


def drop_clause(table: str, name: str, body: str) -> None:
    """Drop the table constraint ``CONSTRAINT name body`` of ``table`` (a CHECK or a FOREIGN KEY),
    as SQLite must before the columns it names can be dropped: there its clause leaves the stored
    definition (see ``replace_check``)."""
    if op.get_context().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
        return
    sql = op.get_bind().exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).scalar_one()
    found = re.search(rf",\s*CONSTRAINT {re.escape(name)} {re.escape(body)}", sql)
    if found is None:
        raise RuntimeError(f"{table}: no constraint {name} {body!r} in its definition")
    _rewrite_sqlite_definition(table, found.group(0), "")


def _rewrite_sqlite_definition(table: str, old: str, new: str) -> None:
    """Replace ``old`` (which must occur exactly once) in SQLite's stored CREATE TABLE of ``table``."""
    bind = op.get_bind()
    sql = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).scalar_one()
    if sql.count(old) != 1:
        raise RuntimeError(f"{table}: expected {old!r} once in its definition")
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    bind.exec_driver_sql("PRAGMA writable_schema = ON")
    bind.exec_driver_sql("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
                         (sql.replace(old, new), table))
    bind.exec_driver_sql(f"PRAGMA schema_version = {version + 1}")  # other connections re-read it
    bind.exec_driver_sql("PRAGMA writable_schema = OFF")
