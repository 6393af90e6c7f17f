"""Refusals in the floor's words: the people they are about by name, a held seat with whom it is
held for and until when, in the room's local time; never a row id (the rule id stays on the
error, for the API's JSON and the logs)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from roomops.errors import Conflict
from roomops.games.models import Table
from roomops.holds.allocation import Assignment
from roomops.holds.models import SeatHold
from roomops.rooms.models import Player, Room

_AT_SEAT = select(SeatHold).where(SeatHold.table_id == bindparam("table_id"),
                                  SeatHold.seat_no == bindparam("seat_no"),
                                  SeatHold.ended_at.is_(None))


def player_name(session: Session, player_id: int) -> str:
    return session.get_one(Player, player_id).full_name


def seat_name(session: Session, hold: SeatHold) -> str:
    return f"seat {hold.seat_no} at table {session.get_one(Table, hold.table_id).name}"


def local_time(session: Session, room_id: int, when: datetime) -> str:
    """A moment as the room's clocks show it (hours and minutes)."""
    return f"{when.astimezone(ZoneInfo(session.get_one(Room, room_id).timezone)):%H:%M}"


def who_is(session: Session, a: Assignment) -> str:
    """The player a seat would go to: their name, and why they go first when they do: a seat
    change at the table (R36) or a must-move (R17)."""
    name = player_name(session, a.player_id)
    if a.from_hold_id is None:
        return name
    hold = session.get_one(SeatHold, a.from_hold_id)
    if a.seat_change_id is not None:
        return f"{name} (seat change from seat {hold.seat_no})"
    return f"{name} (must move from table {session.get_one(Table, hold.table_id).name})"


def holder(session: Session, hold: SeatHold) -> str:
    """Who has a seat, and how: "Ann Bee sits there", "held for Ann Bee until 21:40" (an offer's
    claim time, R20) or "held for Ann Bee until the dealer records the hand" (a seat change
    claimed during a hand, R36)."""
    name = player_name(session, hold.player_id)
    if hold.kind == "seated":
        return f"{name} sits there"
    if hold.reserved_at is not None or hold.deadline is None:
        return f"held for {name} until the dealer records the hand"
    return f"held for {name} until {local_time(session, hold.room_id, hold.deadline)}"


def seat_taken(session: Session, table: Table, seat_no: int) -> Conflict:
    """R20: the refusal of a seat someone has, naming them (``holder``)."""
    hold = session.scalar(_AT_SEAT, {"table_id": table.id, "seat_no": seat_no})
    whose = "" if hold is None else f": {holder(session, hold)}"
    return Conflict(f"seat {seat_no} at table {table.name} is taken{whose}", "R20")


def require_next(session: Session, nxt: Assignment | None, player_id: int, reason: str | None,
                 rule: str) -> None:
    """R13: anyone but ``nxt``, the next for the seat, only with a written reason."""
    if nxt is not None and nxt.player_id != player_id and not (reason and reason.strip()):
        raise Conflict(f"{who_is(session, nxt)} is next for this seat; out of list order needs "
                       "a reason", rule)
