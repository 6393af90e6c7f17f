"""Streams per client address (issue 40): the public board's streams are bounded per address, so
anonymous viewers cannot take every stream of a process; plain, for the app's threads and the
push server's event loop alike.

The address is the client's as the app reads it: behind ``ROOMOPS_TRUSTED_PROXIES`` proxies the
``X-Forwarded-For`` entry that many from the right (what werkzeug's ``ProxyFix`` gives the app),
else the connection's peer."""

from __future__ import annotations

import threading
from collections import Counter


def client_address(peer: str | None, forwarded_for: str | None, trusted: int) -> str:
    """``ProxyFix(x_for=trusted)``'s reading: the entry ``trusted`` from the right of
    ``X-Forwarded-For`` when there are that many, else the peer (a header the proxies did not
    write is not believed)."""
    if trusted > 0 and forwarded_for:
        values = [v.strip() for v in forwarded_for.split(",")]
        if len(values) >= trusted and values[-trusted]:
            return values[-trusted]
    return peer or ""


class PerAddress:
    """How many streams each address holds, at most ``limit`` each (0 or less: no bound)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, address: str) -> bool:
        """One more stream for ``address``, unless it already holds ``limit``."""
        with self._lock:
            if 0 < self.limit <= self._held[address]:
                return False
            self._held[address] += 1
            return True

    def give_back(self, address: str) -> None:
        with self._lock:
            self._held[address] -= 1
            if self._held[address] <= 0:
                del self._held[address]

    def held(self, address: str) -> int:
        with self._lock:
            return self._held[address]
