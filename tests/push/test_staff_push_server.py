"""The staff streams on the push server with Redis (issue 21, R61): a token signed with the app's
secret key opens one screen's notices until it expires; a forged, altered or expired one is
refused; a commit in the web process reaches the dealer of its table and not another table's.
Skipped only when no Redis answers."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from aiohttp import web

from roomops.absences import services as absences
from roomops.push.brokers import Keys
from roomops.push.embedded import KEY
from roomops.push.notices import Notice, dealer_keys
from roomops.push.server import make_app
from roomops.push.staff import RedisBroker, token
from roomops.push.staff_streams import STAFF
from tests.push.conftest import REDIS
from tests.push.test_push_server import in_own_loop, stops_at_once
from tests.services.ledger_helpers import seated_holds

SECRET = "push-test-secret"


class Clock:
    def __init__(self) -> None:
        self.ms = 1_000_000

    def __call__(self) -> int:
        return self.ms


@pytest.fixture()
def tables(app, room, session, now, keys):
    """Tables A and B seated; the app's staff notices sent through Redis."""
    game_a, table_a, holds_a = seated_holds(room, session, now, name="A")
    _game_b, _table_b, holds_b = seated_holds(room, session, now, name="B")
    session.commit()
    feed = app.extensions[STAFF].feed
    # as with ROOMOPS_PUSH_BROKER: each process tells the rows its own commits wrote
    feed.broker, feed.listening, feed.read_back = RedisBroker(REDIS, keys.prefix), lambda: True, False

    def away(hold_id: int) -> None:
        with app.app_context():
            absences.mark_away(session, room.sup, now, hold_id)
            session.commit()
            app.extensions[KEY].publisher.publish_changes()

    return dealer_keys(table_a.id, game_a.id), table_a.id, holds_a, holds_b, away, feed.broker


async def serve(keys: Keys, clock: Clock) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(make_app(REDIS, keys, SECRET, clock))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}"


async def next_notice(resp: aiohttp.ClientResponse) -> dict[str, object]:
    while True:
        block = (await asyncio.wait_for(resp.content.readuntil(b"\n\n"), 5)).decode()
        if block.startswith("event: staff"):
            return json.loads(block.splitlines()[1].removeprefix("data: "))


async def listening(resp: aiohttp.ClientResponse, broker: RedisBroker, probe: Notice) -> None:
    """Until the push server's Redis subscription runs: a probe sent until the screen gets it."""
    for _ in range(50):
        await asyncio.to_thread(broker.send, probe)
        try:
            await asyncio.wait_for(next_notice(resp), 0.1)
            return
        except TimeoutError:
            continue
    raise AssertionError("the push server never heard Redis")


def test_a_commit_reaches_the_dealer_of_its_table_only(tables, keys, room):
    screen_keys, table_a, holds_a, holds_b, away, broker = tables
    clock = Clock()
    signed = token(SECRET, room.room.id, screen_keys, clock.ms + 60_000)

    async def run() -> None:
        runner, base = await serve(keys, clock)
        try:
            async with aiohttp.ClientSession() as http:
                resp = await http.get(f"{base}/staff/events", params={"t": signed})
                assert resp.status == 200 and resp.headers["Content-Type"] == "text/event-stream"
                await listening(resp, broker, Notice(room.room.id, tables=frozenset({table_a})))
                await asyncio.to_thread(away, holds_b[0].id)
                await asyncio.to_thread(away, holds_a[0].id)
                told = await next_notice(resp)  # table A's: table B's never reached this screen
                assert told["tables"] == [table_a] and told["floor"] is True

                clock.ms += 61_000  # the token's time is up: the stream ends after its next write
                await asyncio.to_thread(away, holds_a[1].id)
                await next_notice(resp)
                assert await asyncio.wait_for(resp.content.read(), 5) == b""
                again = await http.get(f"{base}/staff/events", params={"t": signed})
                assert again.status == 403  # the browser's reconnect with it is refused
        finally:
            await runner.cleanup()

    in_own_loop(run)


def test_a_forged_altered_or_missing_token_is_refused(keys, room):
    clock = Clock()
    later = clock.ms + 60_000

    async def run() -> None:
        runner, base = await serve(keys, clock)
        try:
            async with aiohttp.ClientSession() as http:
                for bad in (token("not-the-apps-key", room.room.id, {"floor"}, later),
                            token(SECRET, room.room.id, {"floor"}, later)[:-3] + "abc",
                            token(SECRET, room.room.id, {"floor"}, clock.ms), ""):
                    resp = await http.get(f"{base}/staff/events", params={"t": bad})
                    assert resp.status == 403, bad
                assert (await http.get(f"{base}/staff/events")).status == 403
        finally:
            await runner.cleanup()

    in_own_loop(run)


def test_with_a_broker_the_pages_and_their_parts_carry_a_token(app, client, room, session):
    from tests.conftest import login

    session.commit()
    app.extensions[STAFF].broker = True
    login(client, "main-supervisor")
    page = client.get("/desk").text
    assert 'data-staff-events="/staff/events?t=' in page
    part = client.get("/desk/fragment")
    assert part.headers["X-Staff-Events"].startswith("/staff/events?t=")
    assert client.get("/desk/events").status_code == 503  # the push server's, not the app's


def test_a_push_server_that_stops_ends_its_staff_streams(tables, keys, room):
    """A deploy or restart of the push server (roomops.push.draining): the dealer's screen polls,
    then reconnects."""
    screen_keys, table_a, _holds_a, _holds_b, _away, broker = tables
    clock = Clock()
    signed = token(SECRET, room.room.id, screen_keys, clock.ms + 60_000)

    async def run() -> None:
        runner, base = await serve(keys, clock)
        async with aiohttp.ClientSession() as http:
            resp = await http.get(f"{base}/staff/events", params={"t": signed})
            await listening(resp, broker, Notice(room.room.id, tables=frozenset({table_a})))
            await stops_at_once(runner, resp)

    in_own_loop(run)
