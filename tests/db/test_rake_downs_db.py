"""R51 in the database itself: dealer downs are append-only with ordered hands, a down has one
rake row, a rake row names a hand or a down (both databases); overlapping downs racing on
PostgreSQL: the hand locks let one win."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from roomops.db import make_engine, make_sessionmaker
from roomops.errors import Conflict
from roomops.hands.services import record_hand
from roomops.ledger import rake
from roomops.ledger.models import DealerDown, LedgerEntry
from tests.databases import backends, migrated_database
from tests.db.test_concurrency import T0, _race
from tests.db.test_ledger_schema import _fails
from tests.factories import Room_
from tests.services.ledger_helpers import seated_holds
from tests.units import act

PER_DOWN = {"fee_kind": "rake", "rake_bp": 500, "rake_cap": 500, "rake_recorded": "per_down"}


def _table(room, session, now, hands: int = 4):
    table = seated_holds(room, session, now, **PER_DOWN)[1]
    for no in range(1, hands + 1):
        act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=no,
            high_card_seat=1 if no == 1 else None)
    return table


@pytest.fixture()
def down(room, session, now):
    table = _table(room, session, now)
    row = act(session, room.sup, now, rake.record_down, table.id, first_hand_no=1, last_hand_no=2,
              rake=500)
    session.flush()
    return row


@pytest.mark.parametrize("sql", ["UPDATE dealer_downs SET last_hand_no = 4",
                                 "DELETE FROM dealer_downs"])
def test_r51_dealer_downs_are_append_only(session, down, sql):
    assert "append-only" in _fails(session, sql)


_DOWN = ("INSERT INTO dealer_downs (room_id, table_id, first_hand_no, last_hand_no, dealer_id, "
         "recorded_by_id, recorded_at) SELECT room_id, table_id, :first, :last, dealer_id, "
         "recorded_by_id, recorded_at FROM dealer_downs")


@pytest.mark.parametrize("first,last", [(0, 2), (3, 2)])
def test_r51_a_downs_hands_run_forwards_from_1(session, down, first, last):
    _fails(session, _DOWN, IntegrityError, first=first, last=last)


_RAKE = ("INSERT INTO ledger_entries (room_id, gaming_day, at, kind, amount, method, staff_id, "
         "table_id, down_id) SELECT room_id, gaming_day, at, 'rake', -100, 'chips', staff_id, "
         "table_id, :down FROM ledger_entries")


def test_r51_a_down_has_one_rake_row_and_a_rake_row_names_a_hand_or_down(session, down):
    _fails(session, _RAKE, IntegrityError, down=down.down_id)   # a second rake row for the down
    _fails(session, _RAKE, IntegrityError, down=None)           # neither hand nor down


@pytest.mark.parametrize("backend", [b for b in backends() if b == "postgresql"])
def test_r51_overlapping_downs_racing_one_wins(backend, tmp_path):
    with migrated_database(backend, tmp_path, "downs") as url:
        engine = make_engine(url, pool_size=8)
        pg = make_sessionmaker(engine)
        try:
            with pg() as s:
                room = Room_(s, T0)
                table_id = _table(room, s, T0, hands=6).id
                sup = room.sup
                s.commit()

            def record(i: int) -> int:
                with pg() as s:
                    first = 1 + i % 3  # 1-4, 2-5, 3-6: all share hands 3 and 4
                    row = act(s, sup, T0 + timedelta(minutes=1), rake.record_down, table_id,
                              first_hand_no=first, last_hand_no=first + 3, rake=100)
                    s.commit()
                    return row.id

            results = _race(6, record)
            assert sum(isinstance(r, int) for r in results) == 1, results
            assert all(isinstance(r, Conflict) for r in results if not isinstance(r, int)), results
            with pg() as s:
                assert s.scalar(select(func.count()).select_from(DealerDown)) == 1
                assert s.scalar(select(func.count()).select_from(LedgerEntry).where(
                    LedgerEntry.kind == "rake")) == 1
        finally:
            engine.dispose()
