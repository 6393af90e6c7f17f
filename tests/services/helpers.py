"""Small helpers shared by the service tests."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import Connection, event, select
from sqlalchemy.orm import Session

from roomops.audit.models import AuditEvent
from roomops.errors import RoomopsError
from roomops.games.models import Game, Table
from roomops.seating import seats
from roomops.seating.models import SeatHold
from tests.factories import Room_


def fill_table(room: Room_, session: Session, now: datetime, game: Game, table: Table,
               free: int = 1, prefix: str = "S") -> list[SeatHold]:
    """Seat players in seats 1..(seats - free) of the table, before anybody waits."""
    holds = []
    for i, p in enumerate(room.players(now, game.seats_per_table - free, f"{prefix}{table.name}-"),
                          start=1):
        holds.append(seats.seat_directly(session, room.sup, now, table_id=table.id, seat_no=i,
                                         player_id=p.id, buy_in=game.min_buyin))
    return holds


def full_game(room: Room_, session: Session, now: datetime, free: int = 1, name: str = "1",
              **fields) -> tuple[Game, Table]:
    game = room.game(now, **fields)
    table = room.table(now, game, name)
    fill_table(room, session, now, game, table, free)
    return game, table


def live_offer(session: Session, player_id: int) -> SeatHold | None:
    return session.scalar(select(SeatHold).where(
        SeatHold.player_id == player_id, SeatHold.kind == "offer", SeatHold.ended_at.is_(None)))


def live_seat(session: Session, player_id: int) -> SeatHold | None:
    return session.scalar(select(SeatHold).where(
        SeatHold.player_id == player_id, SeatHold.kind == "seated", SeatHold.ended_at.is_(None)))


def audits(session: Session, action: str | None = None, *, entity: tuple[str, int] | None = None
           ) -> list[AuditEvent]:
    stmt = select(AuditEvent).order_by(AuditEvent.id)
    if action:
        stmt = stmt.where(AuditEvent.action == action)
    if entity:
        stmt = stmt.where(AuditEvent.entity_type == entity[0], AuditEvent.entity_id == entity[1])
    session.flush()
    return list(session.scalars(stmt))


def refused(call: Callable[[], object], rule: str | None, *words: str,
            error: type[RoomopsError] | tuple[type[RoomopsError], ...] = RoomopsError) -> RoomopsError:
    """``call()`` must raise ``error`` naming ``rule``, with each of ``words`` in its message."""
    with pytest.raises(error) as err:
        call()
    assert err.value.rule == rule, err.value
    for word in words:
        assert word in err.value.message, err.value.message
    return err.value


def statements_sent(connection: Connection, call: Callable[[], Any]) -> list[str]:
    """The SQL ``call`` sends on ``connection``, in order (savepoints left out)."""
    seen: list[str] = []

    def keep(_conn: Any, _cur: Any, statement: str, *_rest: Any) -> None:
        if not statement.startswith(("SAVEPOINT", "RELEASE")):
            seen.append(statement)

    event.listen(connection, "before_cursor_execute", keep)
    try:
        call()
    finally:
        event.remove(connection, "before_cursor_execute", keep)
    return seen


def query_plans(connection: Connection, table: str, read: Callable[[], Any]) -> list[str]:
    """SQLite's plan of each statement ``read`` sends that names ``table``, one line per plan
    (skips on PostgreSQL, whose planner scans a test's tiny tables whatever the indexes)."""
    if connection.dialect.name != "sqlite":
        pytest.skip("the plan is read with SQLite's EXPLAIN QUERY PLAN")
    seen: list[tuple[str, Any]] = []

    def keep(_conn: Any, _cur: Any, statement: str, params: Any, _ctx: Any, _many: bool) -> None:
        if table in statement:
            seen.append((statement, params))

    event.listen(connection, "before_cursor_execute", keep)
    try:
        read()
    finally:
        event.remove(connection, "before_cursor_execute", keep)
    return [" | ".join(row[3] for row in connection.exec_driver_sql(
        f"EXPLAIN QUERY PLAN {statement}", params).all()) for statement, params in seen]
