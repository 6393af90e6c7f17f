"""Opening games and tables, and a game's conditions (R4-R6); closing them is
``roomops.seating.closing``. Services never commit."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from roomops.actors import get_in_room
from roomops.errors import Conflict, Invalid
from roomops.floor.events import RotationMayMove, SeatsMayOpen
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import lock_games, locked_game
from roomops.games.models import Game, Table


def open_game(unit: UnitOfWork, /, **fields: Any) -> Game:
    """R4: open a game at stakes; its conditions are then changed only through ``update_game``."""
    unit.actor.require("floor")
    game = Game(room_id=unit.actor.room_id, status="open", opened_at=unit.now, **fields)
    unit.session.add(game)
    unit.session.flush()
    unit.audit("game.opened", ("game", game.id), **fields)
    return game


def update_game(unit: UnitOfWork, /, game_id: int,
                **fields: Any) -> Game:
    """R6: a change of conditions is made by a supervisor and audited with before and after."""
    unit.actor.require("floor")
    game = get_in_room(unit.session, Game, game_id, unit.actor, "game")
    before = {k: getattr(game, k) for k in fields}
    for key, value in fields.items():
        setattr(game, key, value)
    if game.big_blind < game.small_blind or game.max_buyin < game.min_buyin:
        raise Invalid("the big blind must be at least the small blind and the maximum buy-in at "
                      "least the minimum", "R4")
    unit.audit("game.changed", ("game", game.id), before=before, after=fields)
    return game


def open_table(unit: UnitOfWork, game_id: int, name: str) -> Table:
    """R5: a supervisor opens a table for an open game; its seats are offered at once (R14)."""
    unit.actor.require("floor")
    game = locked_game(unit.session, get_in_room(unit.session, Game, game_id, unit.actor, "game").id)
    if game.status != "open":
        raise Conflict("the game is closed", "R5")
    clash = select(Table.id).where(
        Table.room_id == unit.actor.room_id, Table.name == name, Table.status == "open"
    )
    if unit.session.scalar(clash):
        raise Conflict(f"table {name} is already open", "R5")
    table = Table(room_id=unit.actor.room_id, game_id=game.id, name=name, status="open", opened_at=unit.now)
    unit.session.add(table)
    unit.session.flush()
    unit.audit("table.opened", ("table", table.id), name=name, game_id=game.id)
    unit.emit(SeatsMayOpen(game.id))
    unit.emit(RotationMayMove(table.room_id))  # R63: an open table takes a dealer
    return table


def offer_open_games(unit: UnitOfWork, room_id: int) -> None:
    """R14: each open game's open seats are offered (by the handlers, once per game), its lock
    taken here as every seat change takes it."""
    ids = unit.session.scalars(select(Game.id).where(Game.room_id == room_id, Game.status == "open"))
    for game in lock_games(unit.session, room_id, list(ids)):
        unit.emit(SeatsMayOpen(game.id))
