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
from sqlalchemy import select

from roomops import migrate
from roomops.errors import RoomopsError
from roomops.floor.unit import UnitOfWork, unit
from roomops.rooms.models import ROLES, Room, Staff
from roomops.rooms.services import create_room, create_staff, issue_api_token
from roomops.runtime import ext


@contextmanager
def _unit() -> Iterator[UnitOfWork]:
    """A command's unit of work: its one commit point (``roomops.floor.unit``). A refusal is the
    command's error message (exit status 1), nothing written."""
    try:
        with ext().sessions() as session, unit(session, None, ext().clock.now()) as uow:
            yield uow
    except RoomopsError as err:
        raise click.ClickException(str(err)) from None


def _log_to_console() -> None:
    """Long-running processes print log-ins, refusals and sweeps (the roomops.* loggers)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # not a line per sweep


@click.group("db", help="Apply or roll back the Alembic migrations (the only source of the schema).")
def db_group() -> None:
    pass


@db_group.command("upgrade", help="Migrate the database to the newest schema.")
@with_appcontext
def db_upgrade() -> None:
    migrate.upgrade(ext().settings.database_url)
    click.echo("database is at the newest schema")


@db_group.command("downgrade", help="Roll the schema back to REVISION (default: empty).")
@click.argument("revision", default="base")
@with_appcontext
def db_downgrade(revision: str) -> None:
    migrate.downgrade(ext().settings.database_url, revision)


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


@click.command("create-staff", help="Create a staff login in ROOM (R61).")
@click.argument("room")
@click.argument("username")
@click.option("--role", type=click.Choice(ROLES), required=True)
@click.option("--name", "display_name", help="Name shown in the audit trail.")
@click.password_option(help="Asked for when not given. At least 12 characters, not the username, "
                       "not easy to guess: a few unrelated words do (R61).")
@with_appcontext
def create_staff_cmd(room: str, username: str, role: str, display_name: str | None,
                     password: str) -> None:
    with _unit() as uow:
        found = uow.session.scalar(select(Room).where(Room.slug == room))
        if found is None:
            raise click.ClickException(f"no room {room}")
        create_staff(uow.session, uow.now, room=found, username=username, password=password,
                     role=role, display_name=display_name)
        uow.commit()
    click.echo(f"{role} {username} created in {room}")


@click.command("api-token", help="Issue a new API token for USERNAME (the old one stops working).")
@click.argument("username")
@with_appcontext
def api_token_cmd(username: str) -> None:
    with _unit() as uow:
        staff = uow.session.scalar(select(Staff).where(Staff.username == username))
        if staff is None:
            raise click.ClickException(f"no staff member {username}")
        token = issue_api_token(staff)
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
    for command in (db_group, create_room_cmd, create_staff_cmd, api_token_cmd, demo_cmd,
                    serve_cmd, scheduler_cmd, sweep_cmd):
        app.cli.add_command(command)
