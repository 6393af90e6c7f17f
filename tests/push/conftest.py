"""The push tests' Redis (each test its own keys and channels under a prefix of its own, removed
after it; a test that needs Redis is skipped only when none answers) and the app's own push with
a game published (``push``), with ``events`` to read a stream's board events."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
import redis

from roomops.push.brokers import Keys
from roomops.push.embedded import KEY

REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture()
def keys():
    client = redis.Redis.from_url(REDIS)
    try:
        client.ping()
    except redis.ConnectionError:
        pytest.skip("no Redis at 127.0.0.1:6379")
    found = Keys(f"roomops:test:{uuid.uuid4().hex}")  # this test's own keys and channels
    yield found
    for key in client.scan_iter(f"{found.prefix}:*"):
        client.delete(key)
    client.close()


@pytest.fixture()
def push(app, room, session, now):
    game = room.game(now)
    room.table(now, game, "7")
    session.commit()
    found = app.extensions[KEY]
    assert not found.autostart  # under the test client the test publishes, by hand
    with app.app_context():
        found.publisher.publish_changes()
    found.game = game
    return found


def events(chunks):
    """The board events among the stream's chunks, as (id, data)."""
    out = []
    for chunk in chunks:
        lines = chunk.decode().splitlines()
        if lines and lines[0].startswith("id: "):
            out.append((int(lines[0][4:]), json.loads(lines[2].removeprefix("data: "))))
    return out



class Beats:
    """The push server's keep-alive clock, moved by the test (``roomops.push.pages.beats``'s
    ``wait``): a wait ends only when the test advances the clock by a beat, never in real time.
    Made inside the test's event loop."""

    def __init__(self) -> None:
        self.ms = 1_700_000_000_000
        self._moves: asyncio.Queue[None] = asyncio.Queue()
        self._waiting = asyncio.Event()

    def now_ms(self) -> int:
        return self.ms

    async def wait(self, seconds: float) -> None:
        self._waiting.set()  # the beat before is written
        await self._moves.get()
        self.ms += round(seconds * 1000)

    async def advance(self) -> None:
        """One beat's time passes; returns once the beat has been written. A timer that no
        longer waits for its next beat (stopped, or stuck) fails the test within 5 s."""
        await self._waited()
        self._waiting.clear()
        self._moves.put_nowait(None)
        await self._waited()

    async def _waited(self) -> None:
        try:
            await asyncio.wait_for(self._waiting.wait(), 5)
        except TimeoutError:
            raise AssertionError("the keep-alive timer stopped: no beat waits for the clock") from None
