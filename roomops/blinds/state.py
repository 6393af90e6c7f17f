"""The table and seat states the blind rules read and return (R33-R36): immutable values."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from roomops.errors import Invalid

# "new": seated since the last hand and not dealt in yet; "absent": away, on a break, played over
# or sitting out a penalty (R25, R29, R55), as the caller says.
Status = Literal["active", "new", "absent"]
OwedPost = Literal["dead_small_blind", "live_big_blind"]  # R35/R36: what a player owes to come in
PostKind = Literal["small_blind", "big_blind", OwedPost]


@dataclass(frozen=True)
class SeatState:
    seat_no: int
    player_id: int | None = None  # None: an empty seat
    status: Status = "active"
    missed_sb: bool = False  # R35 buttons
    missed_bb: bool = False
    owes_bb: bool = False  # R36: a new player (post_or_wait) or one who moved away from the button

    @property
    def present(self) -> bool:
        return self.player_id is not None and self.status != "absent"

    @property
    def absent(self) -> bool:
        return self.player_id is not None and self.status == "absent"


@dataclass(frozen=True)
class TableState:
    """Positions of the last hand dealt (None before the first hand) and the stakes."""

    seats_per_table: int
    small_blind: int
    big_blind: int
    dealers_choice: bool = False  # R33: the button posts the small blind
    # R35, the room's exception (policy ``post_behind_button``, Nevada): a player between the
    # button and the small blind may post there to play at once
    post_behind_button: bool = False
    hand_no: int = 0
    button: int | None = None
    small_blind_seat: int | None = None  # the position, posted or dead
    big_blind_seat: int | None = None

    @property
    def places(self) -> tuple[int, int, int]:
        """The button, small blind and big blind seats of a table that has dealt a hand."""
        if self.button is None or self.small_blind_seat is None or self.big_blind_seat is None:
            raise ValueError("no hand dealt yet: the table has no button")
        return self.button, self.small_blind_seat, self.big_blind_seat


@dataclass(frozen=True)
class Post:
    seat_no: int
    kind: PostKind
    amount: int  # minor units


@dataclass(frozen=True)
class Waiting:
    """A present player not dealt in this hand, and why."""

    seat_no: int
    reason: str
    rule: str
    posts: tuple[OwedPost, ...] = ()  # what they may post to play this hand; () none may be posted


@dataclass(frozen=True)
class HandPlan:
    """One hand: ``table`` and ``seats`` are the states to store once it is dealt."""

    table: TableState
    seats: tuple[SeatState, ...]
    dealt_in: tuple[int, ...]  # in dealing order: left of the button round to the button
    posts: tuple[Post, ...]
    missed_sb: tuple[int, ...]  # buttons given this hand
    missed_bb: tuple[int, ...]
    waiting: tuple[Waiting, ...]
    heads_up: bool


def seat_map(table: TableState, seats: Sequence[SeatState]) -> dict[int, SeatState]:
    """Seats by number; every seat of the table exactly once (empty ones as SeatState(n))."""
    by_no = {s.seat_no: s for s in seats}
    if sorted(by_no) != list(range(1, table.seats_per_table + 1)) or len(seats) != len(by_no):
        raise Invalid(f"give seats 1 to {table.seats_per_table}, each once", "R33")
    return by_no


def clockwise(start: int, n: int) -> Iterator[int]:
    """The seats after ``start`` clockwise, ending with ``start`` itself."""
    return ((start + i - 1) % n + 1 for i in range(1, n + 1))


def between(after: int, before: int, seat: int, n: int) -> bool:
    """Is ``seat`` strictly clockwise after ``after`` and before ``before``? (Equal ends: the
    whole table but that seat.)"""
    span = (before - after) % n or n
    return 0 < (seat - after) % n < span
