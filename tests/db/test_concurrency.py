"""Races on PostgreSQL, with real commits in separate connections (architecture.md, Concurrency).

A claim racing a claim, and two sweepers racing each other, each have exactly one winner per timer:
the game (and room) lock plus the conditional ``UPDATE ... WHERE ended_at IS NULL`` see to it."""

from __future__ import annotations

import os
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.db import make_engine, make_sessionmaker
from roomops.errors import Conflict
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.seating import seats
from tests.databases import PG_ENV, migrated_database
from tests.factories import Room_
from tests.units import act, sweep

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set"),
]

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


@pytest.fixture()
def pg(tmp_path):
    with migrated_database("postgresql", tmp_path, "conc") as url:
        engine = make_engine(url, pool_size=8)
        yield make_sessionmaker(engine)
        engine.dispose()


def _race(n: int, work):
    """Run ``work(i)`` in n threads started together; returns what each returned or raised."""
    barrier = threading.Barrier(n)
    results: list[object] = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except Exception as exc:  # collected and checked by the caller
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_two_claims_of_one_offer_have_one_winner(pg):
    with pg() as s:
        room = Room_(s, T0)
        game = room.game(T0)
        room.table(T0, game, "1")
        p = room.player(T0, "Ann")
        act(s, room.sup, T0, lists.join, player_id=p.id, game_id=game.id)
        offer_id = s.scalar(select(SeatHold.id).where(SeatHold.player_id == p.id))
        sup = room.sup
        s.commit()

    def claim(_i: int) -> str:
        with pg() as s:
            act(s, sup, T0 + timedelta(minutes=1), seats.claim, offer_id, 10000)
            s.commit()
            return "ok"

    results = _race(2, claim)
    assert sorted(map(type, results), key=str) == sorted([str, Conflict], key=str), results
    with pg() as s:
        claimed = s.scalar(select(func.count()).where(AuditEvent.action == "offer.claimed"))
        seated = s.scalar(select(func.count()).select_from(SeatHold).where(
            SeatHold.player_id == p.id, SeatHold.kind == "seated"))
        assert (claimed, seated) == (1, 1)


def test_two_sweeps_expire_every_offer_exactly_once(pg):
    games, per_game, shared = 5, 10, 10
    with pg() as s:
        room = Room_(s, T0)
        gs = [room.game(T0, variant=f"G{g}", seats_per_table=10) for g in range(games)]
        # each game: ten players of its own, then a pool of players on every game's list, so the
        # next offers after expiry compete for the same players across games
        for g in gs:
            for p in room.players(T0, per_game, f"{g.variant}-"):
                act(s, room.sup, T0, lists.join, player_id=p.id, game_id=g.id)
        pool = room.players(T0, shared, "pool")
        for i, p in enumerate(pool):
            for g in gs:
                act(s, room.sup, T0 + timedelta(seconds=1 + i), lists.join, player_id=p.id, game_id=g.id)
        for g in gs:
            room.table(T0 + timedelta(seconds=30), g, f"T{g.variant}")
        due = set(s.scalars(select(SeatHold.id).where(SeatHold.kind == "offer")))
        assert len(due) == games * per_game
        s.commit()
    deadline = T0 + timedelta(seconds=30, minutes=10)

    def run(_i: int):
        with pg() as s:
            result = sweep(s, deadline)
            s.commit()
            return result

    results = _race(2, run)
    assert not [r for r in results if isinstance(r, Exception)], results
    handled = [o for r in results for o in r.expired_offers]
    leftover = []
    for _ in range(3):  # belt and braces: a sweeper waits for a game the other holds, skips none
        if set(handled) >= due:
            break
        with pg() as s:
            leftover = sweep(s, deadline).expired_offers
            s.commit()
        handled += leftover
    assert sorted(handled) == sorted(due)  # every offer once, none twice
    with pg() as s:
        rows = s.execute(select(AuditEvent.detail).where(AuditEvent.action == "offer.expired"))
        per_offer = [d["offer_id"] for (d,) in rows]
        assert sorted(per_offer) == sorted(due)
        outcomes = s.scalars(select(SeatHold.outcome).where(SeatHold.id.in_(due)))
        assert set(outcomes) == {"expired"}
        live = s.execute(select(SeatHold.player_id, func.count()).where(
            SeatHold.kind == "offer", SeatHold.ended_at.is_(None)).group_by(SeatHold.player_id))
        assert all(n == 1 for _p, n in live)
        # the pool got the seats: every pool player holds exactly one open offer
        assert s.scalar(select(func.count()).select_from(SeatHold).where(
            SeatHold.kind == "offer", SeatHold.ended_at.is_(None))) == shared


def test_two_sweeps_release_every_due_break_exactly_once(pg):
    """R24: breaks that ran out in several games, two sweepers at once: each seat released once."""
    from roomops.absences.models import Absence
    from roomops.absences.services import grant_break

    with pg() as s:
        room = Room_(s, T0)
        due = []
        for g in range(3):
            game = room.game(T0, variant=f"B{g}")
            table = room.table(T0, game, f"B{g}")
            for i, p in enumerate(room.players(T0, 3, f"B{g}-"), start=1):
                hold = act(s, room.sup, T0, seats.seat_directly, table_id=table.id, seat_no=i,
                           player_id=p.id, buy_in=10000)
                due.append(act(s, room.sup, T0 + timedelta(hours=1), grant_break, hold.id, 100 * i).id)
        s.commit()
    deadline = T0 + timedelta(hours=2)

    def run(_i: int):
        with pg() as s:
            result = sweep(s, deadline)
            s.commit()
            return result

    results = _race(2, run)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(a for r in results for a in r.released_absences) == sorted(due)
    with pg() as s:
        assert s.scalar(select(func.count()).where(AuditEvent.action == "seat.released")) == len(due)
        assert set(s.scalars(select(Absence.outcome))) == {"released"}
