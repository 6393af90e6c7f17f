"""The push server end to end with Redis (issue 21): the web process publishes a change after its
commit, the push server (started here on a free port) streams it to a screen; a screen that
reconnects gets what it missed, and a push server that starts after the changes gets the room's
whole state from Redis. Skipped only when no Redis answers."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from aiohttp import web

from roomops.lists import services as lists
from roomops.push.brokers import Keys, RedisBroker
from roomops.push.embedded import KEY
from roomops.push.server import make_app
from roomops.runtime import ext
from tests.push.conftest import REDIS, Beats
from tests.push.loops import in_own_loop


@pytest.fixture()
def published(app, room, session, now, keys):
    game = room.game(now)
    room.table(now, game, "7")
    session.commit()
    push = app.extensions[KEY]
    push.publisher.broker = RedisBroker(REDIS, keys)

    def publish() -> int:
        with app.app_context():
            return push.publisher.publish_changes()

    def join(first: str) -> None:
        with app.app_context(), ext(app).unit_of_work(session, room.sup, now) as uow:
            uow.run(lists.join, player_id=room.player(now, first).id, game_id=game.id)
            uow.commit()

    return game, publish, join


async def serve(keys: Keys) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(make_app(REDIS, keys))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    return runner, f"http://127.0.0.1:{port}"


async def next_event(resp: aiohttp.ClientResponse) -> tuple[int, dict[str, object]]:
    while True:
        block = (await asyncio.wait_for(resp.content.readuntil(b"\n\n"), 5)).decode()
        if block.startswith("id: "):
            lines = block.splitlines()
            return int(lines[0][4:]), json.loads(lines[2].removeprefix("data: "))


def test_a_change_committed_in_the_web_process_reaches_the_push_servers_screens(published, keys):
    game, publish, join = published
    key = f"g{game.id}"

    async def run() -> None:
        runner, base = await serve(keys)
        try:
            async with aiohttp.ClientSession() as http:
                assert (await http.get(f"{base}/board/main/events")).status == 404  # nothing published
                await asyncio.to_thread(publish)  # the web process's first pass: the room whole
                resp = await http.get(f"{base}/board/main/events")
                assert resp.status == 200 and resp.headers["Content-Type"] == "text/event-stream"
                first, whole = await next_event(resp)
                assert whole["full"] and whole["order"] == [key]

                await asyncio.to_thread(join, "Ann")
                await asyncio.to_thread(publish)
                number, change = await next_event(resp)
                assert number == first + 1 and not change["full"]
                assert "Ann P." in change["games"][key]  # type: ignore[index]

                again = await http.get(f"{base}/board/main/events",
                                       headers={"Last-Event-ID": str(first)})
                assert await next_event(again) == (number, change)  # what it missed, not the room
                again.close()
                resp.close()

                health = await (await http.get(f"{base}/push/health")).json()
                assert health["status"] == "ok"
        finally:
            await runner.cleanup()

        await asyncio.to_thread(join, "Bob")
        await asyncio.to_thread(publish)
        cold, base = await serve(keys)  # a push server started after the changes
        try:
            async with aiohttp.ClientSession() as http:
                resp = await http.get(f"{base}/board/main/events")
                latest, whole = await next_event(resp)
                assert latest == first + 2 and whole["full"]
                assert "Ann P." in whole["games"][key] and "Bob P." in whole["games"][key]  # type: ignore[index]
                resp.close()
        finally:
            await cold.cleanup()

    in_own_loop(run)


async def next_clock(resp: aiohttp.ClientResponse) -> int:
    while True:
        block = (await asyncio.wait_for(resp.content.readuntil(b"\n\n"), 5)).decode()
        if block.startswith("event: clock\n"):
            return int(block.splitlines()[1].removeprefix("data: "))


def test_issue41_every_open_page_is_sent_each_change_and_the_keep_alive_as_the_clock_advances(
        published, keys):
    """The fan-out writes each change to every page's connection itself; the one keep-alive timer
    (its clock advanced by the test, no real wait) sends every page the clock once a beat has
    passed with nothing sent to it."""
    game, publish, join = published
    key = f"g{game.id}"

    async def run() -> None:
        beat = Beats()
        runner = web.AppRunner(make_app(REDIS, keys, now_ms=beat.now_ms, wait=beat.wait))
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        await asyncio.to_thread(publish)
        try:
            async with aiohttp.ClientSession() as http:
                pages = [await http.get(f"{base}/board/main/events") for _ in range(20)]
                first = {(await next_event(resp))[0] for resp in pages}
                assert len(first) == 1
                for n, name in enumerate(["Ann", "Bob"], start=1):
                    await asyncio.to_thread(join, name)
                    await asyncio.to_thread(publish)
                    for resp in pages:
                        number, change = await next_event(resp)
                        assert number == min(first) + n and f"{name} P." in change["games"][key]  # type: ignore[index]
                await beat.advance()  # each page was sent the changes during this beat
                await beat.advance()
                assert [await next_clock(resp) for resp in pages] == [beat.ms] * len(pages)
                await beat.advance()
                assert [await next_clock(resp) for resp in pages] == [beat.ms] * len(pages)
                for resp in pages:
                    resp.close()
        finally:
            await runner.cleanup()

    in_own_loop(run)


async def stops_at_once(runner: web.AppRunner, resp: aiohttp.ClientResponse) -> None:
    """The server stops within 2 s while ``resp``'s screen still watches, and the stream ends (its
    EventSource reconnects and asks for what it missed): aiohttp waited 60 s for the handler."""
    await asyncio.wait_for(runner.cleanup(), 2)
    await asyncio.wait_for(resp.content.read(), 2)
    assert resp.content.at_eof()


def test_a_push_server_stopped_as_it_starts_stops(keys):
    """Its Redis listeners, cancelled while still connecting, end: Python 3.11's wait_for, which
    redis-py writes through, can lose that cancel, and the cleanup waited for them for ever
    (roomops.push.stopping)."""

    async def run() -> None:
        for _ in range(5):
            runner = web.AppRunner(make_app(REDIS, keys, "a-secret"))  # the staff streams' too
            await runner.setup()
            await web.TCPSite(runner, "127.0.0.1", 0).start()
            stopping = asyncio.ensure_future(runner.cleanup())
            done, _ = await asyncio.wait({stopping}, timeout=2)
            assert done, "the push server did not stop"

    in_own_loop(run)


def test_a_push_server_that_stops_ends_its_screens_streams(published, keys):
    """A deploy or restart of the push server (roomops.push.draining)."""
    _game, publish, _join = published

    async def run() -> None:
        runner, base = await serve(keys)
        await asyncio.to_thread(publish)
        async with aiohttp.ClientSession() as http:
            resp = await http.get(f"{base}/board/main/events")
            await next_event(resp)
            await stops_at_once(runner, resp)

    in_own_loop(run)


def test_the_board_page_is_drawn_when_redis_does_not_answer(app, room, session, client):
    """The page's stream then fails and it polls; the board itself never fails for it."""
    session.commit()
    app.extensions[KEY].publisher.broker = RedisBroker("redis://127.0.0.1:1/0", Keys("roomops:test:x"))
    page = client.get("/board/main")
    assert page.status_code == 200 and 'data-events-url="/board/main/events?last=0"' in page.text


