"""The push server (``flask push-server``): an asyncio process that holds the screens' open
streams, thousands of them, so they never take a web worker's thread.

It subscribes to the Redis channels the web processes publish to (``roomops.push.brokers``) and
fans each message out to the room's screens through its own hub, which writes it to each page's
connection itself, with one keep-alive timer for them all (``roomops.push.pages``, issue 41). It
needs no database: a room's
slug, and its whole current state for a screen that connects or falls behind, are read from Redis
the first time it meets the room. aiohttp: one well-kept library for both the server and its
streaming responses, with no ASGI layer between (docs/decisions.md, "Pushed screens")."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import cast

import redis.asyncio as aioredis
from aiohttp import HttpVersion11, web

from roomops.push import alive, draining, staff_server
from roomops.push.addresses import PerAddress, client_address
from roomops.push.brokers import Keys, stored_update
from roomops.push.hub import Channel, Hub
from roomops.push.messages import RETRY, last_seen, parse
from roomops.push.pages import Page, Pages, beats
from roomops.push.stopping import stop
from roomops.rooms.languages import DEFAULT, LANGUAGES, supported

log = logging.getLogger("roomops.push")


def wall_ms() -> int:
    """The push server has no app clock: it is the machine's, as the web processes' in production."""
    return time.time_ns() // 1_000_000


class Fanout:
    """The hub, fed from Redis in the order the messages were numbered, and its open pages."""

    def __init__(self, client: aioredis.Redis, keys: Keys, now_ms: Callable[[], int]) -> None:
        self.client, self.keys, self.hub, self.pages = client, keys, Hub(), Pages(now_ms)
        self._loaded: dict[Channel, asyncio.Future[None]] = {}
        self._slugs: dict[str, asyncio.Future[bytes | str | None]] = {}

    async def room(self, room_id: int, lang: str) -> None:
        """The room's whole state in ``lang`` from Redis, once, before any message of it is
        applied."""
        done = self._loaded.get((room_id, lang))
        if done is None:
            done = self._loaded[room_id, lang] = asyncio.get_running_loop().create_future()
            try:
                fields = cast(dict[bytes, bytes],
                              await self.client.hgetall(self.keys.state(room_id, lang)))
                stored = stored_update(room_id, fields, lang)
                if stored is not None:
                    self.hub.publish(stored[1], stored[0])
            finally:
                done.set_result(None)
        await done

    async def listen(self) -> None:
        pubsub = self.client.pubsub()
        await pubsub.psubscribe(self.keys.channels)
        async for item in pubsub.listen():
            if item["type"] != "pmessage":
                continue
            room_id, lang = self.keys.room_of(item["channel"].decode())
            number, _, payload = item["data"].decode().partition("|")
            await self.room(room_id, lang)
            self.hub.publish(parse(int(number), payload, lang).update, int(number))

    async def room_id(self, slug: str) -> int | None:
        """The room of ``slug``: asked of Redis once however many screens connect at once (each
        asking would take a connection each), kept once found."""
        asked = self._slugs.get(slug)
        if asked is None:
            asked = self._slugs[slug] = asyncio.ensure_future(self.client.hget(self.keys.slugs, slug))
        try:
            found = await asyncio.shield(asked)
        except Exception:
            self._slugs.pop(slug, None)
            raise
        if found is None:
            self._slugs.pop(slug, None)  # not published yet: ask again next time
            return None
        return int(found)


FANOUT = web.AppKey("fanout", Fanout)


class Viewers:
    """Issue 40: how many board streams each client address holds (``ROOMOPS_PUSH_STREAMS_PER_
    ADDRESS``), the address read behind ``ROOMOPS_TRUSTED_PROXIES`` proxies as the app reads it."""

    def __init__(self, per_address: int, trusted_proxies: int) -> None:
        self.held, self.trusted = PerAddress(per_address), trusted_proxies

    def address(self, request: web.Request) -> str:
        return client_address(request.remote, request.headers.get("X-Forwarded-For"), self.trusted)


VIEWERS = web.AppKey("viewers", Viewers)


async def board_events(request: web.Request) -> web.StreamResponse:
    fanout = request.app[FANOUT]
    lang = supported(request.query.get("lang", DEFAULT))
    if lang is None:
        raise web.HTTPUnprocessableEntity(text=f"lang= is one of {', '.join(LANGUAGES)}\n")
    room_id = await fanout.room_id(request.match_info["slug"])
    if room_id is None:
        raise web.HTTPNotFound(text="no such room, or nothing published for it yet\n")
    await fanout.room(room_id, lang)
    viewers = request.app[VIEWERS]
    address = viewers.address(request)
    if not viewers.held.take(address):
        raise web.HTTPServiceUnavailable(text="no stream here: poll /live\n",
                                         headers={"Retry-After": "60"})
    try:
        return await _stream(request, fanout, room_id, lang)
    finally:
        viewers.held.give_back(address)


async def _stream(request: web.Request, fanout: Fanout, room_id: int, lang: str) -> web.StreamResponse:
    """The page's stream: its first messages written here, every one after by the fan-out
    (``roomops.push.pages``), until the screen goes away or the server stops."""
    resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                       "X-Accel-Buffering": "no"})
    if request.version >= HttpVersion11:
        resp.enable_chunked_encoding()  # so each write of the page's is one chunk (Page.chunked)
    page: Page | None = None
    try:
        with draining.stream(request):
            await resp.prepare(request)
            await resp.write(RETRY)  # with the headers: every write after is the page's own
            if request.transport is not None:  # else the screen has gone already
                page = Page(fanout.hub, room_id, lang, request.transport, resp.chunked)
                fanout.pages.start(page, last_seen(request.headers.get("Last-Event-ID"),
                                                   request.query.get("last")))
                await page.gone
    except (ConnectionResetError, asyncio.CancelledError):
        pass  # the screen went away, or the server is stopping (roomops.push.draining)
    finally:
        if page is not None:
            fanout.pages.close(page)
    return resp


async def health(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok", "streams": request.app[FANOUT].hub.watched()})


def make_app(broker_url: str, keys: Keys, secret: str = "",
             now_ms: Callable[[], int] = wall_ms, *, per_address: int = 0,
             trusted_proxies: int = 0,
             wait: Callable[[float], Awaitable[None]] = asyncio.sleep) -> web.Application:
    """``secret``: the app's secret key, which signs the staff streams' tokens (none: no staff
    streams here, roomops.push.staff_server); ``now_ms``: the clock the pages are sent (the
    keep-alive's) and the tokens are read on; ``per_address``: the board streams one client
    address may hold (0: no bound); ``wait``: how the keep-alive waits between its beats
    (``roomops.push.pages.beats``)."""
    app = web.Application()
    draining.install(app)
    app[VIEWERS] = Viewers(per_address, trusted_proxies)

    async def lifetime(app: web.Application) -> AsyncIterator[None]:
        client = aioredis.Redis.from_url(broker_url)
        app[FANOUT] = Fanout(client, keys, now_ms)
        tasks = [asyncio.create_task(app[FANOUT].listen()),
                 asyncio.create_task(beats(app[FANOUT].pages, wait)),
                 asyncio.create_task(alive.beat(client, keys, app[FANOUT].hub.languages))]  # /health too
        yield
        await stop(tasks)
        await client.aclose()

    app.cleanup_ctx.append(lifetime)
    app.router.add_get("/board/{slug}/events", board_events)
    app.router.add_get("/push/health", health)
    if secret:
        staff_server.attach(app, broker_url, keys.prefix, secret, now_ms)
    return app


def serve(broker_url: str, keys: Keys, secret: str, host: str, port: int, *,
          per_address: int, trusted_proxies: int) -> None:
    web.run_app(make_app(broker_url, keys, secret, per_address=per_address,
                         trusted_proxies=trusted_proxies),
                host=host, port=port, access_log=None, print=lambda text: log.info("%s", text))
