"""The one source of time. Services take ``now``; only the clock reads the wall clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """Wall-clock UTC time, the production clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FrozenClock:
    """A clock that only moves when told to: tests and benchmarks advance it instead of sleeping."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("FrozenClock needs an aware datetime")
        self._now = start

    def now(self) -> datetime:
        return self._now

    def advance(self, **kwargs: float) -> datetime:
        self._now += timedelta(**kwargs)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when


def stopwatch() -> Callable[[], int]:
    """Milliseconds since the call, on the monotonic clock: how long a job took, which the app's
    (possibly frozen) clock cannot tell."""
    start = time.perf_counter()
    return lambda: int((time.perf_counter() - start) * 1000)
