"""Open streams end when the push server stops (a deploy, a restart): aiohttp's graceful
shutdown waits for every handler to return, and a stream's handler returns only when its screen
leaves, so with screens watching a stop would hang for the whole ``shutdown_timeout`` (60 s),
taking no new screen meanwhile. Each stream's handler is registered here; the app's
``on_shutdown`` cancels them all, each ends its response, and every screen's EventSource
reconnects by itself (after ``RETRY``), asking for what it missed (``Last-Event-ID``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web

STREAMS = web.AppKey("streams", set[asyncio.Task[Any]])


def install(app: web.Application) -> None:
    """Track ``app``'s streams and end them as it shuts down."""
    app[STREAMS] = set()
    app.on_shutdown.append(_end_streams)


@contextmanager
def stream(request: web.Request) -> Iterator[None]:
    """While the block runs, the request's handler is one of the app's open streams."""
    task = asyncio.current_task()
    assert task is not None  # aiohttp runs each handler as a task
    streams = request.app[STREAMS]
    streams.add(task)
    try:
        yield
    finally:
        streams.discard(task)


async def _end_streams(app: web.Application) -> None:
    streams: set[asyncio.Task[Any]] = app[STREAMS]
    for task in list(streams):
        task.cancel()
