"""R20 on PostgreSQL, with real commits in separate connections: two sweepers (or the web
process's after-commit send and a sweeper) racing for the same due texts send each one once."""

from __future__ import annotations

import os
import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, text, update

from roomops.db import make_engine, make_sessionmaker
from roomops.games.locks import lock_room
from roomops.hands.models import SeatBlinds
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.messages import sending
from roomops.messages.courier import Courier
from roomops.messages.models import OutboxMessage
from tests.databases import PG_ENV, migrated_database
from tests.db.test_concurrency import _race
from tests.factories import Room_
from tests.services.helpers import full_game
from tests.services.outbox_helpers import FakeSms, messages
from tests.units import COURIER, act

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
        yield make_sessionmaker(engine, info={COURIER: Courier(sms)}), sms
        engine.dispose()


def test_racing_senders_send_each_text_once(pg):
    sessions, sms = pg
    with sessions() as s:
        room = Room_(s, T0)
        game, _table = full_game(room, s, T0, free=TEXTS)
        for i in range(TEXTS):
            p = room.player(T0, f"W{i}")
            p.phone = f"+44770090{i:04d}"
            act(s, room.sup, T0, lists.join, player_id=p.id, game_id=game.id)
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


def _waiting_on_a_lock(sessions) -> None:
    """Until another connection waits for a lock (a bounded poll, not a pause for time)."""
    for _ in range(400):
        with sessions() as s:
            if s.scalar(text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                             "AND datname = current_database()")):
                return
        threading.Event().wait(0.01)
    raise AssertionError("nobody waited for a lock")


def test_a_sender_and_a_desk_action_cancelling_its_text_do_not_deadlock(pg):
    """A text's state moves its game's desk mark (migration 0043). A desk action holds its room's
    lock, moves the mark (a hand's missed blinds, R35) and cancels an offer's queued text (R21)
    while the sender claims that text: the sender takes the room's lock first, so it waits for
    the action instead of holding the text and waiting for the mark (which deadlocked)."""
    sessions, _sms = pg
    with sessions() as s:
        room = Room_(s, T0)
        game, table = full_game(room, s, T0, free=1)
        wes = room.player(T0, "Wes")
        wes.phone = "+447700900123"
        act(s, room.sup, T0, lists.join, player_id=wes.id, game_id=game.id)
        s.commit()
        text_id, room_id = messages(s)[0].id, room.room.id
        seated = s.scalars(select(SeatHold.id).where(SeatHold.table_id == table.id,
                                                     SeatHold.kind == "seated")).first()
    claimed: list[object] = []
    with sessions() as desk:
        lock_room(desk, room_id)
        desk.add(SeatBlinds(hold_id=seated, status="active", missed_sb=False, missed_bb=True,
                            owes_bb=False, updated_at=T0))
        desk.flush()  # the game's desk mark moves: this transaction holds it

        def sender() -> None:
            with sessions() as s:
                try:
                    claimed.append(sending.claim_one(s, T0, text_id))
                    s.commit()
                except Exception as exc:  # checked below
                    claimed.append(exc)

        thread = threading.Thread(target=sender)
        thread.start()
        _waiting_on_a_lock(sessions)
        desk.execute(update(OutboxMessage).where(OutboxMessage.id == text_id,
                                                 OutboxMessage.state == "queued").values(state="cancelled"))
        desk.commit()
    thread.join(30)
    assert claimed == [None]  # the text was cancelled before the sender could claim it
    with sessions() as s:
        assert s.get_one(OutboxMessage, text_id).state == "cancelled"
