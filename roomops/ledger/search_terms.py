"""What the cage typed to find a player (R31, R28): a name, a table, or a table and seat. Pure.

"ann", "Lee": part of a name; a bare word also matches a table of that name ("7", "T7").
"table 7": table 7 only. "7/3", "7 s3", "7 seat 3", "table 7 seat 3": seat 3 at table 7.
"#12": player 12."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SEAT = re.compile(r"^(?:table\s+)?(\S+?)\s*(?:/|\s+seat|\s+s)\s*(\d{1,2})$", re.I)
_TABLE = re.compile(r"^table\s+(\S+)$", re.I)
_PLAYER = re.compile(r"^#\s*(\d{1,10})$")
MAX_LENGTH = 60


@dataclass(frozen=True, slots=True)
class SeatSearch:
    """``text``: part of a name, or a table's whole name; ``table`` (and ``seat``) name a table
    (and a seat at it) exactly; ``player_id``: one player."""

    text: str | None = None
    table: str | None = None
    seat: int | None = None
    player_id: int | None = None

    @property
    def empty(self) -> bool:
        return self == SeatSearch()


def parse_search(raw: str) -> SeatSearch:
    """The search typed into the cage's box (see the module doc); empty when nothing was typed."""
    text = " ".join(raw.split())[:MAX_LENGTH]
    if not text:
        return SeatSearch()
    if m := _PLAYER.match(text):
        return SeatSearch(player_id=int(m.group(1)))
    if m := _SEAT.match(text):
        return SeatSearch(table=m.group(1), seat=int(m.group(2)))
    if m := _TABLE.match(text):
        return SeatSearch(table=m.group(1))
    return SeatSearch(text=text)
