"""List order (R10, R13): pure rules, no Flask or database.

A list is ordered by each entry's ``queue_at``. Moving an entry gives it a time between its new
neighbours; only when no microsecond is free between them are later entries nudged, keeping order.
"""

from __future__ import annotations

from datetime import datetime, timedelta

TICK = timedelta(microseconds=1)
EDGE = timedelta(seconds=1)


def move(queue: list[datetime], src: int, dst: int) -> list[datetime]:
    """Queue times for the list after moving item ``src`` to index ``dst`` (both 0-based).

    Returns the new times in the *new* order; every other item keeps its time unless it must be
    nudged by a microsecond to stay strictly after the one before it.
    """
    if not (0 <= src < len(queue) and 0 <= dst < len(queue)):
        raise IndexError("position out of range")
    rest = queue[:src] + queue[src + 1 :]
    before = rest[dst - 1] if dst > 0 else None
    after = rest[dst] if dst < len(rest) else None
    if after is None:
        moved = queue[src] if before is None else before + EDGE
    elif before is None:
        moved = after - EDGE
    else:
        moved = before + (after - before) / 2
        if moved <= before:
            moved = before + TICK
    result = [*rest[:dst], moved, *rest[dst:]]
    for i in range(1, len(result)):
        if result[i] <= result[i - 1]:
            result[i] = result[i - 1] + TICK
    return result
