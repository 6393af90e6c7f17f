"""Who gets an opened seat (R14, R15): pure rules, no Flask or database.

Each open seat goes to the earliest-joined eligible entry among the table's reserve list and the
game's waiting list. A waiting-list entry goes to the table that most needs a player (fewest
players seated or called), or to the first table with a seat, per the room's ``placement`` policy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Candidate:
    entry_id: int
    player_id: int
    queue_at: datetime
    table_id: int | None = None  # None: the game's waiting list; else that table's reserve list


@dataclass
class TableState:
    table_id: int
    open_seats: list[int]
    players: set[int] = field(default_factory=set)  # seated at or called to this table

    @property
    def need(self) -> int:
        return len(self.players)


@dataclass(frozen=True)
class Assignment:
    table_id: int
    seat_no: int
    entry_id: int
    player_id: int


def is_barred(player_id: int, others: Iterable[int], barred: set[frozenset[int]]) -> bool:
    """R15: would seating ``player_id`` beside ``others`` bring a barred pair together?"""
    return any(frozenset((player_id, other)) in barred for other in others)


def _eligible(c: Candidate, t: TableState, barred: set[frozenset[int]]) -> bool:
    if c.table_id is not None and c.table_id != t.table_id:
        return False
    return bool(t.open_seats) and c.player_id not in t.players and not is_barred(
        c.player_id, t.players, barred
    )


def _table_order(tables: list[TableState], placement: str) -> list[TableState]:
    if placement == "most_need":
        return sorted(tables, key=lambda t: (t.need, t.table_id))
    return sorted(tables, key=lambda t: t.table_id)


def allocate(
    tables: list[TableState],
    candidates: list[Candidate],
    barred: set[frozenset[int]],
    busy: set[int],
    placement: str = "most_need",
) -> list[Assignment]:
    """Offer every open seat at once, in list order (R14). ``busy``: players holding an offer."""
    taken = set(busy)
    result: list[Assignment] = []
    for cand in sorted(candidates, key=lambda c: (c.queue_at, c.entry_id)):
        if not any(t.open_seats for t in tables):
            break  # every seat is given: the rest of the list waits
        if cand.player_id in taken:
            continue
        table = next(
            (t for t in _table_order(tables, placement) if _eligible(cand, t, barred)), None
        )
        if table is None:
            continue
        seat = table.open_seats.pop(0)
        table.players.add(cand.player_id)
        taken.add(cand.player_id)
        result.append(Assignment(table.table_id, seat, cand.entry_id, cand.player_id))
    return result
