"""The room's change mark: the one signal every live screen's ETag and the staff feed key on
(issue 41), read from the numbers the database moves in the writing transaction, whoever writes.

- ``room``: the room's audit rows (migration 0040): every change made through the app (R60);
- ``board``: the sum of its games' board marks (migration 0020): what the public board shows,
  a fix made by hand in SQL included;
- ``desk``: the sum of its games' desk marks (migration 0043): what only the desk shows, such as
  how an offer's text went (R20: a text's sending and delivery are not audited) and missed-blind
  buttons (R35).

Each only grows, so a screen whose tag holds all three is redrawn on any change it could show.
Within a process the unit of work tells its screens what it touched (``Committed``); these marks
are what a screen reads when the change may come from elsewhere: another process, the sender's
thread, a hand-made fix."""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import BindParameter, ScalarSelect, bindparam, func, select
from sqlalchemy.orm import Session

from roomops.audit.models import RoomMark
from roomops.games.models import BoardMark, DeskMark, Game


class Mark(NamedTuple):
    room: int
    board: int
    desk: int

    def __str__(self) -> str:
        return f"{self.room}.{self.board}.{self.desk}"


def _sums(room_id: Any) -> tuple[ScalarSelect[Any], ScalarSelect[Any]]:
    """The sums of the room's games' board and desk marks."""
    board = select(func.coalesce(func.sum(BoardMark.mark), 0)).join(
        Game, Game.id == BoardMark.game_id).where(Game.room_id == room_id).scalar_subquery()
    desk = select(func.coalesce(func.sum(DeskMark.mark), 0)).join(
        Game, Game.id == DeskMark.game_id).where(Game.room_id == room_id).scalar_subquery()
    return board, desk


_ROOM: BindParameter[int] = bindparam("room_id")
_ONE = select(func.coalesce(select(RoomMark.mark).where(RoomMark.room_id == _ROOM).scalar_subquery(), 0),
              *_sums(_ROOM))
_EVERY = select(RoomMark.room_id, RoomMark.mark, *_sums(RoomMark.room_id))


def change_mark(session: Session, room_id: int) -> Mark:
    """The room's mark in one statement, which every poll runs: one row by its key and the room's
    games' marks, however long the audit trail (issue 21)."""
    row = session.execute(_ONE, {"room_id": room_id}).one()
    return Mark(*(int(value) for value in row))


def room_mark(session: Session, room_id: int) -> int:
    """The room's audit mark alone: the snapshot's version (``GET /api/v1/room``)."""
    return session.scalar(select(RoomMark.mark).where(RoomMark.room_id == room_id)) or 0


def every_mark(session: Session) -> dict[int, Mark]:
    """Every room's mark, in one statement (the staff feed's pass)."""
    return {int(row[0]): Mark(*(int(value) for value in row[1:])) for row in session.execute(_EVERY)}
