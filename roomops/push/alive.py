"""Whether a push server is serving (issue 40): each push server writes a heartbeat to the broker
every ``BEAT_SECONDS``, kept ``ALIVE_SECONDS``; ``/health`` reads it (docs/architecture.md,
"/health"). One key for every push server of the deployment: it says that one serves. With it,
the languages its pages read (issue 41: the publishers draw those alone, ``Broker.shown``)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

import redis
import redis.asyncio as aioredis

from roomops.push.brokers import SHOWN_SECONDS, Keys

BEAT_SECONDS = 5.0
ALIVE_SECONDS = 15  # three beats missed: down


def key(prefix: str) -> str:
    return f"{prefix}:push-server"


async def beat(client: aioredis.Redis, keys: Keys, languages: Callable[[], set[str]]) -> None:
    """The push server's heartbeat, every ``BEAT_SECONDS`` until cancelled (a beat Redis refuses
    is tried next time: Redis down, the screens have lost their broker too, and /health says so)."""
    while True:
        with contextlib.suppress(redis.RedisError):
            await tell(client, keys, languages())
        await asyncio.sleep(BEAT_SECONDS)


async def tell(client: aioredis.Redis, keys: Keys, languages: set[str]) -> None:
    """One beat: this push server serves, and its pages read ``languages``."""
    async with client.pipeline(transaction=False) as pipe:
        pipe.set(key(keys.prefix), int(time.time()), ex=ALIVE_SECONDS)
        for lang in languages:
            pipe.set(keys.shown(lang), 1, ex=SHOWN_SECONDS)
        await pipe.execute()


def serving(url: str, prefix: str) -> bool:
    """Whether a push server beat within ``ALIVE_SECONDS`` (False when Redis does not answer)."""
    client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    try:
        return bool(client.exists(key(prefix)))
    except redis.RedisError:
        return False
    finally:
        client.close()
