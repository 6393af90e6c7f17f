"""R4/R14/R20 and R33-R35 (issue 20): a table one over its seat count, on the pure rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from roomops.blinds.positions import first_hand, next_hand
from roomops.blinds.state import HandPlan, SeatState, TableState
from roomops.errors import Conflict, Invalid
from roomops.holds.extra_seat import check_seat, offerable, seat_count
from tests.rules.test_blinds_positions import blinds, places, seated

FULL = range(1, 10)  # seats 1..9 of a 9-seat table


def test_r4_seat_count_is_n_plus_one_only_while_the_extra_seat_is_held():
    assert seat_count(9, FULL) == 9
    assert seat_count(9, [*FULL, 10]) == 10
    assert seat_count(9, [1, 10]) == 10  # still one over in numbering, though short of players
    assert seat_count(10, [11]) == 11
    # R34: the last hand's button or a blind in the extra seat keeps it for the next hand
    assert seat_count(9, FULL, [9, 10, 1]) == 10
    assert seat_count(9, FULL, [1, 2, 3]) == 9


def test_r14_r20_no_seat_offered_while_at_or_over_the_count():
    assert offerable(9, [*FULL, 10]) == []
    assert offerable(9, [1, 2, 4, 5, 6, 7, 8, 9, 10]) == []  # nine holds: at its count
    assert offerable(9, [1, 2, 4, 5, 6, 7, 8, 10]) == [3]  # eight: one seat, never seat 10
    assert offerable(9, [1, 2, 4, 5, 6, 7, 8]) == [3, 9]
    assert offerable(10, range(1, 11)) == []


def test_r4_the_extra_seat_needs_a_full_table_and_a_written_reason():
    assert check_seat(9, 10, FULL, FULL, " busy night ", "1") == "busy night"
    for reason in (None, "", "   "):
        with pytest.raises(Invalid, match="written reason") as err:
            check_seat(9, 10, FULL, FULL, reason, "1")
        assert err.value.rule == "R4"
    called = [1, 2, 3, 4, 5, 6, 7, 8]  # seat 9 is called, not seated: not a full table
    with pytest.raises(Conflict, match="full table") as err:
        check_seat(9, 10, FULL, called, "busy night", "1")
    assert err.value.rule == "R4"
    with pytest.raises(Conflict) as err:
        check_seat(9, 10, [*FULL, 10], [*FULL, 10], "another", "1")
    assert err.value.rule == "R20"
    with pytest.raises(Invalid, match="does not exist") as err:
        check_seat(9, 11, [*FULL, 10], [*FULL, 10], "two over", "1")
    assert err.value.rule == "R4"


def test_r4_seats_one_to_n_only_under_the_count_and_without_an_over_reason():
    assert check_seat(9, 3, [1, 2], [1, 2], None) is None
    with pytest.raises(Conflict, match="until it is under 9") as err:
        check_seat(9, 3, [1, 2, 4, 5, 6, 7, 8, 9, 10], [1, 2, 4, 5, 6, 7, 8, 9, 10], None, "1")
    assert err.value.rule == "R4"
    with pytest.raises(Invalid, match="only seat 10") as err:
        check_seat(9, 3, [1, 2], [1, 2], "busy night")
    assert err.value.rule == "R4"


def _next(plan: HandPlan, seats: tuple[SeatState, ...], taken: set[int], n: int = 9) -> HandPlan:
    """The next hand at a table of ``n`` seats, its seat count derived as the app does."""
    count = seat_count(n, taken, [plan.table.button, plan.table.small_blind_seat,
                                  plan.table.big_blind_seat])
    by_no = {s.seat_no: s for s in seats}
    return next_hand(replace(plan.table, seats_per_table=count),
                     tuple(by_no.get(i, SeatState(i)) for i in range(1, count + 1)))


def test_r33_r34_button_and_blinds_go_round_through_the_extra_seat_and_past_it_once_empty():
    ten = set(range(1, 11))
    plan = first_hand(TableState(seat_count(9, ten), 50, 100), seated(10, ten), 8)
    assert places(plan) == (8, 9, 10)
    plan = _next(plan, plan.seats, ten)
    assert places(plan) == (9, 10, 1) and len(plan.dealt_in) == 10
    # the player in seat 10 leaves: the seat stays in the round until the button has passed it
    left = tuple(SeatState(10) if s.seat_no == 10 else s for s in plan.seats)
    plan = _next(plan, left, ten - {10})
    assert places(plan) == (10, 1, 2)  # R34: the dead button on the empty extra seat
    assert blinds(plan) == [(1, "small_blind"), (2, "big_blind")]
    plan = _next(plan, plan.seats, ten - {10})
    assert places(plan) == (1, 2, 3) and plan.table.seats_per_table == 10
    plan = _next(plan, plan.seats, ten - {10})
    assert places(plan) == (2, 3, 4) and plan.table.seats_per_table == 9


def test_r35_the_extra_seat_absent_when_its_big_blind_comes_gets_missed_bb_and_is_passed():
    ten = set(range(1, 11))
    plan = first_hand(TableState(10, 50, 100), seated(10, ten), 8)  # button 8, SB 9, BB 10
    plan = _next(plan, plan.seats, ten)  # button 9, SB 10, BB 1
    seats = tuple(replace(s, status="absent") if s.seat_no == 10 else s for s in plan.seats)
    plan = _next(plan, seats, ten)
    assert places(plan) == (10, 1, 2)  # the button on the absent player: nothing missed
    for _ in range(7):  # the big blind goes round seats 3 to 9
        plan = _next(plan, plan.seats, ten)
    assert places(plan) == (7, 8, 9) and not plan.missed_bb
    plan = _next(plan, plan.seats, ten)
    assert places(plan) == (8, 9, 1) and plan.missed_bb == (10,)  # seat 10 passed, R35
    assert plan.seats[9].missed_bb and 10 not in plan.dealt_in
