"""``flask figures``: the manager's figures' read model (R80; docs/figures.md)."""

from __future__ import annotations

import click
from flask.cli import with_appcontext
from sqlalchemy import select

from roomops.cli.common import command_unit
from roomops.figures.keep import rebuild
from roomops.rooms.models import Room
from roomops.runtime import ext


@click.group("figures", help="The manager's figures (R80): the hourly read model the sweep keeps.")
def figures_group() -> None:
    pass


@figures_group.command("rebuild", help=(
    "Roll up a room's whole history again from the books and the state rows (ROOM: its short "
    "name; every room when none is given), replacing its hourly figures: after restoring a "
    "backup, or if the figures were ever in doubt. The sweep keeps them from then on. Each room is "
    "one transaction, audited."))
@click.argument("room", required=False)
@with_appcontext
def rebuild_cmd(room: str | None) -> None:
    if room is None:
        with ext().read_sessions() as session:
            slugs = list(session.scalars(select(Room.slug).order_by(Room.id)))
    else:
        slugs = [room]
    for slug in slugs:
        with command_unit(slug) as uow:
            hours = rebuild(uow.session, uow.actor.room_id, uow.now)
            uow.audit("figures.rebuilt", ("room", uow.actor.room_id), hours=hours)
            uow.commit()
        click.echo(f"{slug}: {hours} hours rolled up")
