"""The role the app connects as on PostgreSQL (R31, R52, R54, R60): it owns nothing, so it can
neither drop a trigger nor change a table; it reads and adds to the books and changes the rest
(``rules.app_rights``). ``flask db create-roles`` makes it; ``flask db upgrade`` grants it the
tables a migration adds. Run as the tables' owner, in one transaction (the caller's)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from roomops.books.rules import TABLE_RIGHTS, app_rights, app_update_columns
from roomops.errors import Conflict, Invalid


def app_role(app_url: str, owner_url: str) -> str | None:
    """The role in the app's URL when it is not the owner's (None: SQLite, or one role for both)."""
    app, owner = make_url(app_url), make_url(owner_url)
    if app.get_backend_name() != "postgresql" or app.username == owner.username:
        return None
    return app.username


def role_exists(conn: Connection, role: str) -> bool:
    return bool(conn.scalar(text("SELECT count(*) FROM pg_roles WHERE rolname = :r"), {"r": role}))


def ensure_role(conn: Connection, role: str, password: str | None) -> bool:
    """Create ``role`` (LOGIN, nothing more), or set the password of the one there when one is
    given; True when it was created. The server quotes the name and the password (``format``)."""
    if role == conn.scalar(text("SELECT current_user")):
        raise Conflict(f"{role} is the owner of the tables: the app needs a role of its own", "R60")
    exists = role_exists(conn, role)
    if not exists and password is None:
        raise Invalid(f"role {role} does not exist yet: give it a password", "R60")
    if exists and password is None:
        return False
    sql = ("ALTER ROLE %I WITH LOGIN PASSWORD %L" if exists else
           "CREATE ROLE %I WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD %L")
    conn.execute(text(conn.scalar(text("SELECT format(:sql, CAST(:r AS text), CAST(:p AS text))"),
                                  {"sql": sql, "r": role, "p": password})))
    return not exists


def grant(conn: Connection, role: str) -> None:
    """Give ``role`` exactly its rights on every table and sequence of the current schema (what it
    had before is revoked first, so running this again changes nothing), then check them."""
    if not role_exists(conn, role):
        raise Invalid(f"no role {role}: make it with `flask db create-roles`", "R60")
    quote = conn.dialect.identifier_preparer.quote_identifier
    schema = quote(conn.scalar(text("SELECT current_schema()")))
    who = quote(role)
    statements = [f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {who}",
                  f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {who}",
                  f"REVOKE ALL ON SCHEMA {schema} FROM {who}",
                  # PostgreSQL 15 does this by default; older ones let every role create tables
                  f"REVOKE CREATE ON SCHEMA {schema} FROM PUBLIC",
                  f"GRANT USAGE ON SCHEMA {schema} TO {who}",
                  f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {who}"]
    for table, columns in _columns(conn).items():
        statements.append(f"GRANT {', '.join(sorted(app_rights(table)))} ON {schema}.{quote(table)} "
                          f"TO {who}")
        if updatable := sorted(app_update_columns(table, columns)):
            statements.append(f"GRANT UPDATE ({', '.join(map(quote, updatable))}) ON "
                              f"{schema}.{quote(table)} TO {who}")
    for statement in statements:
        conn.execute(text(statement))
    if problems := check(conn, role):
        raise Conflict(f"role {role} is not as roomops needs it: " + "; ".join(problems), "R60")


@dataclass(frozen=True)
class Rights:
    """What a role can do to the current schema's tables, as PostgreSQL answers for it (its own
    grants, PUBLIC's and its roles' together)."""

    tables: dict[str, frozenset[str]]
    update_columns: dict[str, frozenset[str]]
    sequences_usable: bool
    creates: bool
    owns: int
    superuser: bool


_TABLE_RIGHTS = text(
    "SELECT t.tablename, r.name FROM pg_tables t CROSS JOIN unnest(CAST(:rights AS text[])) "
    "AS r(name) WHERE t.schemaname = current_schema() AND "
    "has_table_privilege(:role, format('%I.%I', t.schemaname, t.tablename), r.name)")
_UPDATE_COLUMNS = text(
    "SELECT c.table_name, c.column_name FROM information_schema.columns c "
    "JOIN pg_tables t ON t.tablename = c.table_name AND t.schemaname = c.table_schema "
    "WHERE c.table_schema = current_schema() AND has_column_privilege(:role, "
    "format('%I.%I', c.table_schema, c.table_name), c.column_name, 'UPDATE')")
_ROLE = text(
    "SELECT r.rolsuper, has_schema_privilege(r.oid, current_schema(), 'CREATE'), "
    "(SELECT count(*) FROM pg_class c WHERE c.relowner = r.oid) "
    "+ (SELECT count(*) FROM pg_namespace n WHERE n.nspowner = r.oid) "
    "+ (SELECT count(*) FROM pg_proc p WHERE p.proowner = r.oid) "
    "+ (SELECT count(*) FROM pg_database d WHERE d.datdba = r.oid AND d.datname = current_database()), "
    "coalesce((SELECT bool_and(has_sequence_privilege(r.oid, format('%I.%I', s.schemaname, "
    "s.sequencename), 'USAGE')) FROM pg_sequences s WHERE s.schemaname = current_schema()), true) "
    "FROM pg_roles r WHERE r.rolname = :role")


def rights(conn: Connection, role: str) -> Rights:
    tables: dict[str, set[str]] = defaultdict(set)
    for table, right in conn.execute(_TABLE_RIGHTS, {"role": role, "rights": list(TABLE_RIGHTS)}):
        tables[table].add(right)
    columns: dict[str, set[str]] = defaultdict(set)
    for table, column in conn.execute(_UPDATE_COLUMNS, {"role": role}):
        columns[table].add(column)
    superuser, creates, owns, sequences = conn.execute(_ROLE, {"role": role}).one()
    return Rights({t: frozenset(r) for t, r in tables.items()},
                  {t: frozenset(c) for t, c in columns.items()}, sequences, creates, owns, superuser)


def check(conn: Connection, role: str) -> list[str]:
    """What keeps ``role`` from being the app's role as ``rules.app_rights`` says (empty: nothing)."""
    found = rights(conn, role)
    if found.superuser:
        return [f"{role} is a superuser: it can do anything"]
    problems = [f"it owns {found.owns} objects (tables, functions, the schema or the database)"
                ] if found.owns else []
    if found.creates:
        problems.append("it can create objects in the schema (a superuser must run "
                        "REVOKE CREATE ON SCHEMA public FROM PUBLIC once)")
    if not found.sequences_usable:
        problems.append("it cannot use every sequence")
    for table, columns in _columns(conn).items():
        want = app_rights(table)
        have = found.tables.get(table, frozenset())
        if have != want:
            problems.append(f"on {table} it has {', '.join(sorted(have)) or 'nothing'}, not "
                            f"{', '.join(sorted(want))}")
        if "UPDATE" not in have and found.update_columns.get(table, frozenset()) != app_update_columns(
                table, columns):
            problems.append(f"it may UPDATE {table}'s columns "
                            f"{', '.join(sorted(found.update_columns.get(table, ()))) or 'none'}")
    return problems


