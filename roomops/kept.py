"""The app's one keeper of derived data (issue 41): a value kept under the stamp of what it was made
from, given again while the stamp is the same, made again when it moved.

The board keeps each game's rows under its board mark and each drawn game under what it is drawn
from; the desk keeps each game's rows under its marks; the board and the desk keep each game's
typical wait under what it is worked out from (``roomops.waits``). Stamps come from the database
(the marks its triggers move, ``roomops.games.marks``) or from the values themselves, so a change
made by another process is seen as soon as it is read; nothing here listens for changes.

A keeper is safe to share between the server's threads: the lock guards the dictionary only, and
making a missing value happens outside it, so two threads missing the same key at once both make
it (the same value) and neither waits for the other."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
S = TypeVar("S")
V = TypeVar("V")
GAMES = 400  # the least a bounded keeper holds, however few games the rooms have
# Entries kept a game for each it holds now: the ones a change replaced linger until they age out,
# and a keeper exactly the size of its live entries would evict a live one at every change.
HEADROOM = 2


class Tally:
    """How many open games each room had when it was last read: what bounded keepers are sized
    for (one per app, shared by its keepers). A room's count follows it up and down; a room met
    for the first time grows the keepers before its games are put in them."""

    def __init__(self) -> None:
        self.games = 0
        self._rooms: dict[int, int] = {}
        self._lock = Lock()

    def seen(self, room_id: int, games: int) -> None:
        with self._lock:
            if self._rooms.get(room_id) != games:
                self._rooms[room_id] = games
                self.games = sum(self._rooms.values())


class Kept(Generic[K, S, V]):
    """Each key's value with its stamp. Bounded (``bounded``): at most ``least``, or ``HEADROOM``
    times ``per_game`` entries for each game of ``tally`` when that is more, the least recently
    used dropped first. Unbounded: the caller drops what is gone (``forget``)."""

    def __init__(self, *, bounded: bool = False, least: int = GAMES, per_game: int = 1,
                 tally: Tally | None = None) -> None:
        self.bounded, self.least, self.per_game = bounded, least, per_game
        self.tally = tally or Tally()
        self.hits = self.misses = 0
        self._items: OrderedDict[K, tuple[S, V]] = OrderedDict()
        self._lock = Lock()

    @property
    def size(self) -> int:
        return max(self.least, HEADROOM * self.per_game * self.tally.games)

    def get(self, key: K, stamp: S) -> V | None:
        """The value kept under ``stamp``; None when there is none or it was made from other."""
        with self._lock:
            found = self._items.get(key)
            if found is None or found[0] != stamp:
                self.misses += 1
                return None
            self.hits += 1
            self._items.move_to_end(key)
            return found[1]

    def put(self, key: K, stamp: S, value: V) -> None:
        size = self.size
        with self._lock:
            self._items[key] = stamp, value
            self._items.move_to_end(key)
            while self.bounded and len(self._items) > size:
                self._items.popitem(last=False)

    def keep(self, key: K, stamp: S, make: Callable[[], V]) -> V:
        """The value kept under ``stamp``, or ``make()``'s, kept."""
        found = self.get(key, stamp)
        if found is None:
            found = make()
            self.put(key, stamp, found)
        return found

    def forget(self, gone: Callable[[K], bool]) -> None:
        """Drop the keys ``gone`` names (the games closed since)."""
        with self._lock:
            for key in [k for k in self._items if gone(k)]:
                del self._items[key]

    def __len__(self) -> int:
        return len(self._items)
