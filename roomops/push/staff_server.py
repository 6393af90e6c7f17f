"""The staff screens' streams on the push server (issue 21, R61): ``GET /staff/events/<screen>``
(``desk``, ``cage``, ``dealer/<table>``).

The push server has no database and no log-in: the browser sends the cookie the app set for that
path (``STREAM_COOKIE``, ``roomops.push.staff_streams``), a token the app signed with its secret
key (``roomops.push.staff.token``): the room, the screen's keys, the log-in, when it expires.
A token missing, forged, altered, expired, or of a log-in that ended, is refused (403: the page
polls, and reconnects with the cookie its part's next answer renews); a stream ends when its
token expires or its log-in ends (issue 40: the app tells Redis at the log-out,
``<prefix>:staff-ended``, and keeps it there as long as a token lives). Notices come from Redis
(``<prefix>:staff:<room>``, published by the web processes after their commits)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import redis.asyncio as aioredis
from aiohttp import web

from roomops.push import draining
from roomops.push.messages import KEEPALIVE_SECONDS, RETRY
from roomops.push.notices import parse
from roomops.push.staff import (
    KEEPALIVE,
    STREAM_COOKIE,
    AsyncScreen,
    Pass,
    StaffHub,
    channel,
    ended_channel,
    ended_key,
    ended_message,
    read_token,
)
from roomops.push.stopping import stop

HUB = web.AppKey("staff_hub", StaffHub)
REDIS = web.AppKey("staff_redis", aioredis.Redis)


async def _listen(client: aioredis.Redis, prefix: str, hub: StaffHub) -> None:
    pubsub = client.pubsub()
    await pubsub.psubscribe(channel(prefix, "*"))
    await pubsub.subscribe(ended_channel(prefix))
    async for item in pubsub.listen():
        if item["type"] == "pmessage":
            hub.publish(parse(item["data"].decode()))
        elif item["type"] == "message" and (ended := ended_message(item["data"].decode())):
            hub.end(*ended)


async def _current(client: aioredis.Redis, prefix: str, found: Pass) -> bool:
    """Whether the token's log-in has not ended since it was signed."""
    ended = await client.get(ended_key(prefix, found.login.staff_id))
    return ended is None or found.login.version >= int(ended)


def attach(app: web.Application, broker_url: str, prefix: str, secret: str,
           now_ms: Callable[[], int]) -> None:
    """Serve the staff streams from ``app`` (the push server's, ``draining`` installed)."""

    async def lifetime(app: web.Application) -> AsyncIterator[None]:
        client = app[REDIS] = aioredis.Redis.from_url(broker_url)
        app[HUB] = StaffHub()
        task = asyncio.create_task(_listen(client, prefix, app[HUB]))
        yield
        await stop([task])
        await client.aclose()

    async def staff_events(request: web.Request) -> web.StreamResponse:
        found = read_token(secret, request.cookies.get(STREAM_COOKIE, ""), now_ms())
        if found is None or not await _current(request.app[REDIS], prefix, found):
            raise web.HTTPForbidden(text="no staff stream without a valid, current token (R61)\n")
        expires = found.expires_ms
        screen = request.app[HUB].subscribe(AsyncScreen(found.room_id, found.keys, found.login))
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        try:
            with draining.stream(request):
                await resp.prepare(request)
                await resp.write(RETRY)
                while not screen.ended and (left := (expires - now_ms()) / 1000) > 0:
                    await resp.write(await screen.next(min(KEEPALIVE_SECONDS, left)) or KEEPALIVE)
        except (ConnectionResetError, asyncio.CancelledError):
            pass  # the screen went away, or the server is stopping (roomops.push.draining)
        finally:
            request.app[HUB].unsubscribe(screen)
        return resp

    app.cleanup_ctx.append(lifetime)
    app.router.add_get("/staff/events/{screen:.+}", staff_events)
