"""Command-line tools: `flask --app app --help` lists them."""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator
from contextlib import contextmanager

import click
import waitress
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import Connection, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from roomops import migrate
from roomops.actors import console
from roomops.books import roles
from roomops.books.verify import verify
from roomops.db import make_engine
from roomops.errors import RoomopsError
from roomops.floor.unit import UnitOfWork, unit
from roomops.rooms import staff
from roomops.rooms.models import ROLES, Room, Staff
from roomops.rooms.services import create_room
from roomops.runtime import ext


@contextmanager
def _unit(room: str | None = None) -> Iterator[UnitOfWork]:
    """A command's unit of work: its one commit point (``roomops.floor.unit``), acting as the
    console in ``room`` when one is named. A refusal is the command's error message (exit status
    1), nothing written."""
    try:
        with ext().sessions() as session:
            actor = console(_room(session, room).id) if room else None
            with unit(session, actor, ext().clock.now()) as uow:
                yield uow
    except RoomopsError as err:
        raise click.ClickException(str(err)) from None


def _log_to_console() -> None:
    """Long-running processes print log-ins, refusals and sweeps (the roomops.* loggers)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # not a line per sweep


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


@click.command("create-room", help="Create a card room (R1). SLUG is its short name in URLs.")
@click.argument("slug")
@click.argument("name")
@click.option("--timezone", default="UTC", show_default=True, help="IANA zone, e.g. Europe/London")
@click.option("--currency", default="GBP", show_default=True,
              help="ISO 4217 code of the only currency that plays (R32); fixed once the room exists")
@click.option("--locale", default="en_GB", show_default=True,
              help="how amounts are written and typed, e.g. de_DE (changeable in the room policy)")
@with_appcontext
def create_room_cmd(slug: str, name: str, timezone: str, currency: str, locale: str) -> None:
    with _unit() as uow:
        create_room(uow.session, uow.now, slug=slug, name=name, timezone=timezone,
                    currency=currency, locale=locale)
        uow.commit()
    click.echo(f"room {slug} created")


def _room(session: Session, slug: str) -> Room:
    found = session.scalar(select(Room).where(Room.slug == slug))
    if found is None:
        raise click.ClickException(f"no room {slug}")
    return found


def _person(uow: UnitOfWork, username: str) -> Staff:
    found = uow.session.scalar(select(Staff).where(Staff.username == username))
    if found is None:
        raise click.ClickException(f"no staff member {username}")
    return found


ROLE_OPTION = click.option("--role", "roles", type=click.Choice(ROLES), multiple=True,
                           required=True, help="A role in ROOM (R61); repeat it for several.")


@click.group("staff", help="Manage staff log-ins (R61) from the server's console, as an admin "
             "of the room named; every change is audited as \"console\" (R60). Admins do the "
             "same on the Staff screen.")
def staff_group() -> None:
    pass


@staff_group.command("create", help="Create USERNAME with roles in ROOM; asks for a password "
                     "(at least 12 characters, not a common one).")
@click.argument("room")
@click.argument("username")
@ROLE_OPTION
@click.option("--name", "display_name", help="Name shown in the audit trail.")
@click.password_option(help="Asked for when not given. At least 12 characters, not the username, "
                       "not easy to guess: a few unrelated words do (R61).")
@with_appcontext
def staff_create(room: str, username: str, roles: tuple[str, ...], display_name: str | None,
                 password: str) -> None:
    with _unit(room) as uow:
        uow.run(staff.create_staff, username=username, password=password, roles=roles,
                display_name=display_name)
        uow.commit()
    click.echo(f"{username} created in {room} as {', '.join(roles)}")


@staff_group.command("roles", help="Give USERNAME exactly these roles in ROOM (someone from "
                     "another room joins it); their log-ins and API token end. --none: they no "
                     "longer work in ROOM.")
@click.argument("room")
@click.argument("username")
@click.option("--role", "roles", type=click.Choice(ROLES), multiple=True,
              help="A role in ROOM; repeat it for several.")
@click.option("--none", "leave", is_flag=True, help="Take every role in ROOM away.")
@with_appcontext
def staff_roles(room: str, username: str, roles: tuple[str, ...], leave: bool) -> None:
    if bool(roles) == leave:
        raise click.UsageError("give --role (one or more) or --none")
    with _unit(room) as uow:
        uow.run(staff.set_roles, username, roles)
        uow.commit()
    click.echo(f"{username} in {room}: {', '.join(roles) or 'no roles'}")


@staff_group.command("reset-password", help="Set a new password for USERNAME (asked for); their "
                     "log-ins and API token end.")
@click.argument("room")
@click.argument("username")
@click.password_option(help="Asked for when not given.")
@with_appcontext
def staff_reset_password(room: str, username: str, password: str) -> None:
    with _unit(room) as uow:
        uow.run(staff.reset_password, _person(uow, username).id, password)
        uow.commit()
    click.echo(f"password of {username} reset")


@staff_group.command("deactivate", help="Deactivate a leaver: every log-in and the API token "
                     "end at once, in every room; what they recorded keeps their name.")
@click.argument("room")
@click.argument("username")
@click.option("--reason", required=True, help="Why (they left, say): in the audit trail.")
@with_appcontext
def staff_deactivate(room: str, username: str, reason: str) -> None:
    with _unit(room) as uow:
        uow.run(staff.set_active, _person(uow, username).id, False, reason)
        uow.commit()
    click.echo(f"{username} deactivated")


@staff_group.command("activate", help="Let a deactivated USERNAME log in again.")
@click.argument("room")
@click.argument("username")
@with_appcontext
def staff_activate(room: str, username: str) -> None:
    with _unit(room) as uow:
        uow.run(staff.set_active, _person(uow, username).id, True)
        uow.commit()
    click.echo(f"{username} activated")


@staff_group.command("list", help="The staff of ROOM: username, name, roles, active or not.")
@click.argument("room")
@with_appcontext
def staff_list(room: str) -> None:
    with _unit() as uow:
        for person, roles in staff.room_staff(uow.session, _room(uow.session, room).id):
            state = "" if person.active else "  (deactivated)"
            click.echo(f"{person.username:<20} {person.display_name:<30} {', '.join(roles)}{state}")


@click.command("api-token", help="Issue a new API token for USERNAME in ROOM, acting with their "
               "roles there (the old token stops working).")
@click.argument("room")
@click.argument("username")
@with_appcontext
def api_token_cmd(room: str, username: str) -> None:
    with _unit() as uow:
        token = staff.issue_api_token(uow.session, _person(uow, username), _room(uow.session, room).id)
        uow.commit()
    click.echo(token)


@click.command("demo", help="Load a demo room if the database has no room yet; print the logins.")
@with_appcontext
def demo_cmd() -> None:
    from roomops.demo import load_demo

    with _unit() as uow:
        logins = load_demo(uow.session, uow.now)
        uow.commit()
    if not logins:
        click.echo("the database already has a room: demo not loaded")
    for username, password, role in logins:
        click.echo(f"  {role:<10} login: {username:<12} password: {password}")


@click.command(
    "serve",
    help="Serve the app with waitress, with the scheduler inside unless ROOMOPS_SCHEDULER=off.",
)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True)
@click.option("--threads", default=8, show_default=True, help="Requests served at once.")
@with_appcontext
def serve_cmd(host: str, port: int, threads: int) -> None:
    from roomops.jobs.scheduler import start_background

    _log_to_console()
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # the proxy's app, undeclared
    if ext().settings.scheduler == "embedded":
        start_background(app)
        click.echo("scheduler running inside the web process")
    click.echo(f"serving on http://{host}:{port}")
    # What start-up built (modules, mappers, the app) lives as long as the process: frozen, the
    # full garbage collections that come every few hundred requests leave it alone and take
    # ~0.5 ms instead of ~40 ms in the middle of some request (docs/benchmarks.md).
    gc.freeze()
    waitress.serve(app, host=host, port=port, threads=threads, ident="roomops")


@click.command("scheduler", help="Run only the scheduler (one per deployment with several workers).")
@with_appcontext
def scheduler_cmd() -> None:
    from roomops.jobs.scheduler import run_blocking

    _log_to_console()
    click.echo("scheduler running; Ctrl-C stops it")
    run_blocking(current_app._get_current_object())  # type: ignore[attr-defined]  # the proxy's app, undeclared


@click.command("sweep", help="Run the sweep once now (what the scheduler does every few seconds).")
@with_appcontext
def sweep_cmd() -> None:
    from roomops.jobs.scheduler import sweep_once

    result = sweep_once(current_app._get_current_object())  # type: ignore[attr-defined]  # the proxy's app, undeclared
    click.echo(f"{len(result.expired_offers)} offers expired, {len(result.no_shows)} no-shows")


def install(app: Flask) -> None:
    for command in (db_group, create_room_cmd, staff_group, api_token_cmd, demo_cmd,
                    serve_cmd, scheduler_cmd, sweep_cmd, verify_books_cmd):
        app.cli.add_command(command)
