"""What every command shares: its unit of work, acting as the console in a room, and finding
rooms and people by name."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import click
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from roomops.actors import console
from roomops.books.roles import ROLE_WARNINGS, role_warnings
from roomops.errors import RoomopsError
from roomops.floor.unit import UnitOfWork
from roomops.rooms.models import Room, Staff
from roomops.runtime import ext
from roomops.text import typed_name

log = logging.getLogger("roomops")


@contextmanager
def command_unit(room: str | None = None) -> Iterator[UnitOfWork]:
    """A command's unit of work: its one commit point (``roomops.floor.unit``), acting as the
    console in ``room`` when one is named. A refusal is the command's error message (exit status
    1), nothing written."""
    try:
        with ext().sessions() as session:
            actor = console(room_named(session, room).id) if room else None
            with ext().unit_of_work(session, actor) as uow:
                yield uow
    except RoomopsError as err:
        raise click.ClickException(str(err)) from None


def log_to_console() -> None:
    """Long-running processes print log-ins, refusals and sweeps (the roomops.* loggers)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # not a line per sweep


def room_named(session: Session, slug: str) -> Room:
    found = session.scalar(select(Room).where(Room.slug == slug))
    if found is None:
        raise click.ClickException(f"no room {slug}")
    return found


def person_named(uow: UnitOfWork, username: str) -> Staff:
    found = uow.session.scalar(select(Staff).where(Staff.username == typed_name(username)))
    if found is None:
        raise click.ClickException(f"no staff member {username}")
    return found


def warn_about_role() -> list[str]:
    """At a long-running process's start (serve, scheduler, push-server; issue 40): say so when the
    app's PostgreSQL role is a superuser or owns the tables. A database this process cannot reach
    (a push server needs none) is not its to judge here: nothing said."""
    try:
        with ext().engine.connect() as conn:
            found = role_warnings(conn)
    except SQLAlchemyError:
        return []
    for warning in found:
        log.warning("%s", ROLE_WARNINGS[warning])
        click.echo(f"warning: {ROLE_WARNINGS[warning]}", err=True)
    return found
