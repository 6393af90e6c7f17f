"""Who gets an opened seat (R14, R15, R17, R18): pure rules, no Flask or database.

Each open seat goes to the earliest-joined eligible entry among the table's reserve list and the
game's waiting list; a player due to move from a must-move table to its main table goes before
any list, longest seated first (R17); a player seated at the table who asked for a seat change
there goes before anyone, oldest request first (R14/R36, docs/decisions.md). A waiting-list
entry goes to the table that most needs a player (fewest players seated or called), or to the
first table with a seat, per the room's ``placement`` policy. A seated player's table change
(R18) is not offered while it would leave their table short.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime


@dataclass(frozen=True)
class Candidate:
    """A list entry, or (``from_hold_id``) a player due to move from that seat (R17, R19), who
    goes before every list entry, or (``seat_change_id``) a player asking to change seats at
    their table (R36), before both; ``queue_at`` orders each kind (joining, sitting down,
    asking)."""

    entry_id: int | None
    player_id: int
    queue_at: datetime
    table_id: int | None = None  # None: any table (waiting list); else only that table
    from_hold_id: int | None = None
    seated_at: int | None = None  # R18: a table change from this table of the game
    seat_change_id: int | None = None

    def order(self) -> tuple[bool, bool, datetime, int, int, int]:
        return (self.seat_change_id is None, self.from_hold_id is None, self.queue_at,
                self.entry_id or 0, self.seat_change_id or 0, self.from_hold_id or 0)


@dataclass
class TableState:
    table_id: int
    open_seats: list[int]
    players: set[int] = field(default_factory=set)  # seated at or called to this table
    seated: int = 0  # players seated (R18)

    @property
    def need(self) -> int:
        return len(self.players)


@dataclass(frozen=True)
class Assignment:
    table_id: int
    seat_no: int
    entry_id: int | None
    player_id: int
    from_hold_id: int | None = None
    seat_change_id: int | None = None
    over_reason: str | None = None  # R4: the floor's reason for seat N+1, one over
    # R13-R18, R36: list entries that were due before this seat went to someone else, with why
    # (``roomops.remote.rules.PASSED``); the offer's audit tells those players (``entry.passed_over``)
    passed: tuple[tuple[int, str], ...] = field(default=(), compare=False)


def is_barred(player_id: int, others: Iterable[int], barred: set[frozenset[int]]) -> bool:
    """R15: would seating ``player_id`` beside ``others`` bring a barred pair together?"""
    return any(frozenset((player_id, other)) in barred for other in others)


def leaves_short(from_seated: int, to_seated: int) -> bool:
    """R18: would a voluntary move leave the player's table (``from_seated`` players now, the
    player included) with fewer players than the table joined will have (``to_seated`` + 1)?"""
    return from_seated - 1 < to_seated + 1


def _why_not(c: Candidate, t: TableState, barred: set[frozenset[int]],
             seated: dict[int, int]) -> str | None:
    """Why ``c`` may not sit at ``t``, its open seats aside: "table" (another table's reserve
    list), "short" (R18), "at_table" (R14), "barred" (R15); None when they may."""
    if c.table_id is not None and c.table_id != t.table_id:
        return "table"
    if c.seat_change_id is not None:  # already at the table, beside the same players
        return None
    if c.seated_at is not None and c.from_hold_id is None and leaves_short(
            seated.get(c.seated_at, 0), t.seated):
        return "short"
    if c.player_id in t.players:
        return "at_table"
    return "barred" if is_barred(c.player_id, t.players, barred) else None


def _eligible(c: Candidate, t: TableState, barred: set[frozenset[int]], seated: dict[int, int]) -> bool:
    return bool(t.open_seats) and _why_not(c, t, barred, seated) is None


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
    """Offer every open seat at once: players asking for a seat change at its table first (R36),
    then players due a must-move seat (R17), then in list order (R14). ``busy``: players holding
    an offer. ``tables`` are left as they are."""
    tables = [replace(t, open_seats=list(t.open_seats), players=set(t.players)) for t in tables]
    taken = set(busy)
    seated = {t.table_id: t.seated for t in tables}
    ordered = sorted(candidates, key=Candidate.order)
    result: list[tuple[Candidate, TableState, Assignment]] = []
    skipped: list[Candidate] = []  # list entries no table could take, in order (R13)
    for cand in ordered:
        if not any(t.open_seats for t in tables):
            break  # every seat is given: the rest of the list waits
        if cand.player_id in taken:
            continue
        table = next(
            (t for t in _table_order(tables, placement) if _eligible(cand, t, barred, seated)), None
        )
        if table is None:
            skipped += [cand] if cand.entry_id is not None else []
            continue
        passed = tuple((c.entry_id or 0, why) for c in skipped
                       if (why := _why_not(c, table, barred, seated)) in ("barred", "at_table", "short"))
        skipped = [c for c in skipped if (c.entry_id or 0) not in dict(passed)]  # told once
        seat = table.open_seats.pop(0)
        table.players.add(cand.player_id)
        taken.add(cand.player_id)
        result.append((cand, table, Assignment(table.table_id, seat, cand.entry_id, cand.player_id,
                                               cand.from_hold_id, cand.seat_change_id, passed=passed)))
    return [_went_first(cand, table, a, ordered, taken, barred, seated)
            for cand, table, a in result]


def _went_first(cand: Candidate, table: TableState, a: Assignment, ordered: list[Candidate],
                taken: set[int], barred: set[frozenset[int]], seated: dict[int, int]) -> Assignment:
    """R11/R14/R17/R36: a seat that went to a player asking to change seats at its table, a
    must-move player or a reserve-list entry names the waiting-list entry it would have gone to
    otherwise: the first one left without a seat that may sit there."""
    because = ("seat_change" if cand.seat_change_id is not None else "must_move"
               if cand.from_hold_id is not None else "reserve" if cand.table_id is not None else None)
    if because is None:
        return a
    after = ordered[ordered.index(cand) + 1:] if because == "reserve" else ordered
    nxt = next((c for c in after if c.entry_id is not None and c.table_id is None
                and c.from_hold_id is None and c.player_id not in taken
                and _why_not(c, table, barred, seated) is None), None)
    return a if nxt is None else replace(a, passed=(*a.passed, (nxt.entry_id or 0, because)))
