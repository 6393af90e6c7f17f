"""The staff streams on the push server with Redis (issue 21, R61): a token signed with the app's
secret key, in a cookie of the stream's path, opens one screen's notices until it expires or its
log-in ends (issue 40); a forged, altered or expired one is refused; a commit in the web process
reaches the dealer of its table and not another table's.
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
from roomops.push.staff import STREAM_COOKIE, LoggedIn, RedisBroker, token
from roomops.push.staff_streams import STAFF
from roomops.runtime import ext
from tests.push.conftest import REDIS
from tests.push.loops import in_own_loop
from tests.push.test_push_server import stops_at_once
from tests.services.ledger_helpers import seated_holds

SECRET = "push-test-secret"
ANN = LoggedIn(staff_id=7, version=1)  # whose log-in the tokens are of


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
            unit = ext(app).unit(session, room.sup, now)
            unit.run(absences.mark_away, hold_id)
            unit.commit()
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
    signed = token(SECRET, room.room.id, screen_keys, clock.ms + 60_000, ANN)
    url = f"/staff/events/dealer/{table_a}"

    async def run() -> None:
        runner, base = await serve(keys, clock)
        try:
            async with aiohttp.ClientSession() as http:
                resp = await http.get(base + url, cookies={STREAM_COOKIE: signed})
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
                again = await http.get(base + url, cookies={STREAM_COOKIE: signed})
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
                for bad in (token("not-the-apps-key", room.room.id, {"floor"}, later, ANN),
                            token(SECRET, room.room.id, {"floor"}, later, ANN)[:-3] + "abc",
                            token(SECRET, room.room.id, {"floor"}, clock.ms, ANN), ""):
                    resp = await http.get(f"{base}/staff/events/desk", cookies={STREAM_COOKIE: bad})
                    assert resp.status == 403, bad
                assert (await http.get(f"{base}/staff/events/desk")).status == 403
                good = token(SECRET, room.room.id, {"floor"}, later, ANN)
                in_address = await http.get(f"{base}/staff/events/desk", params={"t": good})
                assert in_address.status == 403  # a token in the address opens nothing
        finally:
            await runner.cleanup()

    in_own_loop(run)


def _stream_cookie(resp) -> tuple[str, str]:
    """The stream cookie the answer set: (its token, its attributes)."""
    (header,) = [h for h in resp.headers.getlist("Set-Cookie") if h.startswith(STREAM_COOKIE)]
    value, _, attributes = header.partition(";")
    return value.split("=", 1)[1], attributes


def test_issue40_with_a_broker_the_token_is_a_cookie_of_the_stream_path_not_in_an_address(
        app, client, room, session):
    from tests.conftest import login

    session.commit()
    app.extensions[STAFF].broker = True
    login(client, "main-supervisor")
    page = client.get("/desk")
    assert 'data-staff-events="/staff/events/desk"' in page.text and "?t=" not in page.text
    _signed, attributes = _stream_cookie(page)
    assert "Path=/staff/events/desk" in attributes and "HttpOnly" in attributes
    assert "SameSite=Strict" in attributes and "Max-Age=600" in attributes
    part = client.get("/desk/fragment")
    assert "X-Staff-Events" not in part.headers
    assert _stream_cookie(part)[0]  # each answer of the part renews it
    assert client.get("/desk/events").status_code == 503  # the push server's, not the app's


def test_issue40_a_log_out_ends_the_push_servers_staff_stream_at_once(app, client, room, session,
                                                                     keys):
    """The stream of a log-in that ends closes within a second, not when its token runs out;
    the same token, brought again, is refused (the log-out is kept in Redis)."""
    from tests.conftest import login

    session.commit()
    staff = app.extensions[STAFF]
    staff.broker, staff.secret = True, SECRET
    staff.feed.broker = RedisBroker(REDIS, keys.prefix)
    login(client, "main-supervisor")
    signed, _attributes = _stream_cookie(client.get("/desk"))
    clock = Clock()
    clock.ms = int(app.extensions["roomops"].clock.now().timestamp() * 1000)

    async def run() -> None:
        runner, base = await serve(keys, clock)
        try:
            async with aiohttp.ClientSession() as http:
                resp = await http.get(f"{base}/staff/events/desk", cookies={STREAM_COOKIE: signed})
                assert resp.status == 200
                await listening(resp, staff.feed.broker, Notice(room.room.id, floor=True))
                out = await asyncio.to_thread(client.post, "/logout")
                assert out.status_code in (302, 303)
                await asyncio.wait_for(resp.content.read(), 2)  # the stream ends
                assert resp.content.at_eof()
                again = await http.get(f"{base}/staff/events/desk", cookies={STREAM_COOKIE: signed})
                assert again.status == 403
        finally:
            await runner.cleanup()

    in_own_loop(run)


def test_a_push_server_that_stops_ends_its_staff_streams(tables, keys, room):
    """A deploy or restart of the push server (roomops.push.draining): the dealer's screen polls,
    then reconnects."""
    screen_keys, table_a, _holds_a, _holds_b, _away, broker = tables
    clock = Clock()
    signed = token(SECRET, room.room.id, screen_keys, clock.ms + 60_000, ANN)

    async def run() -> None:
        runner, base = await serve(keys, clock)
        async with aiohttp.ClientSession() as http:
            resp = await http.get(f"{base}/staff/events/dealer/{table_a}",
                                  cookies={STREAM_COOKIE: signed})
            await listening(resp, broker, Notice(room.room.id, tables=frozenset({table_a})))
            await stops_at_once(runner, resp)

    in_own_loop(run)
