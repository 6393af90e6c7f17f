"""R27, R28, R61: when a cash-out needs a second person's approval and who may give it; and what
the cage types to find a player."""

from __future__ import annotations

import pytest

from roomops.errors import Conflict, Forbidden
from roomops.ledger.approval import approval_needed, check_approver
from roomops.ledger.search_terms import SeatSearch, parse_search


def test_r27_the_recorded_amount_is_paid_alone():
    assert approval_needed(12000, 12000, None) is None
    assert approval_needed(12000, 12000, 12000) is None  # at the threshold, not above it


def test_r27_a_different_or_unrecorded_amount_needs_approval():
    why = approval_needed(12500, 12000, None)
    assert why is not None and why.rule == "R27" and why.amounts == {"amount": 12500,
                                                                     "recorded": 12000}
    assert "differs" in why.template
    unrecorded = approval_needed(12000, None, None)
    assert unrecorded is not None and unrecorded.rule == "R27" and "no amount" in unrecorded.template


def test_r28_above_the_threshold_needs_approval():
    why = approval_needed(50001, 50001, 50000)
    assert why is not None and why.rule == "R28" and why.amounts["threshold"] == 50000


def test_r28_the_approver_is_a_second_active_supervisor():
    check_approver(2, 1, supervises=True, active=True)
    with pytest.raises(Conflict) as own:
        check_approver(1, 1, supervises=True, active=True)
    assert own.value.rule == "R28"
    for supervises, active in ((False, True), (True, False)):
        with pytest.raises(Forbidden) as err:
            check_approver(2, 1, supervises=supervises, active=active)
        assert err.value.rule == "R61"


@pytest.mark.parametrize("typed,found", [
    ("", SeatSearch()),
    ("   ", SeatSearch()),
    ("ann", SeatSearch(text="ann")),
    ("Ann  Lee", SeatSearch(text="Ann Lee")),
    ("7", SeatSearch(text="7")),  # a name or the table named 7
    ("table 7", SeatSearch(table="7")),
    ("7/3", SeatSearch(table="7", seat=3)),
    ("T7 / 3", SeatSearch(table="T7", seat=3)),
    ("7 s3", SeatSearch(table="7", seat=3)),
    ("table 7 seat 3", SeatSearch(table="7", seat=3)),
    ("#12", SeatSearch(player_id=12)),
])
def test_the_cage_finds_by_name_table_or_seat(typed, found):
    assert parse_search(typed) == found
