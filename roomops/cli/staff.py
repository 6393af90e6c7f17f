"""Staff log-ins from the server's console (R61), acting as an admin of the room named."""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from roomops.cli.common import command_unit, person_named, room_named
from roomops.rooms import staff
from roomops.rooms.models import ROLES
from roomops.rooms.roles import room_staff

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
    with command_unit(room) as uow:
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
    with command_unit(room) as uow:
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
    with command_unit(room) as uow:
        uow.run(staff.reset_password, person_named(uow, username).id, password)
        uow.commit()
    click.echo(f"password of {username} reset")


@staff_group.command("deactivate", help="Deactivate a leaver: every log-in and the API token "
                     "end at once, in every room; what they recorded keeps their name.")
@click.argument("room")
@click.argument("username")
@click.option("--reason", required=True, help="Why (they left, say): in the audit trail.")
@with_appcontext
def staff_deactivate(room: str, username: str, reason: str) -> None:
    with command_unit(room) as uow:
        uow.run(staff.set_active, person_named(uow, username).id, False, reason)
        uow.commit()
    click.echo(f"{username} deactivated")


@staff_group.command("activate", help="Let a deactivated USERNAME log in again.")
@click.argument("room")
@click.argument("username")
@with_appcontext
def staff_activate(room: str, username: str) -> None:
    with command_unit(room) as uow:
        uow.run(staff.set_active, person_named(uow, username).id, True)
        uow.commit()
    click.echo(f"{username} activated")


@staff_group.command("list", help="The staff of ROOM: username, name, roles, active or not.")
@click.argument("room")
@with_appcontext
def staff_list(room: str) -> None:
    with command_unit() as uow:
        for person, roles in room_staff(uow.session, room_named(uow.session, room).id):
            state = "" if person.active else "  (deactivated)"
            click.echo(f"{person.username:<20} {person.display_name:<30} {', '.join(roles)}{state}")


@click.command("api-token", help="Issue a new API token for USERNAME in ROOM, acting with their "
               "roles there (the old token stops working).")
@click.argument("room")
@click.argument("username")
@with_appcontext
def api_token_cmd(room: str, username: str) -> None:
    with command_unit() as uow:
        person, place = person_named(uow, username), room_named(uow.session, room)
        token = staff.issue_api_token(uow.session, person, place.id)
        uow.commit()
    click.echo(token)
