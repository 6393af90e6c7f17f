"""The staff screens' streams on the push server (issue 21, R61): ``GET /staff/events?t=<token>``.

The push server has no database and no log-in: a screen's page carries a token the app signed
with its secret key (``roomops.push.staff.token``): the room, the screen's keys, when it expires.
A token forged, altered or expired is refused (403: the page polls, and reconnects with the fresh
token of its part's next answer); a stream ends when its token expires. Notices come from Redis
(``<prefix>:staff:<room>``, published by the web processes after their commits)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import redis.asyncio as aioredis
from aiohttp import web

from roomops.push import draining
from roomops.push.messages import KEEPALIVE_SECONDS, RETRY
from roomops.push.notices import parse
from roomops.push.staff import KEEPALIVE, AsyncScreen, StaffHub, channel, read_token

HUB = web.AppKey("staff_hub", StaffHub)


async def _listen(client: aioredis.Redis, prefix: str, hub: StaffHub) -> None:
    pubsub = client.pubsub()
    await pubsub.psubscribe(channel(prefix, "*"))
    async for item in pubsub.listen():
        if item["type"] == "pmessage":
            hub.publish(parse(item["data"].decode()))


def attach(app: web.Application, broker_url: str, prefix: str, secret: str,
           now_ms: Callable[[], int]) -> None:
    """Serve the staff streams from ``app`` (the push server's, ``draining`` installed)."""

    async def lifetime(app: web.Application) -> AsyncIterator[None]:
        client = aioredis.Redis.from_url(broker_url)
        app[HUB] = StaffHub()
        task = asyncio.create_task(_listen(client, prefix, app[HUB]))
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await client.aclose()

    async def staff_events(request: web.Request) -> web.StreamResponse:
        found = read_token(secret, request.query.get("t", ""), now_ms())
        if found is None:
            raise web.HTTPForbidden(text="no staff stream without a valid, current token (R61)\n")
        room_id, keys, expires = found
        screen = request.app[HUB].subscribe(AsyncScreen(room_id, keys))
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        try:
            with draining.stream(request):
                await resp.prepare(request)
                await resp.write(RETRY)
                while (left := (expires - now_ms()) / 1000) > 0:
                    await resp.write(await screen.next(min(KEEPALIVE_SECONDS, left)) or KEEPALIVE)
        except (ConnectionResetError, asyncio.CancelledError):
            pass  # the screen went away, or the server is stopping (roomops.push.draining)
        finally:
            request.app[HUB].unsubscribe(screen)
        return resp

    app.cleanup_ctx.append(lifetime)
    app.router.add_get("/staff/events", staff_events)
