"""The push server's open board streams, each written to by the fan-out itself (issue 41).

``Hub.publish`` runs on the push server's event loop (its Redis listener); for each page of the
room it writes the message, encoded and framed once for every page (``Message.sse``,
``Message.chunk``), straight to the page's connection (``asyncio.Transport.write``): no task of
the page wakes and no timer is re-armed per message, one ``send`` per page. A page's handler only
waits until its page is gone. One timer keeps every page alive (``beats``): each beat writes the
server's clock to the pages that were sent nothing since the beat before, so no stream is silent
longer than ``KEEPALIVE_SECONDS`` (proxies close idle streams; a page's countdowns run on the
server's clock, R20, R22).

A page whose connection holds more than ``BACKLOG`` bytes unsent (a slow phone) is sent nothing
more and marked behind; once it has drained, the next message or beat sends it the room's whole
state instead of what it missed (as ``roomops.push.hub`` says of every screen). A page whose
connection is closing is gone: its handler returns and it is unsubscribed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from roomops.push.hub import Hub, Subscriber
from roomops.push.messages import KEEPALIVE_SECONDS, Message, as_chunk, clock

# Unsent bytes a page's connection may hold before it is sent nothing more: above the room's whole
# state (~580 KB at 250 tables, bench/push.py), so a page sent it is not behind again at once.
BACKLOG = 1 << 20
# A page sent nothing during one beat is sent the clock at the next: silent at most two beats.
BEAT_SECONDS = KEEPALIVE_SECONDS / 2


class Page(Subscriber):
    """One open board stream on ``transport``, its response started (the headers sent);
    ``chunked``: its body is chunked (HTTP/1.1), each write one chunk. On the event loop only."""

    def __init__(self, hub: Hub, room_id: int, lang: str, transport: asyncio.Transport,
                 chunked: bool) -> None:
        super().__init__(hub, room_id, lang)
        self.transport, self.chunked = transport, chunked
        self.gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.quiet = True  # sent nothing since the last beat

    def start(self, first: list[Message], now_ms: int) -> None:
        """What the page is sent first (``Hub.subscribe``'s answer: what it missed, or the whole
        state), then the server's clock."""
        for message in first:
            self.offer(message)
        sse = clock(now_ms)
        self._write(as_chunk(sse) if self.chunked else sse)

    def offer(self, message: Message) -> None:
        """From ``Hub.publish``: the message written now, or nothing to a page behind."""
        if self._backlogged():
            self.behind = True
        elif self.behind:
            self._catch_up()
        else:
            self._send(message)

    def beat(self, sse: bytes, chunk: bytes) -> None:
        """The keep-alive (``sse``, framed as ``chunk``) if the page was sent nothing since the
        last beat; the whole state instead to a page behind whose connection has drained."""
        if self.transport.is_closing():
            self._leave()
        elif not self._backlogged():
            if self.behind:
                self._catch_up()
            elif self.quiet:
                self._write(chunk if self.chunked else sse)
        self.quiet = True

    def _backlogged(self) -> bool:
        return self.transport.get_write_buffer_size() > BACKLOG

    def _catch_up(self) -> None:
        self.behind = False
        whole = self.hub.full(self.room_id, self.lang)
        if whole is not None:
            self._send(whole)

    def _send(self, message: Message) -> None:
        self._write(message.chunk if self.chunked else message.sse)

    def _write(self, data: bytes) -> None:
        if self.transport.is_closing():  # the screen went away: its handler returns
            self._leave()
        else:
            self.transport.write(data)
            self.quiet = False

    def _leave(self) -> None:
        if not self.gone.done():
            self.gone.set_result(None)


class Pages:
    """The push server's open pages, for the one keep-alive of them all; ``now_ms``: the clock
    they are sent."""

    def __init__(self, now_ms: Callable[[], int]) -> None:
        self.open: set[Page] = set()
        self.now_ms = now_ms

    def start(self, page: Page, last_id: int | None) -> None:
        """Subscribe ``page`` and write what it is sent first, with no wait between: every
        message after it is written by the fan-out, in order."""
        page.start(page.hub.subscribe(page, last_id), self.now_ms())
        self.open.add(page)

    def close(self, page: Page) -> None:
        self.open.discard(page)
        page.close()

    def beat(self) -> None:
        sse = clock(self.now_ms())
        chunk = as_chunk(sse)
        for page in list(self.open):
            page.beat(sse, chunk)


async def beats(pages: Pages, wait: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
    """``pages.beat`` every ``BEAT_SECONDS`` until cancelled: one timer for every page.
    ``wait``: how it waits between beats (a test's clock advances instead)."""
    while True:
        await wait(BEAT_SECONDS)
        pages.beat()
