"""Table changes, must-move and balancing (R17-R19): pure rules, no Flask or database."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from roomops.errors import Invalid
from roomops.holds.allocation import is_barred


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


@dataclass(frozen=True)
class Apart:
    """R15: two barred players seated at one table; the one who sat down last (``hold_id``,
    ``player_id``) should move, to ``to_table`` seat ``seat_no``, or, with no such seat free, to a
    table's reserve list or by a must-move (the floor decides: both None)."""

    hold_id: int
    player_id: int
    barred_from: int
    table_id: int
    to_table: int | None
    seat_no: int | None


def barred_together(tables: list[TableCount], barred: set[frozenset[int]]) -> list[Apart]:
    """R15: every barred pair seated at one table of the game (barred after they sat down, or
    seated by hand over it), each with a move: the later of the two to sit down there moves (R19,
    the last to join), to an open seat at the game's table with the fewest players where they are
    barred from nobody. Tables in order, pairs by the mover's sitting down."""
    found = []
    for table in tables:
        ordered = sorted(table.seated, key=lambda s: (s.started_at, s.hold_id))
        for i, mover in enumerate(ordered):
            other = next((s for s in ordered[:i] if frozenset((s.player_id, mover.player_id))
                          in barred), None)
            if other is not None:
                found.append(_apart(mover, other.player_id, table, tables, barred))
    return found


def _apart(mover: Seated, barred_from: int, table: TableCount, tables: list[TableCount],
           barred: set[frozenset[int]]) -> Apart:
    free = [t for t in tables if t.table_id != table.table_id and t.open_seats and not is_barred(
        mover.player_id, {s.player_id for s in t.seated}, barred)]
    to = min(free, key=lambda t: (len(t.seated), t.table_id), default=None)
    return Apart(mover.hold_id, mover.player_id, barred_from, table.table_id,
                 to.table_id if to else None, to.open_seats[0] if to else None)