def test_issue40_one_client_address_holds_at_most_its_share_of_the_push_servers_streams(
        published, keys):
    """Behind one trusted proxy (ROOMOPS_TRUSTED_PROXIES=1) the address is X-Forwarded-For's:
    a viewer holding its 2 streams is refused a third (503: that page polls), another client
    behind the same proxy is served, and a stream that ends gives its place back."""
    _game, publish, join = published

    async def run() -> None:
        runner = web.AppRunner(make_app(REDIS, keys, per_address=2, trusted_proxies=1))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        await asyncio.to_thread(publish)
        try:
            async with aiohttp.ClientSession() as http:
                def viewer(address: str):
                    return http.get(f"{base}/board/main/events",
                                    headers={"X-Forwarded-For": address})
                held = [await viewer("203.0.113.7") for _ in range(2)]
                for resp in held:
                    await next_event(resp)
                refused = await viewer("203.0.113.7")
                assert refused.status == 503 and refused.headers["Retry-After"] == "60"
                other = await viewer("203.0.113.8")
                assert other.status == 200
                held.pop().close()
                await asyncio.to_thread(join, "Ann")  # a change: the server writes to the screens
                await asyncio.to_thread(publish)
                for _ in range(50):  # and sees the one that left
                    again = await viewer("203.0.113.7")
                    if again.status == 200:
                        break
                    await asyncio.sleep(0.05)
                assert again.status == 200
                for resp in [*held, other, again]:
                    resp.close()
        finally:
            await runner.cleanup()

    in_own_loop(run)


def test_issue40_a_running_push_server_beats_for_health(keys):
    """The push server writes its heartbeat to Redis as it starts and every few seconds after:
    /health reads it (``push``: ok), and finds none where no push server runs."""
    from roomops.push import alive

    assert not alive.serving(REDIS, keys.prefix)

    async def run() -> None:
        runner, _base = await serve(keys)
        try:
            for _ in range(50):
                if await asyncio.to_thread(alive.serving, REDIS, keys.prefix):
                    break
                await asyncio.sleep(0.02)
            assert await asyncio.to_thread(alive.serving, REDIS, keys.prefix)
        finally:
            await runner.cleanup()

    in_own_loop(run)
