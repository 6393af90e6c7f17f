"""A night on the books through the real services (R31, R51, R52, R54): a buy-in, a delivered
transit slip, a hand's rake, and the gaming day counted by two staff and closed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from roomops.books.rules import expected_triggers
from roomops.hands.services import record_hand
from roomops.ledger import rake, transit
from roomops.ledger import services as ledger
from roomops.ledger.dayclose import Count, close_day, record_counts
from roomops.ledger.models import DayClose, LedgerEntry, TransitSlip
from roomops.ledger.report import expected_by_table
from tests.factories import Room_
from tests.services.ledger_helpers import seated_holds
from tests.units import act

DAY = date(2026, 11, 21)  # the gaming day of the suite's START
END = datetime(2026, 11, 22, 6, tzinfo=UTC)  # when it ends: the day closes then


@dataclass(frozen=True)
class Night:
    buy_in: LedgerEntry
    slip: TransitSlip
    rake: LedgerEntry
    close: DayClose


def closed_night(room: Room_, session: Session, now: datetime) -> Night:
    _game, table, holds = seated_holds(room, session, now, fee_kind="rake", rake_bp=500,
                                       rake_cap=500)
    cashier, dealer = room.actor("cashier"), room.actor("dealer")
    buy_in = act(session, room.sup, now, ledger.buy_in, holds[0].id, 10000)
    slip = act(session, cashier, now, transit.request, holds[1].id, 5000)
    act(session, room.sup, now, transit.dispatch, slip.id)
    act(session, cashier, now, transit.deliver, slip.id)
    act(session, dealer, now, record_hand, table.id, hand_no=1, high_card_seat=1)
    raked = act(session, dealer, now, rake.record_rake, table.id, 1, pot=2000, flop=True, rake=100)
    expected = expected_by_table(session, room.room.id, DAY)
    for actor in (room.sup, cashier):
        act(session, actor, now, record_counts, DAY, [Count(t, amount) for t, amount in expected.items()])
    close = act(session, room.sup, END, close_day, DAY, cashier.staff_id).row
    session.commit()  # the audit rows are written at the commit (roomops.audit.reads)
    return Night(buy_in, slip, raked, close)


def drop_trigger(conn: Connection, name: str) -> None:
    """Drop trigger ``name`` of the books, as someone with the owner's rights could."""
    [trigger] = [t for t in expected_triggers(conn.dialect.name) if t.name == name]
    on = f" ON {trigger.table}" if conn.dialect.name == "postgresql" else ""
    conn.execute(text(f"DROP TRIGGER {name}{on}"))


def append_only_triggers(conn: Connection, table: str) -> list[str]:
    """The triggers refusing UPDATE and DELETE of ``table``'s rows on this database."""
    return [t.name for t in expected_triggers(conn.dialect.name)
            if t.table == table and "TRUNCATE" not in t.events]
