"""R20 on PostgreSQL, with real commits in separate connections: two sweepers (or the web
process's after-commit send and a sweeper) racing for the same due texts send each one once."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest

from roomops.db import make_engine
from roomops.floor.handlers import session_factory
from roomops.lists import services as lists
from roomops.messages import sending
from roomops.messages.courier import Courier
from tests.databases import PG_ENV, migrated_database
from tests.db.test_concurrency import _race
from tests.factories import Room_
from tests.services.helpers import full_game
from tests.services.outbox_helpers import FakeSms, messages

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set"),
]

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
TEXTS = 6


@pytest.fixture()
def pg(tmp_path):
    with migrated_database("postgresql", tmp_path, "outbox") as url:
        engine = make_engine(url, pool_size=8)
        sms = FakeSms(pause=0.05)  # a provider slow enough for the senders to overlap
        yield session_factory(engine, Courier(sms)), sms
        engine.dispose()


def test_racing_senders_send_each_text_once(pg):
    sessions, sms = pg
    with sessions() as s:
        room = Room_(s, T0)
        game, _table = full_game(room, s, T0, free=TEXTS)
        for i in range(TEXTS):
            p = room.player(T0, f"W{i}")
            p.phone = f"+44770090{i:04d}"
            lists.join(s, room.sup, T0, player_id=p.id, game_id=game.id)
        s.commit()

    def sender(i: int) -> int:
        with sessions() as s:
            if i % 2:
                return sending.send_due(s, sms, lambda: T0)
            # as the web process does after its commit: the texts of the offers it made
            return sending.send_now(s, sms, lambda: T0, [m.hold_id for m in messages(s)])

    sent = _race(4, sender)
    assert sum(sent) == TEXTS, sent
    assert sorted(m[2] for m in sms.sent) == sorted(set(m[2] for m in sms.sent))
    with sessions() as s:
        assert {m.state for m in messages(s)} == {"sent"}
        assert {m.attempts for m in messages(s)} == {1}
