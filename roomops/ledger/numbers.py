"""R31: gapless slip numbers per room. The room's counter row is incremented with
``UPDATE ... RETURNING`` in the transaction that creates the slip: a concurrent request waits for
the row lock (PostgreSQL) or the write lock (SQLite), and a rolled-back request hands its number
back with everything else, so committed numbers run 1, 2, 3... with no gap and no repeat."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from roomops.ledger.models import SlipCounter

# both dialects' INSERTs have on_conflict_do_nothing(index_elements=...), the base Insert has not
_INSERT: dict[str, Callable[[type[SlipCounter]], postgresql.Insert | sqlite.Insert]] = {
    "postgresql": postgresql.insert, "sqlite": sqlite.insert}


def next_slip_number(session: Session, room_id: int) -> int:
    dialect = session.get_bind().dialect.name
    # the counter row is made on first use; ON CONFLICT: another request may be making it too
    session.execute(_INSERT[dialect](SlipCounter).values(room_id=room_id, last_number=0)
                    .on_conflict_do_nothing(index_elements=["room_id"]))
    bump = (update(SlipCounter).where(SlipCounter.room_id == room_id)
            .values(last_number=SlipCounter.last_number + 1).returning(SlipCounter.last_number)
            .execution_options(synchronize_session=False))
    return int(session.execute(bump).scalar_one())


def last_slip_number(session: Session, room_id: int) -> int:
    row = session.get(SlipCounter, room_id, populate_existing=True)
    return row.last_number if row else 0
