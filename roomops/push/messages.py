"""What a board screen is sent: the games of a room that changed, as Server-Sent Events.

A message carries the room's whole order of games (so a screen drops a game that closed and places
one that opened), the HTML of each game that changed (``None``: the game is gone), whether the
sweep is late (the header's "times may be late") and the server's clock in ms, which the page's
countdowns run on (R20, R22). A *full* message carries every game: a screen that connects, or
reconnects too far behind, gets the whole page from it. Only the public board's fragments travel
here (R61: no player data beyond the public names the board shows)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from roomops.rooms.languages import DEFAULT

EVENT = "board"


@dataclass(frozen=True)
class Update:
    """A room's change, before the hub gives it an id."""

    room_id: int
    now_ms: int
    order: tuple[str, ...]
    games: dict[str, str | None] = field(default_factory=dict)
    late: bool = False
    full: bool = False
    # the language its games are drawn in: with the room, the channel it goes out on (not in the
    # payload: a screen's stream is one language's)
    lang: str = DEFAULT


@dataclass(eq=False)
class Message:
    """An update with its place in the room's stream (``id``, for ``Last-Event-ID``). Encoded
    once, however many screens it goes to."""

    id: int
    update: Update

    def payload(self) -> str:
        u = self.update
        return json.dumps({"room": u.room_id, "now": u.now_ms, "order": list(u.order),
                           "games": u.games, "late": u.late, "full": u.full},
                          separators=(",", ":"))

    @cached_property
    def sse(self) -> bytes:
        """The event as sent (JSON escapes newlines, so the data is one line)."""
        return f"id: {self.id}\nevent: {EVENT}\ndata: {self.payload()}\n\n".encode()

    @cached_property
    def chunk(self) -> bytes:
        """The event as one chunk of a chunked response, framed once for every page."""
        return as_chunk(self.sse)


def as_chunk(data: bytes) -> bytes:
    """``data`` as one chunk of an HTTP/1.1 chunked body (RFC 9112, 7.1): what the push server's
    fan-out writes to a page's connection itself (``roomops.push.pages``)."""
    return b"%x\r\n%b\r\n" % (len(data), data)


def clock(now_ms: int) -> bytes:
    """The server's clock alone: sent after the whole state (its ``now`` is when it was last
    changed) and as the keep-alive, so a page's countdowns stay on the server's time."""
    return f"event: clock\ndata: {now_ms}\n\n".encode()


def parse(message_id: int, payload: str, lang: str = DEFAULT) -> Message:
    """A message of the channel of ``lang`` (its payload does not say it)."""
    data: dict[str, Any] = json.loads(payload)
    return Message(message_id, Update(int(data["room"]), int(data["now"]), tuple(data["order"]),
                                      dict(data["games"]), bool(data["late"]), bool(data["full"]),
                                      lang))


KEEPALIVE_SECONDS = 15.0  # a clock event this often keeps proxies from closing an idle stream
RETRY = b"retry: 3000\n\n"  # how long a browser waits before it reconnects


def last_event_id(value: str | None) -> int | None:
    """The ``Last-Event-ID`` a reconnecting screen sends, or None when absent or not a number."""
    if value is None or not value.strip().isdigit():
        return None
    return int(value.strip())


def last_seen(header: str | None, page: str | None) -> int | None:
    """What a screen has: the ``Last-Event-ID`` it reconnects with, else the message number its
    page was drawn after (``?last=``, in the page's stream address), else nothing."""
    return last_event_id(header) if last_event_id(header) is not None else last_event_id(page)
