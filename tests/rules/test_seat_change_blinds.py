"""R36: a seat change never lets a player skip a big blind they were about to post, checked for
every seat a player can move to against what the blind engine then deals (R33-R35)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from roomops.blinds.missed import move_seat
from roomops.blinds.positions import first_hand, next_hand
from roomops.blinds.state import SeatState
from tests.rules.test_blinds_positions import leave, seated, table

BIG_BLINDS = ("big_blind", "live_big_blind")


def free_hands(seats: tuple[SeatState, ...], tbl, player: int) -> int:
    """Hands ``player`` is dealt in without posting before they next post a big blind, each hand
    dealt by the engine with nobody posting out of turn."""
    free = 0
    for _ in range(3 * tbl.seats_per_table):
        plan = next_hand(tbl, seats)
        seat = next(s.seat_no for s in plan.seats if s.player_id == player)
        if any(p.seat_no == seat and p.kind in BIG_BLINDS for p in plan.posts):
            return free
        free += seat in plan.dealt_in
        tbl, seats = plan.table, plan.seats
    raise AssertionError("the big blind never reached the player")


CASES = [(n, button, target) for n in (9, 6) for button in (1, 4, n) for target in range(1, n + 1)]


@pytest.mark.parametrize(("n", "button", "target"), CASES)
def test_r36_no_seat_to_move_to_skips_a_big_blind(n, button, target):
    """R36 (R35): after a hand with the button at ``button`` at a full ``n``-handed table, the
    player of ``target`` leaves; every other player moving there either owes the big blind (posts
    it or waits for it) or is dealt in no more hands before their next big blind than before the
    move, but one when they move one occupied seat away (not when they were due the big blind
    next)."""
    plan = first_hand(table(n), seated(n, range(1, n + 1)), button)
    seats = leave(plan, target)
    for mover in (s for s in range(1, n + 1) if s != target):
        player = 100 + mover
        before = free_hands(seats, plan.table, player)
        after_move = move_seat(plan.table, seats, mover, target)
        moved = after_move[target - 1]
        if moved.owes_bb:
            nxt = next_hand(plan.table, after_move)
            assert target not in nxt.dealt_in or nxt.table.big_blind_seat == target, (mover, target)
            continue
        after = free_hands(after_move, plan.table, player)
        allowed = before if before == 0 else before + 1
        assert after <= allowed, f"seat {mover} to {target}: {before} free hands, then {after}"


def test_r36_due_the_big_blind_next_and_moving_into_the_button_seat_owes_it():
    """R36: the player due the next big blind who moves into the seat the button has just left
    owes the big blind (it would otherwise go round them)."""
    plan = first_hand(table(9), seated(9, range(1, 10)), 1)  # button 1, SB 2, BB 3; 4 is next
    seats = tuple(replace(s, player_id=None) if s.seat_no == 1 else s for s in plan.seats)
    assert move_seat(plan.table, seats, 4, 1)[0].owes_bb
