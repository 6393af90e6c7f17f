"""Stopping a push server's own tasks (its Redis listeners and beats) for good.

A task is cancelled again until it has ended: Python 3.11's ``asyncio.wait_for`` loses a cancel
that lands just as the future it waits for completes (CPython gh-86296, fixed in 3.12), and
redis-py writes every command through it, so a listener cancelled while it was still connecting
(a server stopped as it started) would listen on, and the server's cleanup wait for it for ever."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger(__name__)

AGAIN_SECONDS = 0.1  # how long a cancelled task is given before it is cancelled again
TRIES = 50  # then it is left to the event loop's end (and logged)


async def stop(tasks: Iterable[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait until each has ended, cancelling again any that has not."""
    pending = {task for task in tasks if not task.done()}
    for _ in range(TRIES):
        if not pending:
            return
        for task in pending:
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=AGAIN_SECONDS)
    log.error("%d push server tasks did not stop when cancelled", len(pending))
