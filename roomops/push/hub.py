"""The fan-out: every room's latest board state, its recent messages, and the screens subscribed.

Publishing never waits for a screen: a screen that cannot take a message now (its bounded queue
full; on the push server, more unsent on its connection than a bound) is marked *behind*; when it
can again it gets the room's whole current state (one full message) instead of what it missed, so
a slow phone neither holds the others nor piles up memory. A screen that reconnects with
``Last-Event-ID`` gets the messages after it while the room's ring still holds them, else the full
state. A room has a channel per language its screens read (issue 21): a German phone's stream
carries German games. Plain Python, shared by the app's embedded streams (a thread and an inbox
each, ``Subscription``) and the push server (its pages written by the fan-out itself,
``roomops.push.pages``)."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass, field

from roomops.push.inbox import ThreadInbox
from roomops.push.messages import Message, Update
from roomops.rooms.languages import DEFAULT

Channel = tuple[int, str]  # a room's id, and the language its games are drawn in
RING = 64  # messages kept per room for reconnecting screens
QUEUE = 32  # messages a screen may fall behind before it is sent the full state instead


@dataclass
class _Room:
    id: int = 0
    now_ms: int = 0
    order: tuple[str, ...] = ()
    games: dict[str, str] = field(default_factory=dict)
    late: bool = False
    ring: deque[Message] = field(default_factory=lambda: deque(maxlen=RING))
    subs: set[Subscriber] = field(default_factory=set)
    whole: Message | None = None  # the full state as last built: encoded once for every screen


class Subscriber(ABC):
    """One open screen of a room; ``offer`` is called by the publisher and never blocks."""

    def __init__(self, hub: Hub, room_id: int, lang: str = DEFAULT) -> None:
        self.hub, self.room_id, self.lang, self.behind = hub, room_id, lang, False

    @property
    def channel(self) -> Channel:
        return self.room_id, self.lang

    @abstractmethod
    def offer(self, message: Message) -> None: ...

    def close(self) -> None:
        self.hub.unsubscribe(self)


class Subscription(Subscriber):
    """A screen served by a thread (the app's embedded stream), from a bounded inbox."""

    def __init__(self, hub: Hub, room_id: int, lang: str = DEFAULT, size: int = QUEUE) -> None:
        super().__init__(hub, room_id, lang)
        self.inbox: ThreadInbox[Message] = ThreadInbox(size)

    def offer(self, message: Message) -> None:
        if not self.inbox.put(message):
            self.behind = True

    def _catch_up(self) -> Message | None:
        """The full state, once, for a screen marked behind (its inbox emptied first)."""
        if not self.behind:
            return None
        self.inbox.clear()
        self.behind = False
        return self.hub.full(self.room_id, self.lang)

    def next(self, timeout: float) -> Message | None:
        """The next message, or None after ``timeout`` seconds of nothing (time for a keep-alive)."""
        return self._catch_up() or self.inbox.get(timeout) or self._catch_up()


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rooms: dict[Channel, _Room] = {}

    def publish(self, update: Update, message_id: int | None = None) -> Message | None:
        """Apply ``update`` to its room and offer it to every screen of the room. ``message_id``:
        the broker's (ids shared by every web process); None numbers it here. A message not newer
        than the room's latest is dropped (the broker may hand one over twice)."""
        with self._lock:
            room = self._rooms.setdefault((update.room_id, update.lang), _Room())
            number = room.id + 1 if message_id is None else message_id
            if number <= room.id:
                return None
            if update.full:
                room.games = {}
            for key, html in update.games.items():
                if html is None:
                    room.games.pop(key, None)
                else:
                    room.games[key] = html
            room.id, room.now_ms, room.order, room.late = number, update.now_ms, update.order, update.late
            room.whole = None
            message = Message(number, update)
            room.ring.append(message)
            subs = list(room.subs)
        for sub in subs:
            sub.offer(message)
        return message

    def full(self, room_id: int, lang: str = DEFAULT) -> Message | None:
        """The room's whole current state (in ``lang``) as one message, or None before its first
        message."""
        with self._lock:
            return self._full((room_id, lang))

    def _full(self, channel: Channel) -> Message | None:
        room = self._rooms.get(channel)
        if room is None or not room.id:
            return None
        if room.whole is None:
            games: dict[str, str | None] = {k: room.games[k] for k in room.order if k in room.games}
            room.whole = Message(room.id, Update(channel[0], room.now_ms, room.order, games,
                                                 room.late, full=True, lang=channel[1]))
        return room.whole

    def latest(self, room_id: int, lang: str = DEFAULT) -> int:
        with self._lock:
            room = self._rooms.get((room_id, lang))
            return room.id if room else 0

    def subscribe(self, sub: Subscriber, last_id: int | None) -> list[Message]:
        """Register ``sub``; returns what it must be sent first: the messages after ``last_id``
        while the ring holds them all, nothing when it is current, else the full state."""
        with self._lock:
            room = self._rooms.setdefault(sub.channel, _Room())
            room.subs.add(sub)
            if last_id is not None and last_id == room.id:
                return []
            kept = [m for m in room.ring if last_id is not None and m.id > last_id]
            if last_id is not None and last_id < room.id and kept and kept[0].id == last_id + 1:
                return kept
            full = self._full(sub.channel)
        return [] if full is None else [full]

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            room = self._rooms.get(sub.channel)
            if room is not None:
                room.subs.discard(sub)

    def languages(self) -> set[str]:
        """The languages some subscribed screen reads, in any room."""
        with self._lock:
            return {lang for (_room, lang), room in self._rooms.items() if room.subs}

    def watched(self) -> int:
        """How many screens are subscribed, over every room."""
        with self._lock:
            return sum(len(room.subs) for room in self._rooms.values())
