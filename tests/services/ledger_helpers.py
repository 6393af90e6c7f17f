"""Seats to post money against, shared by the ledger's service, HTTP and property tests."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.games.models import Game, Table
from roomops.seating.models import SeatHold
from tests.factories import Room_
from tests.services.helpers import full_game


def seated_holds(room: Room_, session: Session, now: datetime,
                 free: int = 1, name: str = "1", **fields: Any) -> tuple[Game, Table, list[SeatHold]]:
    """A 9-seat table (buy-ins 100.00-400.00) with ``9 - free`` players sitting, seat order;
    ``fields``: the game's other conditions (fees, R50/R51)."""
    game, table = full_game(room, session, now, free=free, name=name, **fields)
    holds = list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))
    return game, table, holds
