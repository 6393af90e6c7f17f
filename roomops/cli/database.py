"""The schema and the books: migrations, the app's own PostgreSQL role, verifying the books,
backing the database up."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from flask.cli import with_appcontext
from sqlalchemy import Connection
from sqlalchemy.engine import make_url

from roomops import migrate
from roomops.books import roles
from roomops.books.backup import backup
from roomops.books.verify import verify
from roomops.db import make_engine
from roomops.errors import RoomopsError
from roomops.runtime import ext


@click.group("db", help="Apply or roll back the Alembic migrations (the only source of the schema), "
             "and set up the app's own PostgreSQL role.")
def db_group() -> None:
    pass


@db_group.command("upgrade", help=(
    "Migrate the database to the newest schema. Connects as the tables' owner "
    "(ROOMOPS_OWNER_DATABASE_URL, else ROOMOPS_DATABASE_URL); when the app connects as another "
    "PostgreSQL role (the user of ROOMOPS_DATABASE_URL), grants it the tables a migration added, "
    "as `db create-roles` does."))
@with_appcontext
def db_upgrade() -> None:
    settings = ext().settings
    migrate.upgrade(settings.owner_url)
    click.echo("database is at the newest schema")
    role = roles.app_role(settings.database_url, settings.owner_url)
    if role is None:
        return
    with _as_owner() as conn:
        if not roles.role_exists(conn, role):
            click.echo(f"role {role} does not exist yet: run `flask --app app db create-roles`")
            return
        roles.grant(conn, role)
    click.echo(f"role {role} granted the app's rights on every table")


@db_group.command("downgrade", help="Roll the schema back to REVISION (default: empty), as the "
                  "tables' owner (ROOMOPS_OWNER_DATABASE_URL, else ROOMOPS_DATABASE_URL).")
@click.argument("revision", default="base")
@with_appcontext
def db_downgrade(revision: str) -> None:
    migrate.downgrade(ext().settings.owner_url, revision)


@db_group.command("create-roles", help=(
    "PostgreSQL: create or update the role the app connects as, so that it owns nothing and "
    "cannot rewrite the books. Run it as the tables' owner after `db upgrade`: it connects with "
    "ROOMOPS_OWNER_DATABASE_URL (else ROOMOPS_DATABASE_URL; that role needs CREATEROLE to make "
    "the app's). The app's role and password are ROOMOPS_DATABASE_URL's user and password unless "
    "--role and --password name others. It may SELECT and INSERT on the append-only tables "
    "(ledger_entries, audit_events, hands, dealer_downs, penalties, day_counts, day_closes) and "
    "transit_slips, UPDATE only a slip's state and steps (and lock a hand), only read "
    "alembic_version, SELECT, INSERT, UPDATE and DELETE the other tables and use the sequences; "
    "no TRUNCATE, no DDL. Safe to run again: it revokes and grants the same rights, then checks "
    "them. See docs/security.md, \"The books\"."))
@click.option("--role", help="The app's role (default: the user of ROOMOPS_DATABASE_URL).")
@click.option("--password", help="Its password (default: the one in ROOMOPS_DATABASE_URL when "
              "that names the role; an existing role keeps its own when none is given).")
@with_appcontext
def db_create_roles(role: str | None, password: str | None) -> None:
    settings = ext().settings
    if make_url(settings.owner_url).get_backend_name() != "postgresql":
        raise click.ClickException("create-roles is for PostgreSQL; a SQLite file is protected by "
                                   "its permissions and backups (docs/security.md, \"The books\")")
    app_url = make_url(settings.database_url)
    role = role or roles.app_role(settings.database_url, settings.owner_url)
    if role is None:
        raise click.ClickException("the app connects as the owner: set ROOMOPS_DATABASE_URL to the "
                                   "app's role and ROOMOPS_OWNER_DATABASE_URL to the owner's, or "
                                   "name the app's role with --role")
    if password is None and app_url.username == role:
        password = app_url.password
    with _as_owner() as conn:
        created = roles.ensure_role(conn, role, password)
        roles.grant(conn, role)
    click.echo(f"role {role} {'created' if created else 'updated'}: it reads and adds to the books, "
               "changes the rest, owns nothing")


@contextmanager
def _as_owner() -> Iterator[Connection]:
    """One transaction as the tables' owner; a refusal is the command's error message (exit
    status 1), nothing changed."""
    engine = make_engine(ext().settings.owner_url)
    try:
        with engine.begin() as conn:
            yield conn
    except RoomopsError as err:
        raise click.ClickException(str(err)) from None
    finally:
        engine.dispose()


@click.command("verify-books", help=(
    "Check that the books have not been changed outside the app (R31, R52, R54, R60), on SQLite "
    "or PostgreSQL, reading only: every append-only table (ledger, audit trail, hands, dealer "
    "downs, penalties, counts, closes) and transit_slips still has its triggers refusing UPDATE "
    "and DELETE (and TRUNCATE on PostgreSQL), enabled; every closed shift still holds the ledger "
    "rows and total its close recorded; every ledger row and transit slip has its audit events, "
    "which record its amount, method and room (and a slip's number), and no audit event names a "
    "row that is gone. Prints each finding and exits with status 1 when there is any; prints a "
    "one-line summary and exits 0 otherwise. Run it daily and after any database work."))
@with_appcontext
def verify_books_cmd() -> None:
    with ext().read_sessions() as session:
        result = verify(session)
    for finding in result.findings:
        click.echo(finding)
    if result.findings:
        raise click.ClickException(f"{len(result.findings)} findings: the books were changed "
                                   "outside the app, or their triggers were")
    click.echo(f"the books are as the app wrote them: {result.summary()}")


@click.command("backup", help=(
    "Write a consistent copy of the database to PATH, safe while the room runs and money moves "
    "(a new file: an existing one is refused). SQLite: SQLite's online backup API, never a plain "
    "file copy of the live file; the copy is itself a database, checked by SQLite before it is "
    "kept. PostgreSQL: pg_dump in its custom format, as the tables' owner "
    "(ROOMOPS_OWNER_DATABASE_URL, else ROOMOPS_DATABASE_URL), restored with pg_restore into a new "
    "database. Then run verify-books on the restored copy. See docs/backups.md."))
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_cmd(path: Path) -> None:
    try:
        click.echo(backup(ext().settings.owner_url, path))
    except RoomopsError as err:
        raise click.ClickException(str(err)) from None
