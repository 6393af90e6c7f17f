"""The push server's pages (issue 41, plain asyncio, no sockets): the fan-out writes each message
to every page of its room itself, framed once; one keep-alive timer sends the clock to every page
sent nothing since its last beat, on the clock the test advances; a slow page is sent nothing
until it has drained, then the whole state; a page gone is let go and stops no one else's."""

from __future__ import annotations

import asyncio
import contextlib

from roomops.push.hub import Hub
from roomops.push.messages import KEEPALIVE_SECONDS, Message, Update, as_chunk, clock
from roomops.push.pages import BACKLOG, BEAT_SECONDS, Page, Pages, beats
from tests.push.conftest import Beats
from tests.push.loops import in_own_loop


class Wire(asyncio.Transport):
    """A page's connection as the fan-out sees it: what was written to it, how much it holds
    unsent, whether it is closing."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.unsent = 0
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        return self.unsent


def change(games: dict[str, str | None], full: bool = False) -> Update:
    return Update(1, 1000, ("g1", "g2"), games, full=full)


def opened(hub: Hub, pages: Pages, room_id: int = 1, chunked: bool = True,
           last_id: int | None = None) -> tuple[Page, Wire]:
    wire = Wire()
    page = Page(hub, room_id, "en", wire, chunked)
    pages.start(page, last_id)
    return page, wire


def test_every_page_of_the_room_is_written_each_message_itself_and_no_other_room_is():
    async def main() -> None:
        hub, beat = Hub(), Beats()
        pages = Pages(beat.now_ms)
        hub.publish(change({"g1": "a", "g2": "b"}, full=True))
        room = [opened(hub, pages) for _ in range(50)]
        other = opened(hub, pages, room_id=2)
        whole = hub.full(1)
        assert whole is not None
        for _page, wire in room:  # first the whole state, then the server's clock
            assert wire.written == [whole.chunk, as_chunk(clock(beat.ms))]
        sent = [hub.publish(change({"g1": f"a{i}"})) for i in range(3)]
        for _page, wire in room:
            assert wire.written[2:] == [m.chunk for m in sent if m]  # each, once, in order
        assert other[1].written == [as_chunk(clock(beat.ms))]  # its clock, nothing of room 1
        assert hub.watched() == 51

    in_own_loop(main)


def test_a_message_is_framed_once_as_an_http_chunk_and_bare_on_an_unchunked_response():
    async def main() -> None:
        hub, pages = Hub(), Pages(Beats().now_ms)
        _page, http10 = opened(hub, pages, chunked=False)
        message = hub.publish(change({"g1": "a"}, full=True))
        assert message is not None
        assert http10.written[-1] == message.sse
        assert message.chunk == b"%x\r\n" % len(message.sse) + message.sse + b"\r\n"
        assert message.chunk is message.chunk  # encoded and framed once for every page

    in_own_loop(main)


def test_a_page_reconnecting_is_sent_what_it_missed_then_the_clock():
    async def main() -> None:
        hub, beat = Hub(), Beats()
        pages = Pages(beat.now_ms)
        sent = [hub.publish(change({"g1": f"a{i}"}, full=i == 0)) for i in range(4)]
        _page, wire = opened(hub, pages, last_id=2)
        assert wire.written == [m.chunk for m in sent[2:] if m] + [as_chunk(clock(beat.ms))]

    in_own_loop(main)


def test_one_timer_sends_the_clock_to_every_quiet_page_each_beat_as_the_clock_advances():
    """No page is silent longer than KEEPALIVE_SECONDS: a page written to during a beat is not
    sent the clock at its end; every other page is, at each beat, with the advanced time; the
    timer goes on beating."""

    async def main() -> None:
        hub, beat = Hub(), Beats()
        pages = Pages(beat.now_ms)
        hub.publish(change({"g1": "a"}, full=True))
        quiet = [opened(hub, pages)[1] for _ in range(20)]
        busy_page, busy = opened(hub, pages, room_id=2)
        timer = asyncio.create_task(beats(pages, beat.wait))
        try:
            start = beat.ms
            await beat.advance()  # each page was sent its start during this beat: no clock yet
            assert all(len(wire.written) == 2 for wire in quiet)
            for n in range(2, 6):
                hub.publish(Update(2, 1000, ("g9",), {"g9": f"x{n}"}))  # room 2 is busy
                await beat.advance()
                assert beat.ms == start + n * BEAT_SECONDS * 1000
                for wire in quiet:
                    assert wire.written[-1] == as_chunk(clock(beat.ms))
                    assert wire.written.count(as_chunk(clock(beat.ms))) == 1
                assert all(as_chunk(clock(beat.ms)) != w for w in busy.written)
            assert all(len(wire.written) == 2 + 4 for wire in quiet)  # whole, clock, 4 beats
            assert 2 * BEAT_SECONDS <= KEEPALIVE_SECONDS  # silent at most two beats
            assert not busy_page.gone.done()
        finally:
            timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await timer

    in_own_loop(main)


def test_a_page_gone_is_let_go_at_its_next_write_and_stops_no_other_pages_message_or_beat():
    async def main() -> None:
        hub, beat = Hub(), Beats()
        pages = Pages(beat.now_ms)
        hub.publish(change({"g1": "a"}, full=True))
        gone, gone_wire = opened(hub, pages)
        stays, stays_wire = opened(hub, pages)
        timer = asyncio.create_task(beats(pages, beat.wait))
        try:
            gone_wire.closing = True
            message = hub.publish(change({"g1": "b"}))
            assert gone.gone.done()  # its handler returns
            assert message is not None and stays_wire.written[-1] == message.chunk
            pages.close(gone)
            assert hub.watched() == 1 and gone not in pages.open
            for _ in range(2):
                await beat.advance()
            assert stays_wire.written[-1] == as_chunk(clock(beat.ms))
            assert not stays.gone.done()
        finally:
            timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await timer

    in_own_loop(main)


def test_a_quiet_page_gone_is_let_go_at_the_next_beat():
    async def main() -> None:
        hub, beat = Hub(), Beats()
        pages = Pages(beat.now_ms)
        page, wire = opened(hub, pages)
        wire.closing = True
        pages.beat()
        assert page.gone.done() and wire.written == [as_chunk(clock(beat.ms))]

    in_own_loop(main)


def test_a_slow_page_is_sent_nothing_until_it_drains_then_the_whole_state_once():
    async def main() -> None:
        hub, beat = Hub(), Beats()
        pages = Pages(beat.now_ms)
        hub.publish(change({"g1": "a1", "g2": "b1"}, full=True))
        slow, wire = opened(hub, pages)
        _quick, quick = opened(hub, pages)
        wire.unsent = BACKLOG + 1
        missed = [hub.publish(change({"g1": f"a{i}"})) for i in range(2, 6)]
        assert len(wire.written) == 2 and slow.behind  # nothing more while it holds so much
        assert quick.written[2:] == [m.chunk for m in missed if m]
        pages.beat()
        assert len(wire.written) == 2  # nor the keep-alive
        wire.unsent = 0
        pages.beat()  # drained: the whole state instead of what it missed
        whole = hub.full(1)
        assert whole is not None and whole.update.games == {"g1": "a5", "g2": "b1"}
        assert wire.written[2:] == [whole.chunk] and not slow.behind
        after = hub.publish(change({"g2": "b2"}))
        assert after is not None and wire.written[3:] == [after.chunk]

    in_own_loop(main)


def test_a_slow_page_drained_is_sent_the_whole_state_at_the_next_message():
    async def main() -> None:
        hub, pages = Hub(), Pages(Beats().now_ms)
        hub.publish(change({"g1": "a1"}, full=True))
        slow, wire = opened(hub, pages)
        wire.unsent = BACKLOG + 1
        hub.publish(change({"g1": "a2"}))
        wire.unsent = 0
        hub.publish(change({"g1": "a3"}))
        whole: Message | None = hub.full(1)
        assert whole is not None and wire.written[2:] == [whole.chunk] and not slow.behind

    in_own_loop(main)
