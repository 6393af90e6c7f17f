"""Whether a push server is serving (issue 40): each push server writes a heartbeat to the broker
every ``BEAT_SECONDS``, kept ``ALIVE_SECONDS``; ``/health`` reads it (docs/architecture.md,
"/health"). One key for every push server of the deployment: it says that one serves."""

from __future__ import annotations

import asyncio
import contextlib
import time

import redis
import redis.asyncio as aioredis

BEAT_SECONDS = 5.0
ALIVE_SECONDS = 15  # three beats missed: down


def key(prefix: str) -> str:
    return f"{prefix}:push-server"


async def beat(client: aioredis.Redis, prefix: str) -> None:
    """The push server's heartbeat, until cancelled (a beat Redis refuses is tried next time)."""
    while True:
        # Redis down: the screens have lost their broker too, and /health says so
        with contextlib.suppress(redis.RedisError):
            await client.set(key(prefix), int(time.time()), ex=ALIVE_SECONDS)
        await asyncio.sleep(BEAT_SECONDS)


def serving(url: str, prefix: str) -> bool:
    """Whether a push server beat within ``ALIVE_SECONDS`` (False when Redis does not answer)."""
    client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    try:
        return bool(client.exists(key(prefix)))
    except redis.RedisError:
        return False
    finally:
        client.close()
