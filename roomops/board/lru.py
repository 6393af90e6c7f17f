"""A bounded LRU, safe to share between the server's threads: the board's per-game caches."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from threading import Lock
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
GAMES = 400  # games each of the board's caches keeps: about ten rooms of 40 (a few MB of HTML)


class LRU(Generic[K, V]):
    """At most ``size`` values, the least recently used dropped first.

    The lock only guards the dictionary; making a missing value happens outside it, so two threads
    missing the same key at once both make it (the same value) and neither waits for the other."""

    def __init__(self, size: int = GAMES) -> None:
        self.size = size
        self.hits = self.misses = 0
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = Lock()

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
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