def _columns(conn: Connection) -> dict[str, list[str]]:
    """The current schema's tables and their columns."""
    found: dict[str, list[str]] = defaultdict(list)
    for table, column in conn.execute(text(
            "SELECT c.table_name, c.column_name FROM information_schema.columns c JOIN pg_tables t "
            "ON t.tablename = c.table_name AND t.schemaname = c.table_schema "
            "WHERE c.table_schema = current_schema() ORDER BY c.table_name, c.ordinal_position")):
        found[table].append(column)
    return dict(found)


# issue 40: what /health and the start-up say when the app's own role is more than it should be
SUPERUSER, OWNS_TABLES = "superuser", "owns_tables"
ROLE_WARNINGS = {
    SUPERUSER: "the app connects to PostgreSQL as a superuser: it could change or empty the books "
               "and drop their triggers (README, \"Running it for real\": a role of its own)",
    OWNS_TABLES: "the app connects to PostgreSQL as an owner of the tables (or the schema, the "
                 "database): it could alter them and drop the books' triggers (README, \"Running "
                 "it for real\": a role of its own)",
}


def role_warnings(conn: Connection) -> list[str]:
    """What is wrong with the role ``conn`` is logged in as (R52, R60): a superuser, the tables'
    owner (``ROLE_WARNINGS``' keys); none on SQLite, where the file's permissions are the guard."""
    if conn.dialect.name != "postgresql":
        return []
    superuser, _creates, owns, _sequences = conn.execute(
        _ROLE, {"role": conn.scalar(text("SELECT current_user"))}).one()
    return [w for w, so in ((SUPERUSER, superuser), (OWNS_TABLES, owns > 0)) if so]
