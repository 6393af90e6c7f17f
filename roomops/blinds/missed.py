"""What a player owes to be dealt in (R35, R36, R19): missed-blind buttons, new players, moves."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Literal

from roomops.blinds.state import OwedPost, SeatState, TableState, between, clockwise, seat_map
from roomops.errors import Conflict

NewPlayerPosting = Literal["post_or_wait", "free"]
GamePosting = Literal["room", "post_or_wait", "free"]  # R36: a game's own, or the room's
# "moved_at_big_blind": from a must-move table when the big blind reached them there (R17)
Arrival = Literal["new", "floor_move", "broken_table", "moved_at_big_blind"]
MustMoveWhen = Literal["at_once", "big_blind"]  # R17


def owed(seat: SeatState) -> tuple[OwedPost, ...]:
    """R35/R36: what the player posts to be dealt in before the big blind reaches them.

    A missed SB alone is posted dead; a missed BB (with or without the SB) is SB dead plus BB
    live; a new player (``post_or_wait``) or one who moved away from the button posts a live BB."""
    dead: tuple[OwedPost, ...] = ("dead_small_blind",) if seat.missed_sb or seat.missed_bb else ()
    live: tuple[OwedPost, ...] = ("live_big_blind",) if seat.missed_bb or seat.owes_bb else ()
    return dead + live


def settled(seat: SeatState) -> SeatState:
    """R35: the debt is posted, or the big blind reached the player: buttons come off."""
    return replace(seat, status="active", missed_sb=False, missed_bb=False, owes_bb=False)


def arrive(seat_no: int, player_id: int, how: Arrival = "new",
           policy: NewPlayerPosting = "post_or_wait") -> SeatState:
    """R36: a new player waits for the big blind or posts one (``post_or_wait``), or pays only
    when it is their turn (``free``); R19: one from a broken table or moved by the floor owes
    nothing; R17: one who moved from a must-move table as its big blind reached them posts a
    big blind here (or waits for it), whatever the new players' policy."""
    owes = how == "moved_at_big_blind" or (how == "new" and policy == "post_or_wait")
    return SeatState(seat_no, player_id, "new", owes_bb=owes)


def must_move_arrival(when: MustMoveWhen) -> Arrival:
    """R17/R19: how a must-move player arrives at the main table. Moved at once (``at_once``) they
    are moved by the rule and come in free; moved when the big blind reached them at the
    must-move table (``big_blind``) they have played their blinds there but that big blind, and
    post one to be dealt in at the main table."""
    return "floor_move" if when == "at_once" else "moved_at_big_blind"


def move_seat(table: TableState, seats: Sequence[SeatState], from_seat: int, to_seat: int,
              by_floor: bool = False) -> tuple[SeatState, ...]:
    """R36: a player who changes seats at the same table owes the big blind when the move would
    let the big blind go round them (``skips_big_blind``); a move ordered by the floor owes
    nothing (R19). Missed-blind buttons go with the player."""
    by_no = seat_map(table, seats)
    mover, target = by_no[from_seat], by_no[to_seat]
    if mover.player_id is None or target.player_id is not None:
        raise Conflict(f"move from seat {from_seat} to seat {to_seat}: the first must be taken "
                       "and the second free", "R36")
    skips = not by_floor and table.button is not None and skips_big_blind(
        table, by_no, from_seat, to_seat)
    moved = replace(mover, seat_no=to_seat, status="new", owes_bb=mover.owes_bb or skips)
    by_no[from_seat], by_no[to_seat] = SeatState(from_seat), moved
    return tuple(by_no[n] for n in sorted(by_no))


def skips_big_blind(table: TableState, by_no: dict[int, SeatState], from_seat: int,
                    to_seat: int) -> bool:
    """R36: does moving from ``from_seat`` to ``to_seat`` let the big blind pass the player by?
    It does when they pass two or more active players moving clockwise away from the button
    (``002_…`` 16), one when they were due the next big blind, or when they move into a seat the
    blinds have just passed (the last hand's button, small or big blind) from outside them: the
    big blind would come back to them last."""
    button, sb, bb = table.places
    n = table.seats_per_table
    passed = _passed(button, n, by_no.values(), from_seat, to_seat)
    due_next = from_seat == next(s for s in clockwise(bb, n) if by_no[s].present or s == bb)
    just_passed = {button, sb, bb}
    return passed >= 2 or (due_next and passed >= 1) or (
        to_seat in just_passed and from_seat not in just_passed)


def _passed(button: int, n: int, seats: Iterable[SeatState], from_seat: int, to_seat: int) -> int:
    """Active players passed moving clockwise away from the button (none moving towards it)."""
    if (to_seat - button) % n < (from_seat - button) % n:
        return 0
    return sum(1 for s in seats
               if s.status == "active" and s.present and between(from_seat, to_seat, s.seat_no, n))
