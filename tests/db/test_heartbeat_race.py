"""Any number of schedulers stays safe, heartbeat included (PostgreSQL, real commits in separate
connections): four sweepers at once, two of them sharing a scheduler id, expire each due offer
once (R20, R22) and leave one heartbeat row per id, none of them failing or deadlocking."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import select

from roomops.clock import FrozenClock
from roomops.config import Settings
from roomops.db import make_engine
from roomops.factory import create_app
from roomops.heartbeat.models import SweepHeartbeat
from roomops.holds.models import SeatHold
from roomops.jobs.scheduler import sweep_once
from roomops.lists import services as lists
from tests.databases import PG_ENV, migrated_database
from tests.db.test_concurrency import T0, _race
from tests.factories import Room_
from tests.units import act

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set"),
]


def test_four_schedulers_two_ids_each_offer_once_one_row_per_id(tmp_path):
    with migrated_database("postgresql", tmp_path, "beat") as url:
        engine = make_engine(url, pool_size=8)
        clock = FrozenClock(T0)
        apps = [create_app(Settings(database_url=url, scheduler="off", secret_key="x",
                                    scheduler_id=sid), clock=clock, engine=engine)
                for sid in ("a", "b")]
        try:
            with apps[0].extensions["roomops"].sessions() as s:
                room = Room_(s, T0)
                for g in range(4):
                    game = room.game(T0, variant=f"G{g}")
                    for p in room.players(T0, 3, f"G{g}-"):
                        act(s, room.sup, T0, lists.join, player_id=p.id, game_id=game.id)
                    room.table(T0, game, f"T{g}")
                due = set(s.scalars(select(SeatHold.id).where(SeatHold.kind == "offer")))
                s.commit()
            deadline = clock.advance(minutes=room.room.claim_minutes)

            results = _race(4, lambda i: sweep_once(apps[i % 2]))
            assert not [r for r in results if isinstance(r, Exception)], results
            assert sorted(o for r in results for o in r.expired_offers) == sorted(due)
            with apps[0].extensions["roomops"].sessions() as s:
                rows = s.execute(select(SweepHeartbeat.scheduler_id, SweepHeartbeat.ran_at)
                                 .order_by(SweepHeartbeat.scheduler_id)).all()
            assert rows == [("a", deadline), ("b", deadline)]
        finally:
            engine.dispose()
