"""Dealers and the lists (R65): whether a game's waiting list could start a new table, and with
which dealer, now or at a known time. Pure: the desk reads the lists and the plan, this decides."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

Start = Literal["now", "at", "short"]


@dataclass(frozen=True)
class Starting:
    """A list long enough to start a table (R65): a dealer is free ``now``, or ``at`` a time (the
    first dealer coming free), or none is (``short``: the floor calls one in). ``short`` counts
    the dealers the floor is short, this list and those before it together."""

    start: Start
    at: datetime | None = None
    short: int = 0


def startable(waiting: Mapping[int, int], start_at: int, free_now: int,
              free_later: Sequence[datetime]) -> dict[int, Starting]:
    """Each game whose list has ``start_at`` players or more waiting (R65), in the order of
    ``waiting`` (the desk's: lowest stakes first, R4), given one dealer each: from the ``free_now``
    dealers first, then the times dealers come free (earliest first), then none."""
    later = sorted(free_later)
    out: dict[int, Starting] = {}
    short = 0
    for game_id, players in waiting.items():
        if players < start_at:
            continue
        if free_now > 0:
            free_now -= 1
            out[game_id] = Starting("now")
        elif later:
            out[game_id] = Starting("at", later.pop(0))
        else:
            short += 1
            out[game_id] = Starting("short", short=short)
    return out
