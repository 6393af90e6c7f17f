"""R31, R52 under real concurrency on PostgreSQL (separate connections, real commits): one
idempotency key posts one row however many requests race with it, and slip numbers stay gapless
and unique when requests race and some roll back."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from sqlalchemy import func, select, text

from roomops.db import make_engine, make_sessionmaker
from roomops.errors import Conflict
from roomops.games.models import Table
from roomops.holds.models import SeatHold
from roomops.ledger import services as ledger
from roomops.ledger import transit
from roomops.ledger.models import LedgerEntry, TransitSlip
from roomops.lists import services as lists
from roomops.rooms.services import add_player
from roomops.seating import seats
from tests.databases import migrated_database
from tests.db.test_concurrency import T0, _race, pytestmark  # noqa: F401  (PostgreSQL only)
from tests.factories import Room_
from tests.services.ledger_helpers import seated_holds
from tests.units import act


@pytest.fixture()
def pg(tmp_path):
    with migrated_database("postgresql", tmp_path, "ledger") as url:
        engine = make_engine(url, pool_size=12)
        yield make_sessionmaker(engine)
        engine.dispose()


def _room(pg):
    with pg() as s:
        room = Room_(s, T0)
        holds = [h.id for h in seated_holds(room, s, T0, free=0)[2]]
        s.commit()
        return room.sup, room.actor("cashier"), holds


def test_one_key_racing_posts_one_row(pg):
    sup, _cashier, holds = _room(pg)

    def post(_i: int) -> int:
        with pg() as s:
            row = act(s, sup, T0 + timedelta(minutes=1), ledger.buy_in, holds[0], 15000, key="race")
            s.commit()
            return row.id

    results = _race(8, post)
    assert all(isinstance(r, int) for r in results), results
    assert len(set(results)) == 1
    with pg() as s:
        assert s.scalar(select(func.count()).select_from(LedgerEntry)) == 1


def test_racing_slip_requests_get_gapless_unique_numbers(pg):
    sup, cashier, holds = _room(pg)

    def request(i: int) -> int | None:
        with pg() as s:
            slip = act(s, cashier if i % 2 else sup, T0, transit.request, holds[i % len(holds)], 1000 + i)
            if i % 3 == 0:  # a request that fails after taking its number hands it back
                s.rollback()
                return None
            s.commit()
            return slip.number

    numbers = [n for n in _race(12, request) if n is not None]
    assert all(isinstance(n, int) for n in numbers), numbers
    assert sorted(numbers) == list(range(1, len(numbers) + 1))
    with pg() as s:
        report = transit.number_report(s, sup.room_id)
        assert report.missing == [] and report.last_number == len(numbers)


def test_one_key_racing_takes_one_slip_number(pg):
    sup, _cashier, holds = _room(pg)

    def request(_i: int) -> int:
        with pg() as s:
            slip = act(s, sup, T0, transit.request, holds[0], 5000, key="slip-race")
            s.commit()
            return slip.number

    assert set(_race(6, request)) == {1}
    with pg() as s:
        assert s.scalar(select(func.count()).select_from(TransitSlip)) == 1
        assert act(s, sup, T0, transit.request, holds[1], 5000).number == 2


def _waiting_for_a_lock(pg, pid: int) -> bool:
    with pg() as s:
        return bool(s.scalar(text("SELECT count(*) FROM pg_locks WHERE pid = :pid AND NOT granted"),
                             {"pid": pid}))


def test_a_transit_slip_waits_for_the_room_so_it_cannot_deadlock_with_the_desk(pg):
    """A slip moves its game's board mark (migration 0020). The desk holds the room and the game,
    has moved the mark (a player joined the list) and is about to end seat 1; a cashier requests
    chips for seat 1 meanwhile. Were the cashier to lock the seat first and the mark second, each
    would wait for the other (PostgreSQL would abort one). The cashier takes the room lock first,
    so it waits for the desk, then finds the player gone (R31)."""
    sup, cashier, holds = _room(pg)
    with pg() as s:
        game_id = s.get_one(Table, s.get_one(SeatHold, holds[0]).table_id).game_id
        newcomer_id = act(s, sup, T0, add_player, first_name="Nora").id
        s.commit()
    with pg() as desk:
        act(desk, sup, T0, lists.join, player_id=newcomer_id, game_id=game_id)
        desk.flush()  # the desk holds the room, the game and the game's mark
        pid: list[int] = []
        outcome: list[object] = []

        def request() -> None:
            with pg() as s:
                pid.append(s.scalar(text("SELECT pg_backend_pid()")))
                try:
                    act(s, cashier, T0, transit.request, holds[0], 20000)
                    s.commit()
                    outcome.append("requested")
                except Exception as exc:  # checked below
                    outcome.append(exc)

        worker = threading.Thread(target=request)
        worker.start()
        deadline = time.monotonic() + 10
        while not (pid and _waiting_for_a_lock(pg, pid[0])) and time.monotonic() < deadline:
            time.sleep(0.01)  # until the cashier's request waits on a lock
        assert pid and _waiting_for_a_lock(pg, pid[0])
        act(desk, sup, T0 + timedelta(minutes=1), seats.leave, holds[0], 30000)
        desk.commit()
    worker.join(30)
    assert len(outcome) == 1 and isinstance(outcome[0], Conflict), outcome
    assert outcome[0].rule == "R31"
