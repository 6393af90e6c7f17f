"""A bounded LRU, safe to share between the server's threads: the board's per-game caches, sized
for the deployment's open games (``Tally``) so that every room's board is served from them."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from threading import Lock
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
GAMES = 400  # the least each of the board's caches keeps, however few games the board has met
# Entries kept a game for each it holds now: the ones a change replaced linger until they age out,
# and a cache exactly the size of its live entries would evict a live one at every change.
HEADROOM = 2


class Tally:
    """How many open games each room had when the board last read it: what the caches are sized
    for (one per app, shared by its caches). A room's count follows it up and down; a room met
    for the first time grows the caches before its games are put in them."""

    def __init__(self) -> None:
        self.games = 0
        self._rooms: dict[int, int] = {}
        self._lock = Lock()

    def seen(self, room_id: int, games: int) -> None:
        with self._lock:
            if self._rooms.get(room_id) != games:
                self._rooms[room_id] = games
                self.games = sum(self._rooms.values())


class LRU(Generic[K, V]):
    """At most ``size`` values, the least recently used dropped first: ``least``, or ``HEADROOM``
    times ``per_game`` entries for each game of ``tally`` when that is more.

    The lock only guards the dictionary; making a missing value happens outside it, so two threads
    missing the same key at once both make it (the same value) and neither waits for the other."""

    def __init__(self, least: int = GAMES, per_game: int = 1, tally: Tally | None = None) -> None:
        self.least = least
        self.per_game = per_game
        self.tally = tally or Tally()
        self.hits = self.misses = 0
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = Lock()

    @property
    def size(self) -> int:
        return max(self.least, HEADROOM * self.per_game * self.tally.games)

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
            else:
                self.hits += 1
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        size = self.size
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
