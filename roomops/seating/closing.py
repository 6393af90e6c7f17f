"""Closing games and tables (R5): what sits on them ends first, seats, offers and lists, so this is
above the packages it ends (docs/architecture.md, "Dependencies"). Services never commit."""

from __future__ import annotations

from sqlalchemy import select

from roomops.actors import get_in_room
from roomops.errors import Conflict
from roomops.floor.events import RotationMayMove, SeatsMayOpen
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import locked_game
from roomops.games.models import Game, Table
from roomops.holds.models import SeatHold
from roomops.lists.history import end_entries
from roomops.lists.models import ListEntry


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
    unit.emit(RotationMayMove(table.room_id))  # R64: its dealer is free
    return table
