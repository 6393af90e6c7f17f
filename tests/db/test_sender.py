"""R20, issue 41: the texts a commit queued are sent by the process's sender thread, woken after
the commit, never by the committing request's thread; a join's code (R12) goes the same way. On
a database of its own, with real commits, on every configured backend."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from roomops.actors import phone_page
from roomops.db import make_engine, make_sessionmaker
from roomops.floor.unit import UnitOfWork
from roomops.lists import services as lists
from roomops.messages.courier import Courier
from roomops.messages.providers import Accepted
from roomops.messages.sender import Sender
from roomops.reactions import handlers
from roomops.remote import services as remote
from roomops.rooms.services import update_policy
from tests.databases import backends, migrated_database
from tests.factories import Room_
from tests.services.helpers import full_game
from tests.services.outbox_helpers import FakeSms, messages
from tests.units import act

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
WAIT = 30  # seconds, at most, for the sender's thread: it is woken, never timed


class HeldSms(FakeSms):
    """Sends only once ``release`` is set, and records the thread that sent."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.threads: list[str] = []

    def send(self, number: str, body: str, message_id: int) -> Accepted:
        assert self.release.wait(WAIT), "the provider was never released"
        self.threads.append(threading.current_thread().name)
        return super().send(number, body, message_id)


@pytest.fixture(params=backends())
def world(request, tmp_path):
    with migrated_database(request.param, tmp_path, "sender") as url:
        engine = make_engine(url)
        sessions = make_sessionmaker(engine)
        sms = HeldSms()
        sender = Sender(sessions, sms, lambda: T0)
        yield sessions, sms, sender, Courier(sms, sender=sender)
        sms.release.set()
        engine.dispose()


def test_r20_the_sender_thread_sends_what_a_commit_queued(world):
    sessions, sms, sender, courier = world
    with sessions() as s:
        room = Room_(s, T0)
        game, _table = full_game(room, s, T0, free=1)
        ann = room.player(T0, "Ann")
        ann.phone = "+447700900123"
        s.commit()
        unit = UnitOfWork(s, room.sup, T0, handlers(courier))
        unit.run(lists.join, player_id=ann.id, game_id=game.id)
        unit.commit()  # returns with the provider still held: the request does not wait on it
        # queued, or claimed by the sender already, which waits on the provider
        assert sms.sent == [] and [m.state for m in messages(s)] in (["queued"], ["sending"])
    sms.release.set()
    assert sender.settled(WAIT)
    with sessions() as s:
        (msg,) = messages(s)
    assert sms.sent == [("+447700900123", msg.body, msg.id)] and msg.state == "sent"
    assert sms.threads == ["roomops-sender"]


def test_r12_a_joins_code_is_texted_by_the_sender_thread(world):
    sessions, sms, sender, courier = world
    with sessions() as s:
        room = Room_(s, T0)
        act(s, room.sup, T0, update_policy, remote_entries=True)
        game, _table = full_game(room, s, T0, free=0)
        s.commit()
        unit = UnitOfWork(s, phone_page(room.room.id), T0, handlers(courier))
        sent = unit.run(remote.join_from_phone, game_ids=[game.id], first_name="Ann", last_name="",
                        phone="07700 900123", codes=True)
        unit.commit()
        assert isinstance(sent, remote.CodeSent) and sms.sent == []
    sms.release.set()
    assert sender.settled(WAIT)
    ((number, body, _),) = sms.sent
    assert number == "+447700900123" and "your code is" in body
    assert sms.threads == ["roomops-sender"]
