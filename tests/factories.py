"""Building rooms, games, tables and players for tests through the real services."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.games.models import Game, Table
from roomops.games.services import open_game, open_table
from roomops.rooms.models import Player, Room, Staff
from roomops.rooms.services import add_player, create_room, create_staff

PASSWORD = "correct horse battery"

GAME_DEFAULTS: dict[str, Any] = dict(
    variant="NL Hold'em", small_blind=100, big_blind=200, min_buyin=10000, max_buyin=40000,
    seats_per_table=9,
)


class Room_:
    """A room with a supervisor, a cashier and an admin, and shortcuts to build on it."""

    def __init__(self, session: Session, now: datetime, slug: str = "main", **policy: Any) -> None:
        self.session = session
        self.room: Room = create_room(session, now, slug=slug, name=f"Room {slug}", **policy)
        self.staff: dict[str, Staff] = {
            role: create_staff(session, now, room=self.room, username=f"{slug}-{role}",
                               password=PASSWORD, role=role)
            for role in ("admin", "supervisor", "cashier", "dealer")
        }
        self.sup = self.actor("supervisor")

    def actor(self, role: str) -> Actor:
        s = self.staff[role]
        return Actor(self.room.id, s.id, s.username, s.role)

    def game(self, now: datetime, **fields: Any) -> Game:
        return open_game(self.session, self.sup, now, **{**GAME_DEFAULTS, **fields})

    def table(self, now: datetime, game: Game, name: str) -> Table:
        return open_table(self.session, self.sup, now, game.id, name)

    def player(self, now: datetime, first: str, last: str = "Player") -> Player:
        return add_player(self.session, self.sup, now, first_name=first, last_name=last)

    def players(self, now: datetime, n: int, prefix: str = "P") -> list[Player]:
        return [self.player(now, f"{prefix}{i}") for i in range(1, n + 1)]
