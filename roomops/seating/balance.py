"""Table changes, must-move and balancing (R17-R19): pure rules, no Flask or database."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from roomops.errors import Invalid
from roomops.seating.allocation import is_barred


def check_added(stack: int, added: int, max_buyin: int) -> None:
    """R18/R28: a moving player carries the whole stack, whatever the table's range (R30), and
    may add chips but never remove any; added chips may take the stack up to the table maximum
    and no further (a stack already above it gets nothing added)."""
    if stack < 1:
        raise Invalid("the stack carried must be counted and above 0 (got {stack})", "R18",
                      amounts={"stack": stack})
    if added < 0:
        raise Invalid("chips may be added on a move but never removed", "R28")
    if added and stack + added > max_buyin:
        raise Invalid("adding {added} would take the stack above the table maximum {maximum}",
                      "R30", amounts={"added": added, "maximum": max_buyin})


@dataclass(frozen=True)
class Seated:
    hold_id: int
    player_id: int
    started_at: datetime


@dataclass
class TableCount:
    """A table of one game as balancing sees it: who is seated, its open seats, the main table it
    feeds (R17) and the players on its reserve list in order (the transfer list, R11/R19)."""

    table_id: int
    seated: list[Seated]
    open_seats: list[int]
    feeds: int | None = None
    transfers: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Suggestion:
    hold_id: int
    player_id: int
    from_table: int
    to_table: int
    seat_no: int
    why: str


def suggest_move(tables: list[TableCount], barred: set[frozenset[int]]) -> Suggestion | None:
    """R19: when the fullest and the shortest table of a game differ by two players or more, who
    should move from the fullest to the shortest: the first on the shortest table's transfer
    (reserve) list who sits at the fullest, otherwise the last to join the fullest table; never
    into a table where they are barred from someone (R15). Tables with a must-move in place are
    balanced by it (R17) and left out."""
    mains = {t.feeds for t in tables if t.feeds is not None}
    free = [t for t in tables if t.feeds is None and t.table_id not in mains]
    if len(free) < 2:
        return None
    full = max(free, key=lambda t: (len(t.seated), -t.table_id))
    short = min(free, key=lambda t: (len(t.seated), t.table_id))
    if len(full.seated) - len(short.seated) < 2 or not short.open_seats:
        return None
    there = {s.player_id for s in short.seated}
    at_full = {s.player_id: s for s in full.seated}
    movers = [(at_full[p], "transfer list") for p in short.transfers if p in at_full]
    movers += [(s, "last to join") for s in sorted(full.seated, key=lambda s: (s.started_at, s.hold_id),
                                                   reverse=True)]
    for seat, why in movers:
        if not is_barred(seat.player_id, there, barred):
            return Suggestion(seat.hold_id, seat.player_id, full.table_id, short.table_id,
                              short.open_seats[0], why)
    return None
