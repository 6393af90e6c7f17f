"""A screen's bounded inbox (the board's streams and the staff screens'): the publisher's ``put``
never blocks and says False when the screen has fallen too far behind; ``get`` waits at most
``timeout`` seconds and gives None then (time for a keep-alive). One kind for the app's own
streams (a server thread each), one for the push server's event loop. Plain Python."""

from __future__ import annotations

import asyncio
import queue
from typing import Generic, TypeVar

T = TypeVar("T")


class _Inbox(Generic[T]):
    _queue: queue.Queue[T] | asyncio.Queue[T]

    def put(self, item: T) -> bool:
        try:
            self._queue.put_nowait(item)
        except (queue.Full, asyncio.QueueFull):
            return False
        return True

    def clear(self) -> None:
        while not self._queue.empty():
            self._queue.get_nowait()


class ThreadInbox(_Inbox[T]):
    def __init__(self, size: int) -> None:
        self._queue: queue.Queue[T] = queue.Queue(size)

    def get(self, timeout: float) -> T | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None


class AsyncInbox(_Inbox[T]):
    def __init__(self, size: int) -> None:
        self._queue: asyncio.Queue[T] = asyncio.Queue(size)

    async def get(self, timeout: float) -> T | None:
        try:
            async with asyncio.timeout(timeout):  # no task of its own, as wait_for would make
                return await self._queue.get()
        except TimeoutError:
            return None
