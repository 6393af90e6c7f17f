"""R2, R54 without a database: closing never stops the floor. A row posted in a shift closed early
goes to the next open shift of the day; the day closes once it has ended, the refusal naming
its end on the room's clock; or before it, once no table is open, the rest of the day then posting
to the next gaming day; tables still running are refused or only warned of, by policy."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Conflict
from roomops.ledger.closing import (
    check_confirmed,
    check_day_closable,
    check_running,
    local,
    posting_place,
    posting_shift,
    running_warning,
    shift_closed,
)

DAY = date(2026, 7, 4)
END = datetime(2026, 7, 5, 5, tzinfo=UTC)  # 06:00 in London (BST)


def test_r54_an_open_shift_takes_its_own_rows():
    assert posting_shift(2, 3, []) == 2
    assert posting_shift(2, 3, [(1, False)]) == 2


def test_r54_a_shift_closed_early_hands_the_rest_of_it_to_the_next_open_one():
    assert posting_shift(1, 3, [(1, False)]) == 2
    assert posting_shift(1, 3, [(1, False), (2, False)]) == 3
    assert posting_shift(2, 3, [(2, False)]) == 3  # shift 1's close is covered by 2's


def test_r54_no_open_shift_left_is_none():
    assert posting_shift(3, 3, [(3, True)]) is None  # the day is closed
    assert posting_shift(1, 1, [(2, False)]) is None  # a policy changed after a close


@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(1, n), st.lists(st.tuples(st.integers(1, 12), st.booleans()),
                                            max_size=4))))
def test_r54_the_shift_chosen_is_the_first_open_one_from_the_instants(case):
    shifts, shift, closes = case
    chosen = posting_shift(shift, shifts, closes)
    if chosen is None:
        assert all(shift_closed(n, closes) for n in range(shift, shifts + 1))
    else:
        assert shift <= chosen <= shifts and not shift_closed(chosen, closes)
        assert all(shift_closed(n, closes) for n in range(shift, chosen))


def test_r2_r54_the_day_closes_once_it_has_ended_or_once_no_table_is_open():
    check_day_closable(DAY, END, "Europe/London", END, ["1"])
    check_day_closable(DAY, END, "Europe/London", END + timedelta(hours=3), ["1", "2"])
    # a room that shuts at 04:00 closes its books then, whatever the clock says
    check_day_closable(DAY, END, "Europe/London", END - timedelta(hours=2), [])
    with pytest.raises(Conflict) as err:
        check_day_closable(DAY, END, "Europe/London", END - timedelta(seconds=1), ["1", "2"])
    assert err.value.rule == "R54"
    assert "gaming day 2026-07-04 is still running (tables open: 1, 2): close every table to " \
           "close the day now, or close it after it ends at 06:00 on 2026-07-05 " \
           "(Europe/London)" in err.value.message


def test_r54_after_the_days_close_rows_go_to_the_next_gaming_day():
    assert posting_place(DAY, 2, 3, [(1, False)]) == (DAY, 2)
    assert posting_place(DAY, 1, 3, [(1, False)]) == (DAY, 2)
    assert posting_place(DAY, 3, 3, [(3, True)]) == (DAY + timedelta(days=1), 1)
    assert posting_place(DAY, 1, 2, [(1, False), (2, True)]) == (DAY + timedelta(days=1), 1)
    assert posting_place(DAY, 1, 1, [(2, False)]) is None  # a policy changed after a close


def test_local_names_the_rooms_wall_clock():
    assert local(END, "Europe/London") == "06:00 on 2026-07-05 (Europe/London)"
    assert local(END, "UTC") == "05:00 on 2026-07-05 (UTC)"


def test_r54_tables_running_are_refused_or_only_warned_of():
    check_running("warn", ["1", "2"])
    check_running("refuse", [])
    with pytest.raises(Conflict) as err:
        check_running("refuse", ["1", "2"])
    assert err.value.rule == "R54"
    assert running_warning(["1", "2"]) in err.value.message
    assert running_warning(["1", "2"]) == "tables still running (a player seated): 1, 2"


def test_r54_a_close_records_the_totals_it_was_confirmed_on():
    check_confirmed(None, 35000)  # the API: nothing was shown
    check_confirmed(35000, 35000)
    with pytest.raises(Conflict) as err:
        check_confirmed(34000, 35000)
    assert err.value.rule == "R54" and err.value.amounts == {"confirmed": 34000, "expected": 35000}
    assert "the ledger changed after the totals were shown" in err.value.message
