"""Small helpers shared by the service tests."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Connection, event, select
from sqlalchemy.orm import Session

from roomops.audit.models import AuditEvent
from roomops.errors import RoomopsError
from roomops.games.models import Game, Table
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.rooms.services import update_policy
from roomops.seating import moves, seat_changes, seats
from tests.factories import Room_
from tests.units import act


def fill_table(room: Room_, session: Session, now: datetime, game: Game, table: Table,
               free: int = 1, prefix: str = "S") -> list[SeatHold]:
    """Seat players in seats 1..(seats - free) of the table, before anybody waits."""
    holds = []
    for i, p in enumerate(room.players(now, game.seats_per_table - free, f"{prefix}{table.name}-"),
                          start=1):
        holds.append(act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=i,
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


def must_move_floor(room: Room_, session: Session, now: datetime, *, seat_change: bool = False
                    ) -> tuple[Table, list[SeatHold], list[SeatHold], ListEntry]:
    """Automatic offers off; main table 1 full, must-move table 2 feeding it (seven players, who
    sat down a minute after table 1's), Rita on table 1's reserve list and, with
    ``seat_change``, Sam (seat 4 of table 1) on its seat-change list (R14, R17, R36); then the
    player in seat 1 of table 1 leaves. Returns table 1, its seats, table 2's and Rita's entry."""
    minute = timedelta(minutes=1)
    act(session, room.sup, now, update_policy, auto_offer=False)
    game = room.game(now)
    main, feeder = room.table(now, game, "1"), room.table(now, game, "2")
    mains = fill_table(room, session, now, game, main, 0)
    fed = fill_table(room, session, now + minute, game, feeder, 7, prefix="F")
    act(session, room.sup, now + 2 * minute, moves.set_must_move, feeder.id, main.id)
    rita = room.player(now, "Rita", "Reserve")
    reserve = act(session, room.sup, now + 3 * minute, lists.join, player_id=rita.id, table_id=main.id)
    if seat_change:
        act(session, room.sup, now + 4 * minute, seat_changes.ask, mains[3].id)
    act(session, room.sup, now + 5 * minute, seats.leave, mains[0].id, 5000)
    return main, mains, fed, reserve
