"""Opening and closing games and tables (R4-R6). Services never commit."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from roomops.actors import get_in_room
from roomops.errors import Conflict, Invalid
from roomops.floor.events import SeatsMayOpen
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import locked_game
from roomops.games.models import Game, Table
from roomops.holds.models import SeatHold
from roomops.lists.history import end_entries
from roomops.lists.models import ListEntry


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


def close_game(unit: UnitOfWork, game_id: int) -> Game:
    """R5: a game closes once its tables are closed; its waiting list ends with a reason (R16)."""
    unit.actor.require("floor")
    game = locked_game(unit.session, get_in_room(unit.session, Game, game_id, unit.actor, "game").id)
    if game.status != "open":
        raise Conflict("the game is already closed", "R5")
    if unit.session.scalar(select(Table.id).where(Table.game_id == game.id, Table.status == "open")):
        raise Conflict("close the game's tables first", "R5")
    game.status, game.closed_at = "closed", unit.now
    end_entries(unit, select(ListEntry).where(ListEntry.game_id == game.id),
                "game closed")
    unit.audit("game.closed", ("game", game.id))
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
    return table


def close_table(unit: UnitOfWork, table_id: int) -> Table:
    """R5/R19: refuse while anyone is seated (breaking a table moves them first,
    ``roomops.seating.moves.break_table``); otherwise ``shut_table``."""
    unit.actor.require("floor")
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table")
    game = locked_game(unit.session, table.game_id)
    if table.status != "open":
        raise Conflict(f"table {table.name} is already closed", "R5")
    if unit.session.scalar(select(SeatHold.id).where(
            SeatHold.table_id == table.id, SeatHold.kind == "seated", SeatHold.ended_at.is_(None))):
        raise Conflict(f"table {table.name} has seated players: move or release them first", "R5")
    return shut_table(unit, table, game)


def shut_table(unit: UnitOfWork, table: Table, game: Game) -> Table:
    """Close a table nobody sits at any more (R5): open offers are cancelled (not a missed call),
    the reserve list ends with a reason (R16), a must-move table feeding it feeds no more (R17);
    players whose call was cancelled are offered seats at the game's other tables (R14)."""
    live = list(unit.session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.ended_at.is_(None)
    )))
    for offer in live:
        offer.ended_at, offer.outcome = unit.now, "cancelled"
    end_entries(unit, select(ListEntry).where(ListEntry.table_id == table.id),
                "table closed")
    for feeder in unit.session.scalars(select(Table).where(Table.feeds_table_id == table.id,
                                                           Table.status == "open")):
        feeder.feeds_table_id = None
        unit.audit("table.must_move_set", ("table", feeder.id),
                   reason=f"main table {table.name} closed", feeds_table_id=None, before=table.id)
    table.status, table.closed_at = "closed", unit.now
    unit.audit("table.closed", ("table", table.id),
               cancelled_offers=[o.id for o in live])
    unit.emit(SeatsMayOpen(game.id))
    return table
