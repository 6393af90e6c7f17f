"""Building rooms, games, tables and players for tests through the real services."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import Actor, console
from roomops.games.models import Game, Table
from roomops.games.services import open_game, open_table
from roomops.rooms.models import Player, Room, Staff, StaffRole
from roomops.rooms.services import add_player, create_room
from roomops.rooms.staff import create_staff
from tests.units import act

PASSWORD = "correct horse battery"
# each test room's staff, by key (their username is "<slug>-<key>"): "admin" is the room's
# manager, an admin who also supervises (R61: an admin alone runs no floor and posts no money)
ROLES_OF: dict[str, tuple[str, ...]] = {
    "admin": ("admin", "supervisor"), "supervisor": ("supervisor",), "cashier": ("cashier",),
    "dealer": ("dealer",)}

GAME_DEFAULTS: dict[str, Any] = dict(
    variant="NL Hold'em", small_blind=100, big_blind=200, min_buyin=10000, max_buyin=40000,
    seats_per_table=9,
)


class Room_:
    """A room with its staff (``ROLES_OF``), and shortcuts to build on it."""

    def __init__(self, session: Session, now: datetime, slug: str = "main", **policy: Any) -> None:
        self.session = session
        self.room: Room = create_room(session, now, slug=slug, name=f"Room {slug}", **policy)
        self.staff: dict[str, Staff] = {
            key: act(session, console(self.room.id), now, create_staff, username=f"{slug}-{key}",
                     password=PASSWORD, roles=roles)
            for key, roles in ROLES_OF.items()
        }
        self.sup = self.actor("supervisor")

    def actor(self, key: str) -> Actor:
        s = self.staff[key]
        return Actor(self.room.id, s.id, s.username, frozenset(ROLES_OF[key]))

    def game(self, now: datetime, **fields: Any) -> Game:
        return act(self.session, self.sup, now, open_game, **{**GAME_DEFAULTS, **fields})

    def table(self, now: datetime, game: Game, name: str) -> Table:
        return act(self.session, self.sup, now, open_table, game.id, name)

    def player(self, now: datetime, first: str, last: str = "Player") -> Player:
        # a test builds the room it needs, twins included (the twin check: tests/rules/test_twins.py)
        return act(self.session, self.sup, now, add_player, first_name=first, last_name=last,
                   create_anyway=True)

    def players(self, now: datetime, n: int, prefix: str = "P") -> list[Player]:
        return [self.player(now, f"{prefix}{i}") for i in range(1, n + 1)]


def as_staff(session: Session, username: str) -> Actor:
    """The actor of ``username`` in their (one) room, with their roles there."""
    staff = session.scalar(select(Staff).where(Staff.username == username))
    assert staff is not None, username
    rows = session.execute(select(StaffRole.room_id, StaffRole.role).where(
        StaffRole.staff_id == staff.id)).all()
    return Actor(rows[0][0], staff.id, staff.username, frozenset(role for _, role in rows))


# The policy form's boxes ticked in a new room besides offers, two-person reversals and call-ins:
# a test posting the form sends them, as the page does, to leave them as they are (R50, R51).
POLICY_TICKED = {"time_decline_until_bb": "on", "rake_split_pots": "on"}
