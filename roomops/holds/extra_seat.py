"""A table started one player over its seat count (R4, R14, R20; docs/decisions.md): pure rules.

A game's tables have ``seats`` seats (N, its ``seats_per_table``); with the floor's written
reason a full table may take one more player in seat N+1, the extra seat. The table's seat count
is derived, never stored: N+1 while someone holds seat N+1, else N. No seat of the table is
offered or given while N or more hold its seats: offers resume once it is under its count.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from roomops.errors import Conflict, Invalid


def seat_count(seats: int, taken: Collection[int], positions: Iterable[int | None] = ()) -> int:
    """R4: N+1 while seat N+1 is ``taken`` (or holds the last hand's button or a blind in
    ``positions``, so the button and blinds move round through it, R34), else N."""
    extra = seats + 1
    return extra if extra in taken or extra in positions else seats


def offerable(seats: int, taken: Collection[int]) -> list[int]:
    """R14/R20: the free seats 1..N to offer, only as many as bring the table up to N holds: none
    while the table is at or over its count (seat N+1 is never offered)."""
    free = [n for n in range(1, seats + 1) if n not in taken]
    return free[:max(0, seats - len(taken))]


def check_seat(seats: int, seat_no: int, taken: Collection[int], seated: Collection[int],
               over_reason: str | None, table: str = "") -> str | None:
    """R4/R20: may a player be seated (or called by hand) to ``seat_no`` of a table whose seats
    ``taken`` are held (``seated``: by players sitting)? Seats 1..N while the table is under its
    count; seat N+1 only with the floor's written reason, at a full table (seats 1..N all seated)
    with nobody in N+1. Returns the reason to store on the hold (None for seats 1..N). ``table``:
    its name, for the refusals."""
    extra = seats + 1
    name = f"table {table}" if table else "the table"
    at = f"at {name}"
    if not 1 <= seat_no <= extra:
        raise Invalid(f"seat {seat_no} does not exist {at}, a {seats}-seat table (seat {extra} "
                      "only one over)", "R4")
    if seat_no in taken:
        raise Conflict(f"seat {seat_no} {at} is taken or called", "R20")
    reason = (over_reason or "").strip()
    if seat_no <= seats:
        if reason:
            raise Invalid(f"only seat {extra} {at} is taken one over its {seats} seats", "R4")
        if len(taken) >= seats:
            raise Conflict(f"{name} is at or over its {seats} seats: nobody new sits "
                           f"there until it is under {seats}", "R4")
        return None
    if not reason:
        raise Invalid(f"seat {extra} {at} is one over its {seats} seats: the floor's written "
                      "reason is needed", "R4")
    if not set(range(1, extra)) <= set(seated):
        raise Conflict(f"seat {extra} {at} is taken one over only at a full table: seats 1 to "
                       f"{seats} must all be seated", "R4")
    return reason
