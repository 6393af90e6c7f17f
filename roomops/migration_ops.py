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


# ---- per-game marks (migrations 0020 and 0043) ------------------------------------------------
# A mark table (``<kind>_marks``: one number a game) that triggers move inside the writing
# transaction on every change of the rows a screen draws of the game. ``games_of`` names, for each
# table, the column of its written rows to start from and the SELECT that turns those values
# (``{0}``) into game ids. PostgreSQL: one trigger a statement and event, reading the statement's
# transition tables (a mark moves once a statement). SQLite: one trigger a row and event.

ROWS = {"INSERT": ("new",), "UPDATE": ("new", "old"), "DELETE": ("old",)}  # the rows each event has
ALL_EVENTS = ("INSERT", "UPDATE", "DELETE")
GameSources = dict[str, tuple[str, str]]


def create_game_marks(kind: str, games_of: GameSources, events: dict[str, tuple[str, ...]]) -> None:
    """The triggers that give each new game its ``kind`` mark and move the marks."""
    if op.get_context().dialect.name == "postgresql":
        _create_postgres_marks(kind, games_of, events)
        return
    op.execute(f"CREATE TRIGGER games_{kind}_mark AFTER INSERT ON games FOR EACH ROW "
               f"BEGIN INSERT INTO {kind}_marks (game_id) VALUES (NEW.id); END")
    for table, (column, games) in games_of.items():
        for event in events.get(table, ALL_EVENTS):
            keys = ", ".join(f"{row.upper()}.{column}" for row in ROWS[event])
            op.execute(f"CREATE TRIGGER {table}_{kind}_mark_{event.lower()} AFTER {event} ON {table} "
                       f"FOR EACH ROW BEGIN {_move(kind, games.format(keys))}; END")


def _create_postgres_marks(kind: str, games_of: GameSources, events: dict[str, tuple[str, ...]]) -> None:
    op.execute(f"CREATE FUNCTION games_{kind}_mark() RETURNS trigger AS $$ BEGIN "
               f"INSERT INTO {kind}_marks (game_id) SELECT id FROM new_rows; RETURN NULL; END $$ "
               "LANGUAGE plpgsql")
    op.execute(f"CREATE TRIGGER games_{kind}_mark AFTER INSERT ON games REFERENCING NEW TABLE AS new_rows "
               f"FOR EACH STATEMENT EXECUTE FUNCTION games_{kind}_mark()")
    for table, (column, games) in games_of.items():
        table_events = events.get(table, ALL_EVENTS)
        moves = " ".join(f"IF TG_OP = '{event}' THEN {_move(kind, games.format(_rows(column, event)))}"
                         "; END IF;" for event in table_events)
        op.execute(f"CREATE FUNCTION {table}_{kind}_mark() RETURNS trigger AS $$ BEGIN {moves} "
                   "RETURN NULL; END $$ LANGUAGE plpgsql")
        for event in table_events:  # each event's trigger names only its own transition tables
            tables = " ".join(f"{row.upper()} TABLE AS {row}_rows" for row in ROWS[event])
            op.execute(f"CREATE TRIGGER {table}_{kind}_mark_{event.lower()} AFTER {event} ON {table} "
                       f"REFERENCING {tables} FOR EACH STATEMENT EXECUTE FUNCTION {table}_{kind}_mark()")


def drop_game_marks(kind: str, games_of: GameSources, events: dict[str, tuple[str, ...]]) -> None:
    postgres = op.get_context().dialect.name == "postgresql"
    for table, table_events in [("games", ("INSERT",))] + [(t, events.get(t, ALL_EVENTS)) for t in games_of]:
        for event in table_events:
            name = f"games_{kind}_mark" if table == "games" else f"{table}_{kind}_mark_{event.lower()}"
            op.execute(f"DROP TRIGGER IF EXISTS {name}" + (f" ON {table}" if postgres else ""))
        if postgres:
            op.execute(f"DROP FUNCTION IF EXISTS {table}_{kind}_mark()")


def _rows(column: str, event: str) -> str:
    """PostgreSQL: the key column of the statement's transition tables."""
    return " UNION ALL ".join(f"SELECT {column} FROM {row}_rows" for row in ROWS[event])


def _move(kind: str, games: str) -> str:
    return f"UPDATE {kind}_marks SET mark = mark + 1 WHERE game_id IN ({games})"
