"""The per-game marks' tests (tests/db/test_board_marks.py, test_desk_marks.py): a game's number
in a mark table (``BoardMark`` or ``DeskMark``) and whether a change moved it
(the floor they change: ``marked_floor``, tests/db/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.games.models import Game, Table
from roomops.holds.models import SeatHold


def marks_of(session: Session, model: Any, *games: Game) -> list[int]:
    session.flush()
    return [session.scalars(select(model.mark).where(model.game_id == g.id)).one() for g in games]


def mark_moves(session: Session, model: Any, change: Callable[[], object], moved: list[Game],
               still: list[Game]) -> None:
    """``change`` moves the mark of every game of ``moved`` and of none of ``still``."""
    before = marks_of(session, model, *moved, *still)
    change()
    after = marks_of(session, model, *moved, *still)
    n = len(moved)
    assert all(a > b for a, b in zip(after[:n], before[:n], strict=True)), (before, after)
    assert after[n:] == before[n:]


def seated(session: Session, table: Table) -> list[SeatHold]:
    return list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))
