"""Seats to post money against, shared by the ledger's service, HTTP and property tests."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.games.models import Game, Table
from roomops.holds.models import SeatHold
from tests.factories import Room_


def seated_holds(room: Room_, session: Session, now: datetime,
                 free: int = 1, name: str = "1", **fields: Any) -> tuple[Game, Table, list[SeatHold]]:
    """A 9-seat table (buy-ins 100.00-400.00) with ``9 - free`` players sitting, seat order;
    ``fields``: the game's other conditions (fees, R50/R51).

    The seats are written directly, without the seating service, so they carry no buy-in row yet
    (as a seat opened before the desk posted buy-ins, or one whose buy-in was reversed): the
    cashier's buy-in is what these tests post. ``seats.seat_directly`` posts it itself (R30)."""
    game = room.game(now, **fields)
    table = room.table(now, game, name)
    players = room.players(now, game.seats_per_table - free, f"S{name}-")
    holds = [SeatHold(room_id=table.room_id, table_id=table.id, seat_no=i, player_id=p.id,
                      kind="seated", started_at=now, buy_in=game.min_buyin)
             for i, p in enumerate(players, start=1)]
    session.add_all(holds)
    session.flush()
    return game, table, list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))
